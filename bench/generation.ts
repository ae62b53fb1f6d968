// Generation on Postgres (issues #7 and #10): how many generations the API accepts per second
// through the full request path next to bare Fastify in the same run, the server time to accept
// a bulk of 100 images, and the time from a generation's job completing to its event arriving at
// an SSE client, in one process and across two processes.
//
//   npm run bench generation
//   BENCH_DATABASE_URL=postgres://…   a Postgres server; a scratch database is created on it and
//                                     dropped at the end (without it: postgres://postgres:postgres@
//                                     127.0.0.1:5432/postgres when `pg_isready -h 127.0.0.1`
//                                     answers, else PGlite, which the results then say)
//   BENCH_CONNECTIONS=50 BENCH_SECONDS=5   autocannon load per throughput row
//   BENCH_BULKS=10                        sequential bulk requests of 100 presets (after 1 warm-up)
//   BENCH_EVENTS=30                       sequential generations per event-latency row
//   BENCH_BYSTANDERS=5000                 other users (a subscription, a model each) in phase 4
//   BENCH_ROUNDS=5                        rounds of (floor, product) in the floor comparison,
//                                         after one warm-up round that is not kept
//   BENCH_PROFILE=<dir>                   CPU profiles of the floor comparison's rows (main thread)
//   BENCH_WARM_UP=true                    false: no warm-up generation, bulk or load second
//                                         (npm test's smoke run, whose figures are not read)
//
// Phases, one after another, the apps in this process through `start()` (NODE_ENV=production,
// rate limits off, SEED_CONTENT off, logging silent), sharing one database and data directory:
//   1. setup, ROLE=all: a user buys Pro (test checkout), uploads person A's 8 photos, creates a
//      model trained by the local engine; 120 presets in one category (5 real portraits as their
//      pictures) and credits granted through the ledger are inserted directly;
//   2. event latency, ROLE=all: an SSE client (in a worker thread, its own event loop) on the
//      same instance whose worker makes the image;
//   3. event latency across processes: a server process with ROLE=web (`node
//      dist/server/main.mjs`, its own LISTEN connection) holds the SSE stream and takes the
//      requests, the ROLE=all app in this process makes the images;
//   4. acceptance, ROLE=web: jobs are enqueued, never processed, so no worker competes for the CPU
//      with the request path being measured. Besides the measured users, the tables hold
//      BENCH_BYSTANDERS (5,000) other users' subscriptions and models, as a server's do. The product is compared with its floor in the same
//      run (issue #18, `support/generation-floor.ts`): one prepared statement behind a bare
//      Fastify route doing all the work a correct accept must, on the same users, models and
//      preset; each round measures both back to back, the floor first in odd rounds and the
//      product first in even ones (BENCH_ROUNDS, default 5, after a warm-up round), each row
//      after an ANALYZE (the statistics a running server's autovacuum keeps). The ratio is the
//      median of the rounds' ratios: a round's two rows run seconds apart, so a slow or fast
//      spell of this shared machine moves both. The rows report each figure's median over the
//      rounds, with the CPU per request (Node's main thread, Postgres's backends). Afterwards
//      every balance must equal the sum of its ledger and every accepted generation of the
//      phase must have its pg-boss job, or the script exits non-zero.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { eq, inArray, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { presets, userModels } from '../src/server/db/schema/index.ts';
import { grant } from '../src/server/features/billing/ledger.ts';
import { start, type Running } from '../src/server/runtime.ts';
import { type BenchUser, signUpOverHttp } from './support/accounts.ts';
import { addBenchPresets } from './support/catalog.ts';
import { startGenerationFloor } from './support/generation-floor.ts';
import { postgresCpu } from './support/postgres-cpu.ts';
import { createScratchDatabase, dropScratchDatabase } from './support/scratch-database.ts';
import {
  alternatingRounds,
  type MeasuredRow,
  type ThroughputRow,
  measureBareFastify,
  measureThroughput,
  median,
  medianRow,
  perUserClients,
} from './support/throughput.ts';
import { writeResults } from './support/results.ts';
import { startServer } from './support/server-process.ts';
import { afterWarmUp, warmUpEnabled } from './support/warm-up.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const bulkRuns = Math.max(1, Number(process.env.BENCH_BULKS ?? 10));
const eventRuns = Math.max(1, Number(process.env.BENCH_EVENTS ?? 30));
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const bystanders = Math.max(0, Number(process.env.BENCH_BYSTANDERS ?? 5000));
const authSecret = 'bench-secret-bench-secret-bench-secret-0123';
const presetCount = 120;
const bulkSize = 100;
const repo = fileURLToPath(new URL('../', import.meta.url));
const publicUrl = 'http://localhost:3000';

