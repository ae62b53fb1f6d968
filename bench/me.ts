// GET /api/me on Postgres against its floor (issue #18): the product's whole request path next
// to the least a correct answer costs, one SQL join behind a bare Fastify route, in the same run.
//
//   npm run bench me
//   BENCH_DATABASE_URL=postgres://…        a Postgres server (scratch database, dropped at the end;
//                                          default: the local one when `pg_isready` answers).
//                                          Without one nothing is measured: the floor is SQL.
//   BENCH_CONNECTIONS=50 BENCH_SECONDS=5   autocannon load per row, one user per connection
//   BENCH_ROUNDS=3                         rounds of (floor, product, product without the cache):
//                                          the three servers run side by side and each round
//                                          measures them one after another; medians are reported
//                                          (after a warm-up round that is not kept)
//
// The floor does what a correct answer must: check the cookie's signature (HMAC-SHA256 with
// Node's crypto), then one statement joining the session (unexpired) to its user, profile and
// subscription, and answer the same JSON shape. Both run in this process on pools of 10; the
// load generator runs in a worker thread. "Main-thread ms per request" is the server's
// event-loop busy time divided by the requests answered: the CPU the request path costs in Node
// (the load generator's thread is not counted; Postgres's own CPU is not either).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { start, type Running } from '../src/server/runtime.ts';
import { type BenchUser, signUpOverHttp } from './support/accounts.ts';
import { listenFloor, signedSessionToken } from './support/floor-server.ts';
import { machine, writeResults } from './support/results.ts';
import { afterWarmUp, warmUpEnabled } from './support/warm-up.ts';
import {
  adminQuery,
  createScratchDatabase,
  dropScratchDatabase,
} from './support/scratch-database.ts';
import { type MeasuredRow, measureThroughput, medianBy } from './support/throughput.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const secret = 'bench-secret-bench-secret-bench-secret-0123';
const publicUrl = 'http://localhost:3000';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-me-'));

const databaseUrl = await createScratchDatabase();
if (!databaseUrl) {
  console.log('me: no Postgres server (BENCH_DATABASE_URL or a local one); nothing measured.');
  process.exit(0);
}

async function startApp(extra: Record<string, string>): Promise<Running & { url: string }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    ALLOW_TEST_CHECKOUT: 'true',
    SEED_CONTENT: 'false',
    AUTH_SECRET: secret,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    ROLE: 'web',
    RATE_LIMIT_DISABLED: 'true',
    DATABASE_URL: databaseUrl!,
    ...extra,
  });
  const running = await start(config, pino({ level: 'silent' }), { listen: true });
  return { ...running, url: running.url! };
}

/** The floor: the signature checked, then one join, behind a bare Fastify route. */
async function startFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const floor = Fastify({ logger: false });
  floor.get('/api/me', async (request, reply) => {
    const token = signedSessionToken(request.headers.cookie, secret);
    if (!token) return reply.status(401).send({ error: { code: 'UNAUTHORIZED' } });
    const { rows } = await pool.query({
      name: 'floor-me',
      text: `select u.id, u.email, u.name, u.role, u.created_at, p.training_in_progress,
                    p.selected_training_model_id, s.active, s.tier, s.credits,
                    s.monthly_free_trainings_left
               from session se
               join "user" u on u.id = se.user_id
               join profiles p on p.user_id = u.id
               join subscriptions s on s.user_id = u.id
              where se.token = $1 and se.expires_at > now()`,
      values: [token],
    });
    const row = rows[0];
    if (!row) return reply.status(401).send({ error: { code: 'UNAUTHORIZED' } });
    return {
      user: {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        createdAt: row.created_at.toISOString(),
      },
      profile: {
        trainingInProgress: row.training_in_progress,
        selectedTrainingModelId: row.selected_training_model_id,
      },
      subscription: {
        active: row.active,
        tier: row.tier,
        credits: row.credits,
        monthlyFreeTrainingsLeft: row.monthly_free_trainings_left,
      },
    };
  });
  return listenFloor(floor, pool);
}

/** The autocannon module that gives connection n the session of user n. */
function perUserClients(users: BenchUser[]): string {
  const file = path.join(dataDir, 'me-clients.cjs');
  writeFileSync(
    file,
    `const cookies = ${JSON.stringify(users.map((user) => user.cookie))};\nlet next = 0;\n` +
      `module.exports = (client) => {\n` +
      `  client.setHeaders({ cookie: cookies[next++ % cookies.length] });\n};\n`,
  );
  return file;
}

interface Row extends MeasuredRow {
  mainThreadMsPerRequest: number;
  ratioToFloor: number;
}

