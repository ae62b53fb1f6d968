// Fair scheduling of generation jobs (issue 21): user A queues a bulk of 500 images, user B then
// asks for single pictures one after another. How long does each of B's pictures take from the
// request to the finished image, how many of A's jobs start ahead of it, and how much of A's
// throughput does B take?
//
//   npm run bench fairness
//   BENCH_DATABASE_URL=postgres://…   a Postgres server (a scratch database; PGlite without one)
//   BENCH_BULK=500                     A's images, in bulk requests of at most 200
//   BENCH_SINGLES=5                    B's pictures, spread evenly over twice the window
//   BENCH_WINDOW_SECONDS=20            A alone is measured this long before B and again after
//   BENCH_WARM_UP=true                 false: the windows start as soon as A's bulk is queued,
//                                      not after 10 of its images (npm test's smoke run, whose
//                                      figures are not read)
//
// One app in this process through `start()` (ROLE=all, NODE_ENV=production, rate limits off,
// logging silent) with the offline engine in draft mode (LOCAL_ENGINE_DRAFT=true, the tests' mode:
// an HD picture alone takes ~8 s on this machine, so "within 2 s" can only be about the queue)
// and the generation worker's default concurrency of 2. Both users buy Pro through the test
// checkout, upload person A's 8 photos and train a model with the local engine; 200 presets.
// A's throughput is the count of A's images completed in a window (the rows' completed_at)
// divided by its length: alone before B, during the window (twice as long) in which B asks for
// its pictures one at a time at even intervals, alone again after; the drop compares the middle
// window with the mean of the two around it (the machine's load drifts). B's pictures take their
// share of the two worker slots, so the drop can never be 0: 5 pictures of ~0.6 s in 40 s of two
// slots is ~4 %.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { generations } from '../src/server/db/schema/index.ts';
import { grant } from '../src/server/features/billing/ledger.ts';
import { start, type Running } from '../src/server/runtime.ts';
import { type BenchUser, signUpOverHttp } from './support/accounts.ts';
import { addBenchPresets } from './support/catalog.ts';
import { writeResults } from './support/results.ts';
import { createScratchDatabase, dropScratchDatabase } from './support/scratch-database.ts';
import { warmUpEnabled } from './support/warm-up.ts';

const bulkTotal = Math.max(1, Number(process.env.BENCH_BULK ?? 500));
const singles = Math.max(1, Number(process.env.BENCH_SINGLES ?? 5));
const windowSeconds = Math.max(1, Number(process.env.BENCH_WINDOW_SECONDS ?? 20));
const presetCount = 200;
/** A's images completed before the first window starts: the worker and the engine warmed up. */
const warmUpImages = warmUpEnabled ? 10 : 0;
const repo = fileURLToPath(new URL('../', import.meta.url));
const publicUrl = 'http://localhost:3000';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-'));
type App = Running & { url: string };

async function call<T>(
  app: App,
  user: BenchUser,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
) {
  const response = await fetch(`${app.url}${url}`, {
    method,
    headers: {
      origin: publicUrl,
      cookie: user.cookie,
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
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Pro user (test checkout) with credits and a model trained by the local engine. */
async function trainedUser(app: App): Promise<BenchUser & { modelId: string }> {
  const user = await signUpOverHttp(app.url, publicUrl);
  const checkout = await call<{ url: string }>(app, user, 'POST', '/api/billing/checkout', {
    priceId: 'price_pro',
  });
  const checkoutId = decodeURIComponent(/\/test-checkout\/([^/?]+)$/.exec(checkout.url)![1]!);
  await call(app, user, 'POST', `/api/billing/test-checkout/${checkoutId}/pay`);
  await app.deps.billing.ledger.transaction((tx) =>
    grant(tx, user.id, 100_000, 'adjustment', `bench:${user.id}`, { note: 'bench' }),
  );
  for (let n = 1; n <= 8; n += 1) {
    const name = `a-0${n}.jpg`;
    const form = new FormData();
    const bytes = readFileSync(path.join(repo, 'assets/seed/person-a', name));
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), name);
    const upload = await fetch(`${app.url}/api/studio/photos`, {
      method: 'POST',
      headers: { origin: publicUrl, cookie: user.cookie },
      body: form,
    });
    if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
    await upload.arrayBuffer();
  }
  await until(
    () => call<{ counts: { pending: number } }>(app, user, 'GET', '/api/studio/photos'),
    (draft) => draft.counts.pending === 0,
    180_000,
  );
  const created = await call<{ model: { id: string } }>(app, user, 'POST', '/api/studio/models', {
    name: 'Me',
    gender: 'woman',
  });
  await until(
    () =>
      call<{ models: { id: string; status: string }[] }>(app, user, 'GET', '/api/studio/models'),
    (list) => list.models.some((m) => m.id === created.model.id && m.status === 'complete'),
    180_000,
  );
  return { ...user, modelId: created.model.id };
}

/** A's images completed in [from, to], per second. */
async function rateOf(app: App, userId: string, from: Date, to: Date): Promise<number> {
  const [row] = await app.deps.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        eq(generations.status, 'complete'),
        gte(generations.completedAt, from),
        lte(generations.completedAt, to),
      ),
    );
  return (row?.count ?? 0) / ((to.getTime() - from.getTime()) / 1000);
}