// ---------------------------------------------------------------------------------------------
// The database: a scratch one on a Postgres server, or PGlite
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Apps and HTTP
// ---------------------------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-'));

async function startApp(
  role: 'all' | 'web',
  databaseUrl: string | undefined,
  extra: Record<string, string> = {},
): Promise<Running & { url: string }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    ALLOW_TEST_CHECKOUT: 'true',
    SEED_CONTENT: 'false',
    AUTH_SECRET: authSecret,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    ROLE: role,
    RATE_LIMIT_DISABLED: 'true',
    JOB_POLL_SECONDS: '0.5',
    TRAINING_POLL_SECONDS: '1',
    // What is measured here is accepting and announcing pictures, not making them: the offline
    // studio in its quick mode, and no training previews beside the one training of the setup.
    LOCAL_ENGINE_DRAFT: 'true',
    TRAINING_PREVIEWS: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  });
  const running = await start(config, pino({ level: 'silent' }), { listen: true });
  return { ...running, url: running.url! };
}

async function call<T>(
  base: string,
  session: BenchUser | undefined,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      origin: publicUrl,
      ...(session ? { cookie: session.cookie } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Setup: a Pro user with a model trained by the local engine, a catalog, credits
// ---------------------------------------------------------------------------------------------

/** A new user on the Pro plan (test-mode checkout, as a browser buys it) with plenty of credits. */
async function proUser(app: Running & { url: string }): Promise<BenchUser> {
  const user = await signUpOverHttp(app.url, publicUrl);
  const checkout = await call<{ url: string }>(app.url, user, 'POST', '/api/billing/checkout', {
    priceId: 'price_pro',
  });
  const checkoutId = decodeURIComponent(/\/test-checkout\/([^/?]+)$/.exec(checkout.url)![1]!);
  await call(app.url, user, 'POST', `/api/billing/test-checkout/${checkoutId}/pay`);
  // Enough credits for every request of the run, through the ledger.
  await app.deps.billing.ledger.transaction((tx) =>
    grant(tx, user.id, 1_000_000, 'adjustment', `bench:${user.id}`, { note: 'bench' }),
  );
  return user;
}

async function setUp(app: Running & { url: string }) {
  const user = await proUser(app);

  // The catalog: one category, 120 presets whose pictures are 5 real portraits.
  const presetIds = await addBenchPresets(app, presetCount);

  // The model: person A's 8 photos through the upload API, validated and trained by the
  // local engine in this app's workers.
  for (let n = 1; n <= 8; n += 1) {
    const name = `a-0${n}.jpg`;
    const form = new FormData();
    form.append(
      'file',
      new Blob([readFileSync(path.join(repo, 'assets/seed/person-a', name))], {
        type: 'image/jpeg',
      }),
      name,
    );
    const upload = await fetch(`${app.url}/api/studio/photos`, {
      method: 'POST',
      headers: { origin: publicUrl, cookie: user.cookie },
      body: form,
    });
    if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
    await upload.arrayBuffer();
  }
  await until(
    () =>
      call<{ counts: { pending: number; passed: number } }>(
        app.url,
        user,
        'GET',
        '/api/studio/photos',
      ),
    (draft) => draft.counts.pending === 0,
    180_000,
  );
  const created = await call<{ model: { id: string } }>(
    app.url,
    user,
    'POST',
    '/api/studio/models',
    { name: 'Me', gender: 'woman' },
  );
  const modelId = created.model.id;
  await until(
    () =>
      call<{ models: { id: string; status: string }[] }>(
        app.url,
        user,
        'GET',
        '/api/studio/models',
      ),
    (list) => {
      const model = list.models.find((m) => m.id === modelId);
      if (model?.status === 'failed') throw new Error('training failed');
      return model?.status === 'complete';
    },
    180_000,
  );
  return { user, modelId, presetIds };
}

/**
 * More Pro users, each with a complete model: a copy of the trained model's row (its likeness
 * profile included). Only for acceptance, where no job runs, so the shared profile is never read.
 */
async function moreUsers(app: Running & { url: string }, count: number, modelId: string) {
  const { db } = app.deps.database;
  const [model] = await db.select().from(userModels).where(eq(userModels.id, modelId));
  const users: { id: string; cookie: string; modelId: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = await proUser(app);
    const id = randomUUID();
    await db
      .insert(userModels)
      .values({ ...model!, id, userId: user.id, engineReference: null, createdAt: new Date() });
    users.push({ id: user.id, cookie: user.cookie, modelId: id });
  }
  return users;
}

/**
 * Users who never send a request, with a subscription and a model each: a server's tables hold
 * many users, and a statement planned on a handful of rows reads whole tables where it should
 * read rows by key (decision 067), which only tables of a real size show.
 */
async function addBystanders(app: Running, count: number) {
  if (count === 0) return;
  const { db } = app.deps.database;
  await db.execute(sql`
    with people as (
      insert into "user" (id, name, email)
      select 'bystander-' || g, 'Bystander', 'bystander-' || g || '@example.com'
      from generate_series(1, ${count}::int) g
      returning id
    ),
    paid as (
      insert into subscriptions (user_id, active, tier, credits)
      select id, true, 'pro', 0 from people
    )
    insert into user_models (id, user_id, name, gender, status, paid_with, photo_count, engine,
      trigger_word, weights)
    select 'model-' || id, id, 'Me', 'woman', 'complete', 'credits', 8, 'local', 'ohwx', 'none'
    from people`);
}

// ---------------------------------------------------------------------------------------------
// 2-3. Event latency: job completed (the row's completed_at) → event at an SSE client
// ---------------------------------------------------------------------------------------------

interface StreamMessage {
  kind: 'ready' | 'event' | 'end' | 'error';
  data?: string;
  receivedAt?: number;
}

// The SSE reader runs in a worker thread: its receive time is not delayed by the server's (or
// the load generator's) work on the main event loop, as a browser's would not be.
const sseReader = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const response = await fetch(workerData.url, {
    headers: { cookie: workerData.cookie, accept: 'text/event-stream' },
  });
  if (!response.ok || !response.body) throw new Error('event stream answered ' + response.status);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const read = await reader.read();
    if (read.done) break;
    const receivedAt = Date.now();
    buffer += decoder.decode(read.value, { stream: true });
    let boundary;
    while ((boundary = buffer.indexOf('\\n\\n')) >= 0) {
      const lines = buffer.slice(0, boundary).split('\\n');
      buffer = buffer.slice(boundary + 2);
      const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\\n');
      if (name === 'ready') parentPort.postMessage({ kind: 'ready' });
      else if (data) parentPort.postMessage({ kind: 'event', data, receivedAt });
    }
  }
  parentPort.postMessage({ kind: 'end' });
})().catch((error) => parentPort.postMessage({ kind: 'error', data: String(error) }));
`;

function openStream(base: string, cookie: string) {
  const worker = new Worker(sseReader, {
    eval: true,
    workerData: { url: `${base}/api/events`, cookie },
  });
  const received: { event: { type: string; data: Record<string, unknown> }; at: number }[] = [];
  const waiters = new Set<() => void>();
  let failure: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: StreamMessage) => {
      if (message.kind === 'ready') resolve();
      else if (message.kind === 'event')
        received.push({ event: JSON.parse(message.data!), at: message.receivedAt! });
      else {
        failure = new Error(`event stream ${message.kind}: ${message.data ?? ''}`);
        reject(failure);
      }
      for (const wake of waiters) wake();
    });
    worker.on('error', reject);
  });
  return {
    ready,
    /** The receive time of the first event matching, waiting up to timeoutMs. */
    async arrival(match: (event: { type: string; data: Record<string, unknown> }) => boolean) {
      return new Promise<number>((resolve, reject) => {
        const check = () => {
          if (failure) return reject(failure);
          const found = received.find((r) => match(r.event));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found.at);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('no matching event within 60 s'));
        }, 60_000);
        waiters.add(check);
        check();
      });
    },
    close: () => worker.terminate(),
  };
}

interface LatencyRow {
  name: string;
  generations: number;
  p50Ms: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function eventLatency(
  name: string,
  /** Takes the requests and holds the SSE stream. */
  web: { url: string },
  /** The app whose worker makes the images; its database tells when each job completed. */
  worker: Running,
  user: BenchUser,
  modelId: string,
  presetIds: string[],
): Promise<LatencyRow> {
  const stream = openStream(web.url, user.cookie);
  const { db } = worker.deps.database;
  const latencies: number[] = [];
  try {
    await stream.ready;
    // One generation at a time: nothing else runs while its event travels, so the figure is
    // the path's own, not a queue's. The first one is a warm-up (the preset picture's face
    // detection, JIT), not counted.
    for (let i = warmUpEnabled ? 0 : 1; i <= eventRuns; i += 1) {
      const { generation } = await call<{ generation: { id: string } }>(
        web.url,
        user,
        'POST',
        '/api/generations',
        { userModelId: modelId, presetId: presetIds[i % presetIds.length] },
      );
      const receivedAt = await stream.arrival(
        (event) =>
          event.type === 'generation.updated' &&
          event.data.generationId === generation.id &&
          event.data.status !== 'processing',
      );
      const result = (await db.execute(
        sql`select status, completed_at from generations where id = ${generation.id}`,
      )) as unknown as { rows: { status: string; completed_at: Date | string }[] };
      const row = result.rows[0]!;
      if (row.status !== 'complete') throw new Error(`generation ended ${row.status}`);
      if (i > 0) latencies.push(receivedAt - new Date(row.completed_at).getTime());
    }
  } finally {
    await stream.close();
  }
  latencies.sort((a, b) => a - b);
  const row = {
    name,
    generations: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    minMs: latencies[0]!,
    maxMs: latencies[latencies.length - 1]!,
  };
  console.log(`  ${name}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, max ${row.maxMs} ms`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// 4. Acceptance: requests per second (autocannon) and a bulk of 100
// ---------------------------------------------------------------------------------------------

interface BulkResult {
  requests: number;
  images: number;
  medianMs: number;
  maxMs: number;
  minMs: number;
}

async function bulkAcceptance(
  app: Running & { url: string },
  user: BenchUser,
  modelId: string,
  presetIds: string[],
): Promise<BulkResult> {
  const body = JSON.stringify({
    kind: 'presets',
    userModelId: modelId,
    presetIds: presetIds.slice(0, bulkSize),
  });
  const times: number[] = [];
  // The first request is a warm-up, not counted.
  for (let i = warmUpEnabled ? 0 : 1; i <= bulkRuns; i += 1) {
    const started = performance.now();
    const response = await fetch(`${app.url}/api/bulk-jobs`, {
      method: 'POST',
      headers: { origin: publicUrl, cookie: user.cookie, 'content-type': 'application/json' },
      body,
    });
    const answer = (await response.json()) as { queued?: number };
    const elapsed = performance.now() - started;
    if (response.status !== 201 || answer.queued !== bulkSize)
      throw new Error(`bulk answered ${response.status}: ${JSON.stringify(answer)}`);
    if (i > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  const result = {
    requests: times.length,
    images: bulkSize,
    medianMs: Math.round(times.length % 2 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2),
    maxMs: Math.round(times[times.length - 1]!),
    minMs: Math.round(times[0]!),
  };
  console.log(
    `  POST /api/bulk-jobs (${bulkSize} presets): median ${result.medianMs} ms, max ${result.maxMs} ms`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// 4. The accept against its floor (issue #18)
// ---------------------------------------------------------------------------------------------

interface FloorRow extends MeasuredRow {
  /** The main thread's busy time per request: the Node CPU of the request path. */
  nodeMsPerRequest: number;
  /** The CPU of the database's Postgres backends per request (undefined off Linux). */
  postgresMsPerRequest: number | undefined;
}

/** One throughput row with the CPU it cost per request. */
async function measureWithCpu(
  name: string,
  target: Parameters<typeof measureThroughput>[1],
): Promise<FloorRow> {
  let database: Awaited<ReturnType<typeof postgresCpu>> | undefined;
  let profile: Awaited<ReturnType<typeof startProfile>>;
  let before = performance.eventLoopUtilization();
  // Counted from the end of the warm-up second: only the counted requests' work.
  const row = await measureThroughput(name, target, { connections, seconds }, async () => {
    database = databaseUrl ? await postgresCpu(databaseUrl) : undefined;
    profile = await startProfile(name);
    before = performance.eventLoopUtilization();
  });
  const used = performance.eventLoopUtilization(before);
  await profile?.stop();
  const postgresMs = await database?.stop();
  const requests = Math.max(1, row.requests);
  const measured = {
    ...row,
    nodeMsPerRequest: used.active / requests,
    postgresMsPerRequest: postgresMs === undefined ? undefined : postgresMs / requests,
  };
  console.log(
    `    Node ${measured.nodeMsPerRequest.toFixed(3)} ms/request, Postgres ${measured.postgresMsPerRequest?.toFixed(3) ?? 'n/a'} ms/request`,
  );
  return measured;
}

/**
 * With BENCH_PROFILE=<dir>, a CPU profile of the main thread (the server's request path; the
 * load runs in a worker thread) during each floor-comparison row, written as <dir>/<row>.cpuprofile
 * for Chrome's DevTools or `node scripts/profile-summary.mjs`.
 */
async function startProfile(name: string) {
  const directory = process.env.BENCH_PROFILE;
  if (!directory) return undefined;
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(directory, { recursive: true });
      const file = path.join(directory, `${name.replace(/[^\w]+/g, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`  profile: ${file}`);
    },
  };
}