/** One throughput row, with the main thread's busy time per request while it ran. */
async function measure(name: string, url: string, clients: string, cookie: string) {
  const before = performance.eventLoopUtilization();
  const row = await measureThroughput(
    name,
    { url: `${url}/api/me`, headers: { cookie }, setupClient: clients },
    { connections, seconds },
  );
  const used = performance.eventLoopUtilization(before);
  // Warm-up (1 s) and the check request included: their requests are few next to the run's.
  return { ...row, mainThreadMsPerRequest: used.active / Math.max(1, row.requests) };
}

const floorName = 'floor: signature checked, then one join (session, user, profile, subscription)';
const productName = 'GET /api/me, the product (session cache on, the default)';
const withoutCacheName =
  'GET /api/me, the product with SESSION_CACHE_SECONDS=0 (the session read each time)';
/** Each target's row of every round, in the order measured. */
const byRound = new Map<string, Omit<Row, 'ratioToFloor'>[]>();
let serverVersion: string;
try {
  serverVersion = await adminQuery('show server_version');
  const product = await startApp({});
  const withoutCache = await startApp({ SESSION_CACHE_SECONDS: '0' });
  const floor = await startFloor();
  try {
    console.log(`  signing up ${connections} users…`);
    const users: BenchUser[] = [];
    for (let n = 0; n < connections; n += 1)
      users.push(await signUpOverHttp(product.url, publicUrl));
    const clients = perUserClients(users);
    const targets = [
      [floorName, floor.url],
      [productName, product.url],
      [withoutCacheName, withoutCache.url],
    ] as const;
    // A round at full load first, not kept (as in bench/generation.ts): the product's code is
    // large next to the floor's and ran slower in its first seconds, before V8 optimised it.
    if (warmUpEnabled)
      for (const [name, url] of targets)
        await measure(`warm-up round (not kept): ${name}`, url, clients, users[0]!.cookie);
    // Rounds alternate the targets, so a minute in which this shared machine is slow (it often
    // is) lands on all of them instead of deciding the ratio.
    for (let round = 1; round <= rounds; round += 1) {
      for (const [name, url] of targets) {
        const row = await measure(name, url, clients, users[0]!.cookie);
        byRound.set(name, [...(byRound.get(name) ?? []), row]);
      }
    }
  } finally {
    await Promise.all([product.stop(), withoutCache.stop(), floor.close()]);
  }
} finally {
  await dropScratchDatabase();
  rmSync(dataDir, { recursive: true, force: true });
}

const floorRate = medianBy(
  byRound.get(floorName)!,
  (row) => row.requestsPerSecond,
).requestsPerSecond;
const rows: Row[] = [floorName, productName, withoutCacheName].map((name) => {
  const row = medianBy(byRound.get(name)!, (measured) => measured.requestsPerSecond);
  return { ...row, ratioToFloor: row.requestsPerSecond / floorRate };
});
/** The product against the floor within each round (measured a few seconds apart). */
const roundRatios = byRound
  .get(productName)!
  .map((row, round) => row.requestsPerSecond / byRound.get(floorName)![round]!.requestsPerSecond);
const meta = {
  ...machine(),
  database: `Postgres ${serverVersion} on the same machine (scratch database, pools of 10)`,
  load: `autocannon, ${connections} connections (one user each), ${seconds} s per row ${afterWarmUp('a 1 s warm-up')}, client in a worker thread of this process`,
  rounds: `${rounds} of (floor, product, product without the cache), the servers side by side; each row is its target's median round by requests/s (of an even count, the lower middle)`,
  'product ÷ floor in each round': roundRatios.map((ratio) => `${ratio.toFixed(2)}×`).join(', '),
  goal: 'the product at least 0.7 of the floor (issue #18)',
};

function markdown(): string {
  return [
    '# GET /api/me against its floor',
    '',
    'Written by `npm run bench me` (`bench/me.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '| target | requests/s | p50 | p99 | failures | main-thread ms per request | vs floor |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.failures} | ${row.mainThreadMsPerRequest.toFixed(3)} | ${row.ratioToFloor.toFixed(2)}× |`,
    ),
    '',
  ].join('\n');
}

console.table(
  Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        'req/s': row.requestsPerSecond,
        'p99 ms': row.p99Ms,
        'ms/req (main thread)': row.mainThreadMsPerRequest.toFixed(3),
        'vs floor': `${row.ratioToFloor.toFixed(2)}×`,
      },
    ]),
  ),
);
writeResults('me', markdown(), { ...meta, rows });

if (rows.some((row) => row.failures > 0)) {
  console.error('some requests failed: the numbers above do not measure success');
  process.exit(1);
}