async function completedOf(app: App, userId: string): Promise<number> {
  const [row] = await app.deps.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(generations)
    .where(and(eq(generations.userId, userId), eq(generations.status, 'complete')));
  return row?.count ?? 0;
}

interface Single {
  ms: number;
  /** From the row's creation to its job's start, and from there to the finished image. */
  waitedMs: number;
  madeMs: number;
  /** A's jobs that started between B's request and B's own start. */
  aheadOfIt: number;
}

const loads: number[] = [];
const sampleLoad = () => loads.push(os.loadavg()[0]!);
const databaseUrl = await createScratchDatabase();
let result:
  | {
      before: number;
      during: number;
      after: number;
      singles: Single[];
      aLeftAtEnd: number;
    }
  | undefined;
try {
  const config = loadConfig({
    NODE_ENV: 'production',
    ALLOW_TEST_CHECKOUT: 'true',
    SEED_CONTENT: 'false',
    AUTH_SECRET: `bench-${randomBytes(20).toString('hex')}`,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    ROLE: 'all',
    RATE_LIMIT_DISABLED: 'true',
    JOB_POLL_SECONDS: '0.5',
    TRAINING_POLL_SECONDS: '1',
    LOCAL_ENGINE_DRAFT: 'true',
    TRAINING_PREVIEWS: 'false',
    SHUTDOWN_TIMEOUT_MS: '3000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const running = await start(config, pino({ level: 'silent' }), { listen: true });
  const app = { ...running, url: running.url! };
  try {
    sampleLoad();
    const presetIds = await addBenchPresets(app, presetCount);
    const a = await trainedUser(app);
    const b = await trainedUser(app);
    console.log(`setup done; A queues ${bulkTotal} images`);

    for (let queued = 0; queued < bulkTotal; queued += presetCount) {
      const count = Math.min(presetCount, bulkTotal - queued);
      await call(app, a, 'POST', '/api/bulk-jobs', {
        kind: 'presets',
        userModelId: a.modelId,
        presetIds: presetIds.slice(0, count),
      });
    }
    await until(
      () => completedOf(app, a.id),
      (done) => done >= warmUpImages,
      300_000,
    );
    sampleLoad();

    const beforeFrom = new Date();
    await sleep(windowSeconds * 1000);
    const duringFrom = new Date();
    const middleMs = 2 * windowSeconds * 1000;
    const made: Single[] = [];
    for (let i = 0; i < singles; i += 1) {
      await sleep(duringFrom.getTime() + (i * middleMs) / singles - Date.now());
      const asked = Date.now();
      const { generation } = await call<{ generation: { id: string } }>(
        app,
        b,
        'POST',
        '/api/generations',
        { userModelId: b.modelId, presetId: presetIds[i % presetIds.length] },
      );
      const row = await until(
        async () =>
          (
            await app.deps.database.db
              .select()
              .from(generations)
              .where(eq(generations.id, generation.id))
          )[0]!,
        (value) => value.status !== 'processing',
        120_000,
      );
      if (row.status !== 'complete') throw new Error(`B's picture ${row.status}`);
      const ms = Date.now() - asked;
      const [ahead] = await app.deps.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(generations)
        .where(
          and(
            eq(generations.userId, a.id),
            gte(generations.heardAt, row.createdAt),
            lte(generations.heardAt, row.heardAt ?? row.completedAt!),
          ),
        );
      const startedAt = (row.heardAt ?? row.createdAt).getTime();
      made.push({
        ms,
        waitedMs: startedAt - row.createdAt.getTime(),
        madeMs: row.completedAt!.getTime() - startedAt,
        aheadOfIt: ahead?.count ?? 0,
      });
      console.log(`B's picture ${i + 1}: ${ms} ms, ${ahead?.count ?? 0} of A's jobs started first`);
    }
    await sleep(duringFrom.getTime() + middleMs - Date.now());
    const duringTo = new Date();
    await sleep(windowSeconds * 1000);
    const afterTo = new Date();
    sampleLoad();
    const aLeftAtEnd = bulkTotal - (await completedOf(app, a.id));
    if (aLeftAtEnd === 0)
      console.warn("A's bulk ran out before the last window ended: raise BENCH_BULK");
    result = {
      before: await rateOf(app, a.id, beforeFrom, duringFrom),
      during: await rateOf(app, a.id, duringFrom, duringTo),
      after: await rateOf(app, a.id, duringTo, afterTo),
      singles: made,
      aLeftAtEnd,
    };
  } finally {
    await app.stop();
  }
} finally {
  await dropScratchDatabase();
  rmSync(dataDir, { recursive: true, force: true });
}

const { before, during, after, singles: made, aLeftAtEnd } = result!;
const alone = (before + after) / 2;
const drop = 1 - during / alone;
const sorted = made.map((single) => single.ms).sort((x, y) => x - y);
const median = sorted[Math.floor(sorted.length / 2)]!;
const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.availableParallelism()} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
  database: databaseUrl ? 'Postgres on the same machine (scratch database)' : 'PGlite',
  'load average (1 min) during the run': `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
  engine:
    'local, LOCAL_ENGINE_DRAFT=true, TRAINING_PREVIEWS=false; GENERATION_CONCURRENCY 2; JOB_POLL_SECONDS 0.5',
  'A queued': `${bulkTotal} images (bulks of ≤ ${presetCount}); ${aLeftAtEnd} still waiting at the end`,
};
const fixed = (value: number) => value.toFixed(2);
const markdown = [
  '# Fairness benchmark',
  '',
  'Written by `npm run bench fairness` (`bench/fairness.ts`); see `bench/README.md`.',
  '',
  ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
  '',
  `## B's single pictures while A's bulk is queued (request → finished image, one at a time)`,
  '',
  "| picture | request → image | queued (row → job start) | made (job start → image) | A's jobs started ahead of it |",
  '|---:|---:|---:|---:|---:|',
  ...made.map(
    (single, i) =>
      `| ${i + 1} | ${single.ms} ms | ${single.waitedMs} ms | ${single.madeMs} ms | ${single.aheadOfIt} |`,
  ),
  '',
  `Median ${median} ms, max ${sorted.at(-1)} ms (target: within 2 s); A still had ${aLeftAtEnd} of ${bulkTotal} waiting at the end.`,
  '',
  "## A's throughput (images completed per second)",
  '',
  '| window | images/s | vs A alone |',
  '|---|---:|---:|',
  `| A alone, ${windowSeconds} s before B | ${fixed(before)} | ${fixed(before / alone)}× |`,
  `| ${2 * windowSeconds} s in which B asked for ${made.length} pictures | ${fixed(during)} | ${fixed(during / alone)}× |`,
  `| A alone, ${windowSeconds} s after B | ${fixed(after)} | ${fixed(after / alone)}× |`,
  '',
  `A's throughput while B was served: ${(drop * 100).toFixed(1)} % below the mean of the windows around it (target: < 10 %).`,
  '',
].join('\n');
console.log(markdown);
writeResults('fairness', markdown, { meta, before, during, after, alone, drop, singles: made });