/** Every balance equals the sum of its ledger; every generation of `userIds` has its job. */
async function checkBooks(app: Running, userIds: string[]) {
  const { db } = app.deps.database;
  const result = (await db.execute(sql`
    select
      (select count(*)::int from subscriptions s
        where s.credits <> coalesce(
          (select sum(delta) from credit_ledger l where l.user_id = s.user_id), 0)) as unbalanced,
      (select count(*)::int from subscriptions) as balances,
      (select count(*)::int from generations g
        where g.user_id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})) as generations,
      (select count(*)::int from generations g
        where g.user_id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})
          and not exists (select 1 from pgboss.job j
            where j.name = 'generation.generate' and j.data->>'generationId' = g.id)) as jobless
  `)) as unknown as {
    rows: { unbalanced: number; balances: number; generations: number; jobless: number }[];
  };
  return result.rows[0]!;
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

console.log(
  `generation: ${connections} connections × ${seconds} s per throughput row, ${bulkRuns} bulks of ${bulkSize}, ${eventRuns} generations per event row`,
);
const databaseUrl = await createScratchDatabase();
const loads: number[] = [];
const sampleLoad = () => loads.push(os.loadavg()[0]!);
let databaseKind: 'pglite' | 'postgres' | undefined;
let acceptingRole: 'web' | 'all' | undefined;
let serverVersion = '';
const latencyRows: LatencyRow[] = [];
let throughput: MeasuredRow[] | undefined;
let bulk: BulkResult | undefined;
let floorRows: (FloorRow & { ratioToFloor: number })[] = [];
/** Each round's product ÷ floor (measured a few seconds apart) and the product's p99. */
let roundsByRatio: { ratio: number; productP99Ms: number }[] = [];
let books: Awaited<ReturnType<typeof checkBooks>> | undefined;
try {
  // 1-3 with workers.
  const worker = await startApp('all', databaseUrl);
  databaseKind = worker.deps.database.kind;
  let setup: Awaited<ReturnType<typeof setUp>> | undefined;
  try {
    if (databaseKind === 'postgres') {
      const version = (await worker.deps.database.db.execute(
        sql`show server_version`,
      )) as unknown as {
        rows: { server_version: string }[];
      };
      serverVersion = version.rows[0]!.server_version;
    }
    console.log('  setting up: Pro user, 8 photos validated, model trained (local engine)…');
    setup = await setUp(worker);
    const { user, modelId, presetIds } = setup;
    sampleLoad();
    latencyRows.push(
      await eventLatency(
        'one instance (ROLE=all): worker and SSE stream in the same app',
        worker,
        worker,
        user,
        modelId,
        presetIds,
      ),
    );
    sampleLoad();
    if (databaseKind === 'postgres') {
      // A second process on the same database, as production runs web and worker processes:
      // its own event loop, pool, LISTEN connection and SSE streams.
      const web = await startServer(databaseUrl, 'web', {
        PUBLIC_URL: publicUrl,
        DATA_DIR: dataDir,
      });
      try {
        latencyRows.push(
          await eventLatency(
            'across processes: worker in this ROLE=all app, SSE stream on a ROLE=web process',
            web,
            worker,
            user,
            modelId,
            presetIds,
          ),
        );
      } finally {
        await web.stop();
      }
      sampleLoad();
    } else {
      console.log('  across processes: skipped (PGlite: one process, in-memory event bus)');
    }
  } finally {
    await worker.stop();
  }

  // 4 without workers: jobs are only enqueued.
  const bare = await measureBareFastify('bare Fastify hello-world (GET)', { connections, seconds });
  sampleLoad();
  // The embedded database runs ROLE=all only (one process), so there the app has workers too.
  acceptingRole = databaseKind === 'postgres' ? 'web' : 'all';
  const app = await startApp(acceptingRole, databaseUrl);
  try {
    const { user, modelId, presetIds } = setup!;
    const url = `${app.url}/api/generations`;
    const headers = { cookie: user.cookie, origin: publicUrl, 'content-type': 'application/json' };
    const body = JSON.stringify({ userModelId: modelId, presetId: presetIds[0] });
    console.log(`  adding ${connections} more Pro users with a model each…`);
    const users = await moreUsers(app, connections, modelId);
    console.log(`  adding ${bystanders} other users (a subscription and a model each)…`);
    await addBystanders(app, bystanders);
    const perUser = {
      url,
      method: 'POST' as const,
      headers: {
        cookie: users[0]!.cookie,
        origin: publicUrl,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ userModelId: users[0]!.modelId, presetId: presetIds[0] }),
      setupClient: perUserClients(dataDir, users, presetIds[0]!, publicUrl),
      expectedStatus: 201,
    };
    const oneUser = await measureThroughput(
      `POST /api/generations, 1 user on all connections (${presetCount} presets)`,
      { url, method: 'POST', headers, body, expectedStatus: 201 },
      { connections, seconds },
    );
    sampleLoad();
    let manyUsers: MeasuredRow;
    if (databaseKind === 'postgres') {
      // The floor on the same users, models and preset, rounds alternating with the product.
      const floor = await startGenerationFloor({
        databaseUrl: databaseUrl!,
        secret: authSecret,
        // What the product's rows say with the local engine (the benchmark's).
        engine: 'local',
        isPreview: true,
      });
      const floorMeasured: FloorRow[] = [];
      const productMeasured: FloorRow[] = [];
      // The statistics as autovacuum keeps them on a running server, fresh before each row: the
      // job table grows by thousands of rows a second here, faster than autoanalyze's minute,
      // and a named statement planned while the table was nearly empty kept a sequential scan
      // of the waiting jobs (auto_explain: 9.5 ms an accept at 345 of one owner's jobs). A
      // server running for a day holds its retained jobs and never plans for an empty table.
      const freshStatistics = () => app.deps.database.db.execute(sql`analyze`);
      try {
        // A round at full load before the measured ones, its figures not kept: the product's
        // code is large next to the floor's, and its first seconds under this load ran on code
        // V8 had not yet optimised (its first round measured a quarter below the next ones,
        // with the compiler's threads busy), while a server runs for days.
        if (warmUpEnabled) {
          await measureThroughput(
            'warm-up round (not kept): floor',
            { ...perUser, url: `${floor.url}/api/generations` },
            { connections, seconds },
          );
          await measureThroughput('warm-up round (not kept): product', perUser, {
            connections,
            seconds,
          });
        }
        const measureFloor = async (round: number) => {
          await freshStatistics();
          floorMeasured.push(
            await measureWithCpu(`floor: one prepared statement (round ${round})`, {
              ...perUser,
              url: `${floor.url}/api/generations`,
            }),
          );
          sampleLoad();
        };
        const measureProduct = async (round: number) => {
          await freshStatistics();
          productMeasured.push(
            await measureWithCpu(
              `POST /api/generations, ${connections} users, one per connection (${presetCount} presets, round ${round})`,
              perUser,
            ),
          );
          sampleLoad();
        };
        await alternatingRounds(rounds, measureFloor, measureProduct);
      } finally {
        await floor.close();
      }
      roundsByRatio = productMeasured.map((row, index) => ({
        ratio: row.requestsPerSecond / floorMeasured[index]!.requestsPerSecond,
        productP99Ms: row.p99Ms,
      }));
      const ratioToFloor = median(roundsByRatio.map((round) => round.ratio));
      const floorRow = medianRow(floorMeasured);
      const productRow = medianRow(productMeasured);
      floorRows = [
        {
          ...floorRow,
          name: 'floor: signature checked, then one prepared statement',
          ratioToFloor: 1,
        },
        { ...productRow, name: `POST /api/generations, the product`, ratioToFloor },
      ];
      manyUsers = {
        ...productRow,
        name: `POST /api/generations, ${connections} users, one per connection (${presetCount} presets)`,
      };
    } else {
      manyUsers = await measureThroughput(
        `POST /api/generations, ${connections} users, one per connection (${presetCount} presets)`,
        perUser,
        { connections, seconds },
      );
    }
    sampleLoad();
    bulk = await bulkAcceptance(app, user, modelId, presetIds);
    sampleLoad();
    // The same with a catalog of 5 visible presets: what reading the whole catalog on every
    // request costs (see the README).
    await app.deps.database.db
      .update(presets)
      .set({ active: false })
      .where(inArray(presets.id, presetIds.slice(5)));
    const smallCatalog = await measureThroughput(
      `POST /api/generations, ${connections} users, one per connection (5 presets)`,
      perUser,
      { connections, seconds },
    );
    sampleLoad();
    throughput = [bare, oneUser, manyUsers, smallCatalog];
    // Requests the load generator left in flight at its end finish before the books are read.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    books = await checkBooks(
      app,
      users.map((u) => u.id),
    );
    console.log(
      `  books: ${books.unbalanced} of ${books.balances} balances differ from their ledger; ` +
        `${books.jobless} of ${books.generations} generations of the phase without a job`,
    );
  } finally {
    // Requests the load generator left in flight at its end finish before the pool closes.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await app.stop();
  }
} finally {
  await dropScratchDatabase();
  rmSync(dataDir, { recursive: true, force: true });
}

