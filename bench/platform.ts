// What the platform costs per request, next to what Fastify alone costs on the same machine:
// a bare hello-world, our /healthz (every global hook and plugin, no database) and an
// authenticated GET /api/me (session lookup + account reads in the database).
//
//   npm run bench platform            PGlite (the embedded default)
//   BENCH_DATABASE_URL=postgres://…   a Postgres database instead (scratch: a user is added)
//   BENCH_CONNECTIONS=20 BENCH_SECONDS=5   load per row
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { pino } from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { start } from '../src/server/runtime.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

interface Row {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx answers, connection errors and timeouts: a row with any is not a valid measurement. */
  failures: number;
  ratioToBare: number;
}

async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Omit<Row, 'ratioToBare'>> {
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`${name}: ${url} answered ${check.status}`);
  await check.arrayBuffer();
  // The load generator runs in a worker thread so it does not share the server's event loop.
  const options = { url, headers, connections, workers: 1 };
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, pools, caches
  const result = await autocannon({ ...options, duration: seconds });
  const row = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
  console.log(
    `  ${name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms` +
      (row.failures ? `, ${row.failures} failures` : ''),
  );
  return row;
}

async function bareFastify(): Promise<Omit<Row, 'ratioToBare'>> {
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ hello: 'world' }));
  const url = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await measure('bare Fastify hello-world', `${url}/`);
  } finally {
    await bare.close();
  }
}

async function ourApp(): Promise<{ rows: Omit<Row, 'ratioToBare'>[]; database: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-'));
  const publicUrl = 'http://localhost:3000';
  const config = loadConfig({
    NODE_ENV: 'production',
    ALLOW_TEST_CHECKOUT: 'true',
    SEED_CONTENT: 'false',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    ROLE: 'web',
    RATE_LIMIT_DISABLED: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const running = await start(config, pino({ level: 'silent' }), { listen: true });
  try {
    const url = running.url!;
    const email = `bench-${Date.now()}@example.com`;
    const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: publicUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'Bench' }),
    });
    if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const rows = [
      await measure('Likeness GET /healthz', `${url}/healthz`),
      await measure('Likeness GET /api/me (signed in)', `${url}/api/me`, { cookie }),
    ];
    return { rows, database: running.deps.database.kind };
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdown(meta: Record<string, string | number>, rows: Row[]): string {
  const lines = [
    '# Platform benchmark',
    '',
    'Written by `npm run bench platform` (`bench/platform.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '| target | requests/s (avg) | p50 latency | p99 latency | failures | vs bare Fastify |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.failures} | ${row.ratioToBare.toFixed(2)}× |`,
    ),
    '',
  ];
  return lines.join('\n');
}

console.log(`platform: ${connections} connections × ${seconds} s per target, one at a time`);
const bare = await bareFastify();
const app = await ourApp();
const rows: Row[] = [bare, ...app.rows].map((row) => ({
  ...row,
  ratioToBare: row.requestsPerSecond / bare.requestsPerSecond,
}));
const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.availableParallelism()} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
  database: app.database,
  // Numbers from a machine busy with other work are lower; this says how busy it was.
  'load average at the end (1 min)': os.loadavg()[0]!.toFixed(2),
  load: `autocannon, ${connections} connections, ${seconds} s per target after a 1 s warm-up, client in a worker thread of the same process`,
};

console.table(
  Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        'req/s': row.requestsPerSecond,
        'p50 ms': row.p50Ms,
        'p99 ms': row.p99Ms,
        failures: row.failures,
        'vs bare': `${row.ratioToBare.toFixed(2)}×`,
      },
    ]),
  ),
);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'platform.md'), markdown(meta, rows));
writeFileSync(
  path.join(resultsDir, 'platform.json'),
  `${JSON.stringify({ ...meta, rows }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), resultsDir)}/platform.{md,json}`);

if (rows.some((row) => row.failures > 0)) {
  console.error('some requests failed: the numbers above do not measure success');
  process.exit(1);
}