const bareRate = throughput![0]!.requestsPerSecond;
const rows: ThroughputRow[] = throughput!.map((row) => ({
  ...row,
  ratioToBare: row.requestsPerSecond / bareRate,
}));
const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.availableParallelism()} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
  database:
    databaseKind === 'postgres'
      ? `Postgres ${serverVersion} on the same machine (scratch database, pool of 10 per app)`
      : `PGlite (${process.env.BENCH_DATABASE_URL === 'pglite' ? 'BENCH_DATABASE_URL=pglite' : 'no Postgres server answered'}): one connection for every query, no cross-instance row, the measured app has workers`,
  // Numbers from a machine busy with other work are lower; this says how busy it was.
  'load average (1 min) during the run': `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
  'measured app': `ROLE=${acceptingRole}`,
  'other users in the tables while accepting': `${bystanders} (a subscription and a model each)`,
  load: `autocannon, ${connections} connections, ${seconds} s per row ${afterWarmUp('a 1 s warm-up')}, client in a worker thread of the same process`,
};

/** Two significant digits: the rows are a small fraction of bare Fastify. */
const ratio = (value: number) => `${value >= 1 ? value.toFixed(2) : value.toPrecision(2)}×`;

function markdown(): string {
  return [
    '# Generation benchmark',
    '',
    'Written by `npm run bench generation` (`bench/generation.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
    '',
    databaseKind === 'postgres'
      ? '## Accepted generations per second (app with ROLE=web: jobs enqueued, not processed)'
      : '## Accepted generations per second (app with ROLE=all on PGlite: its workers make the images meanwhile)',
    '',
    '| target | requests/s (avg) | p50 latency | p99 latency | failures | vs bare Fastify |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.failures} | ${ratio(row.ratioToBare)} |`,
    ),
    '',
    ...(floorRows.length
      ? [
          `## The accept against its floor (issue #18): ${connections} users, one per connection, same models and preset; ${rounds} round(s), each measuring both back to back (the floor first in odd rounds, the product first in even ones); each figure is its median over the rounds, and "vs floor" the median of the rounds' ratios`,
          '',
          '| target | requests/s | p50 | p99 | failures | Node ms/request (main thread) | Postgres ms/request (backends) | vs floor |',
          '|---|---:|---:|---:|---:|---:|---:|---:|',
          ...floorRows.map(
            (row) =>
              `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.failures} | ${row.nodeMsPerRequest.toFixed(3)} | ${row.postgresMsPerRequest?.toFixed(3) ?? 'n/a'} | ${row.ratioToFloor.toFixed(2)}× |`,
          ),
          '',
          `Each round, product ÷ floor (the product's p99): ${roundsByRatio.map((round) => `${round.ratio.toFixed(2)}× (${round.productP99Ms} ms)`).join(', ')}.`,
          '',
          `After the run: ${books!.unbalanced} of ${books!.balances} balances differ from the sum of their ledger; ${books!.jobless} of the phase's ${books!.generations} generations have no pg-boss job.`,
          '',
        ]
      : []),
    `## Server time to accept a bulk of ${bulkSize} (client-side on localhost, sequential, ${afterWarmUp('1 warm-up')})`,
    '',
    '| requests | images each | median | min | max |',
    '|---:|---:|---:|---:|---:|',
    `| ${bulk!.requests} | ${bulk!.images} | ${bulk!.medianMs} ms | ${bulk!.minMs} ms | ${bulk!.maxMs} ms |`,
    '',
    `## Job completed → event at an SSE client (completed_at of the row → receive time in the client, one generation at a time, ${afterWarmUp('1 warm-up')})`,
    '',
    '| variant | generations | p50 | p99 | min | max |',
    '|---|---:|---:|---:|---:|---:|',
    ...latencyRows.map(
      (row) =>
        `| ${row.name} | ${row.generations} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.minMs} ms | ${row.maxMs} ms |`,
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
        'p50 ms': row.p50Ms,
        'p99 ms': row.p99Ms,
        failures: row.failures,
        'vs bare': `${ratio(row.ratioToBare)}`,
      },
    ]),
  ),
);
if (floorRows.length)
  console.table(
    Object.fromEntries(
      floorRows.map((row) => [
        row.name,
        {
          'req/s': row.requestsPerSecond,
          'p99 ms': row.p99Ms,
          'Node ms/req': row.nodeMsPerRequest.toFixed(3),
          'Postgres ms/req': row.postgresMsPerRequest?.toFixed(3) ?? 'n/a',
          'vs floor': `${row.ratioToFloor.toFixed(2)}×`,
        },
      ]),
    ),
  );
writeResults('generation', markdown(), {
  ...meta,
  throughput: rows,
  floor: floorRows,
  floorRounds: roundsByRatio,
  books,
  bulk,
  eventLatency: latencyRows,
});

if (books && (books.unbalanced > 0 || books.jobless > 0)) {
  console.error('the books do not balance, or accepted generations have no job');
  process.exit(1);
}
if ([...rows, ...floorRows].some((row) => row.failures > 0)) {
  console.error('some requests failed: the numbers above do not measure success');
  process.exit(1);
}
