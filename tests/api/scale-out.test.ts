import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/common/api/events.ts';
import type { BulkJob } from '../../src/common/api/generation.ts';
import type { DraftPhotosResponse, UserModelsResponse } from '../../src/common/api/studio.ts';
import { startFakeReplicate, type FakeReplicate } from '../fakes/replicate-api.ts';
import { type EventStreamClient, openEventStream } from '../helpers/event-stream.ts';
import {
  type BrowserUser,
  type Proc,
  signUpOn,
  startProcess,
  until,
  waitUntilReady,
} from '../helpers/processes.ts';
import { photoFixtures } from '../helpers/studio.ts';
import { createTestDatabase, dropTestDatabase, usesPostgres } from '../helpers/test-app.ts';

/**
 * The production topology under load: two web and two worker processes on one Postgres, a GPU
 * service (the Replicate fake) and shared file storage. A bulk of many generations is made with
 * every image made exactly once and paid exactly once; each user's event streams, on either web
 * process, see all of that user's events and none of anyone else's. Then faults: a worker killed
 * mid-job, and every database connection cut under load.
 */

const bulkSize = Number(process.env.SCALE_OUT_BULK ?? 200);

let fake: FakeReplicate;
let databaseUrl: string;
let sql: pg.Pool;
let dataDir: string;
let web1: Proc;
let web2: Proc;
let worker1: Proc;
let worker2: Proc;
/** Processes a test ended on purpose (and replaced). */
const stopped = new Set<string>();
const processes: Proc[] = [];
const streams: EventStreamClient[] = [];
let alice: BrowserUser;
let bob: BrowserUser;
let modelId: string;
const presetIds: string[] = [];

/** The test's own connections (cut too in the last test: their errors are expected). */
function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  created.on('error', () => {});
  return created;
}

/** The predictions of a trained model (a FLUX LoRA: its inputs carry `lora_scale`), not the upscaler's. */
function imagePredictions() {
  return fake.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/predictions')
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as { input: object })
    .filter((body) => 'lora_scale' in body.input);
}

async function call<T>(proc: Proc, user: BrowserUser, method: string, url: string, body?: unknown) {
  const response = await fetch(`${proc.url}${url}`, {
    method,
    headers: {
      origin: web1.url,
      cookie: user.cookie,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

async function startAll(env: Record<string, string>) {
  // One public address for all (a load balancer in production): links the workers sign (the
  // training zip) and the trusted Origin are the same for every process.
  web1 = await startProcess('web1', 'web', databaseUrl, { dataDir, env });
  processes.push(web1);
  for (const [name, role] of [
    ['web2', 'web'],
    ['worker1', 'worker'],
    ['worker2', 'worker'],
  ] as const) {
    const proc = await startProcess(name, role, databaseUrl, {
      dataDir,
      env: { ...env, PUBLIC_URL: web1.url },
    });
    processes.push(proc);
    if (name === 'web2') web2 = proc;
    if (name === 'worker1') worker1 = proc;
    if (name === 'worker2') worker2 = proc;
  }
  await Promise.all([waitUntilReady(web1), waitUntilReady(web2)]);
}

const workerEnv = () => ({
  ...fake.env,
  TRAINING_POLL_SECONDS: '1',
  GENERATION_CONCURRENCY: '8',
  // A killed worker's jobs go to another worker after 10 s without a heartbeat.
  JOB_HEARTBEAT_SECONDS: '10',
  JOB_MONITOR_SECONDS: '2',
});

async function buyPlan(user: BrowserUser, priceId: string) {
  const checkout = await call<{ url: string }>(web1, user, 'POST', '/api/billing/checkout', {
    priceId,
  });
  const checkoutId = decodeURIComponent(/\/test-checkout\/([^/?]+)$/.exec(checkout.body.url)![1]!);
  expect(
    (await call(web1, user, 'POST', `/api/billing/test-checkout/${checkoutId}/pay`)).status,
  ).toBe(200);
}

async function trainModel(user: BrowserUser): Promise<string> {
  await buyPlan(user, 'price_pro');
  for (let n = 1; n <= 8; n += 1) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([readFileSync(photoFixtures.personA(n))], { type: 'image/jpeg' }),
      `a-${n}.jpg`,
    );
    // Uploads go to either web process; the photos land in the shared storage.
    const web = n % 2 ? web1 : web2;
    const response = await fetch(`${web.url}/api/studio/photos`, {
      method: 'POST',
      headers: { origin: web1.url, cookie: user.cookie },
      body: form,
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }
  await until(
    'validated photos',
    async () => {
      const draft = await call<DraftPhotosResponse>(web2, user, 'GET', '/api/studio/photos');
      return draft.body.counts.passed === 8 ? true : undefined;
    },
    120_000,
  );
  const created = await call<{ model: { id: string } }>(web1, user, 'POST', '/api/studio/models', {
    name: 'Scale',
    gender: 'woman',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const reference = await until('the training to start', async () => {
    const { rows } = await sql.query<{ engine_reference: string | null }>(
      'select engine_reference from user_models where id = $1',
      [created.body.model.id],
    );
    return rows[0]?.engine_reference ?? undefined;
  });
  await fake.completeTraining(reference);
  await until('the model to complete', async () => {
    const models = await call<UserModelsResponse>(web2, user, 'GET', '/api/studio/models');
    return models.body.models[0]?.status === 'complete' ? true : undefined;
  });
  return created.body.model.id;
}

async function bulkOf(ids: string[], user = alice, userModelId = modelId): Promise<string> {
  const created = await call<{ bulkJob: BulkJob; queued: number }>(
    web2,
    user,
    'POST',
    '/api/bulk-jobs',
    {
      kind: 'presets',
      userModelId,
      presetIds: ids,
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.queued).toBe(ids.length);
  return created.body.bulkJob.id;
}

async function finishedBulk(id: string, timeoutMs: number, user = alice): Promise<BulkJob> {
  return until(
    'the bulk job to finish',
    async () => {
      const job = await call<{ bulkJob: BulkJob }>(web1, user, 'GET', `/api/bulk-jobs/${id}`);
      return job.body.bulkJob.status === 'processing' ? undefined : job.body.bulkJob;
    },
    timeoutMs,
  );
}

async function ledgerOf(bulkJobId: string) {
  const { rows } = await sql.query<{ id: string; status: string; spent: number; refunded: number }>(
    `select g.id, g.status,
        coalesce(sum(-l.delta) filter (where l.reason = 'bulk_generation'), 0)::int as spent,
        coalesce(sum(l.delta) filter (where l.reason = 'refund'), 0)::int as refunded
      from generations g left join credit_ledger l on l.reference = 'generation:' || g.id
      where g.bulk_job_id = $1 group by g.id, g.status`,
    [bulkJobId],
  );
  return rows;
}

/** What the database says belongs to a user: the ids and balances its events may name. */
async function ownedBy(user: BrowserUser) {
  const { rows: generations } = await sql.query<{ id: string; bulk_job_id: string | null }>(
    'select id, bulk_job_id from generations where user_id = $1',
    [user.id],
  );
  const { rows: balances } = await sql.query<{ balance_after: number }>(
    'select balance_after from credit_ledger where user_id = $1',
    [user.id],
  );
  return {
    generationIds: new Set(generations.map((row) => row.id)),
    bulkJobIds: new Set(generations.flatMap((row) => (row.bulk_job_id ? [row.bulk_job_id] : []))),
    balances: new Set(balances.map((row) => row.balance_after)),
  };
}

/** Whether an event of any type names only what belongs to this user (unknown types: no). */
function belongsTo(event: AppEvent, own: Awaited<ReturnType<typeof ownedBy>>): boolean {
  switch (event.type) {
    case 'generation.updated':
      return own.generationIds.has(event.data.generationId as string);
    case 'bulk-job.updated':
      return own.bulkJobIds.has(event.data.bulkJobId as string);
    case 'subscription.updated':
      return own.balances.has(event.data.credits as number);
    default:
      return false;
  }
}

const sortedJson = (events: AppEvent[]) => events.map((event) => JSON.stringify(event)).sort();

describe.skipIf(!usesPostgres)('two web and two worker processes on one Postgres', () => {
  beforeAll(async () => {
    fake = await startFakeReplicate();
    databaseUrl = await createTestDatabase();
    sql = pool();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-scale-'));
    await startAll(workerEnv());
    alice = await signUpOn(web1);
    bob = await signUpOn(web2);
    modelId = await trainModel(alice);
    await sql.query(`insert into categories (manual_id, display_name) values ('scale', 'Scale')`);
    for (let i = 0; i < bulkSize; i += 1) presetIds.push(`scale-${i}`);
    await sql.query(
      `insert into presets (id, manual_id, category_id, display_name, prompt, order_index)
       select id, id, 'scale', 'Style ' || n, 'photo of {trigger}, style ' || n, n
       from unnest($1::text[]) with ordinality as t(id, n)`,
      [presetIds],
    );
  }, 300_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail')
      for (const proc of processes) console.error(proc.output.join('').slice(-4000));
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const proc of processes)
      if (proc.child.exitCode === null && proc.child.signalCode === null)
        proc.child.kill('SIGKILL');
    await Promise.all(processes.map((proc) => proc.exited));
    await sql?.end();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`makes a bulk of ${bulkSize} with every image made and paid exactly once, events to their user only`, async () => {
    // Each user holds a stream on each web process; both users make events of every kind.
    const aliceOnWeb1 = openEventStream(web1.url, alice.cookie);
    const aliceOnWeb2 = openEventStream(web2.url, alice.cookie);
    const bobOnWeb1 = openEventStream(web1.url, bob.cookie);
    const bobOnWeb2 = openEventStream(web2.url, bob.cookie);
    streams.push(aliceOnWeb1, aliceOnWeb2, bobOnWeb1, bobOnWeb2);
    await Promise.all(streams.map((stream) => stream.ready));
    const predictionsBefore = imagePredictions().length;

    // Bob: Premium (balances far from Alice's, so a leaked balance event shows) and a model of
    // his own, trained at the provider, for a small bulk made at the same time as Alice's.
    await buyPlan(bob, 'price_premium');
    const bobModelId = `scale-bob-${process.pid}`;
    await sql.query(
      `insert into user_models (id, user_id, name, gender, status, paid_with, photo_count, engine,
         engine_reference, weights, trigger_word, completed_at)
       values ($1, $2, 'Bob', 'man', 'complete', 'credits', 8, 'replicate', $1, $3, 'TOK', now())`,
      [bobModelId, bob.id, fake.addVersion()],
    );
    const bobIds = presetIds.slice(0, 10);
    const [bulkJobId, bobBulkJobId] = await Promise.all([
      bulkOf(presetIds),
      bulkOf(bobIds, bob, bobModelId),
    ]);
    const job = await finishedBulk(bulkJobId, 300_000);
    expect(job).toMatchObject({ status: 'completed', completedImages: bulkSize, failedImages: 0 });
    expect(await finishedBulk(bobBulkJobId, 120_000, bob)).toMatchObject({
      status: 'completed',
      completedImages: bobIds.length,
    });

    // Exactly one prediction of the trained model per image at the provider (beside each its
    // HD upscale), one stored file per image.
    expect(imagePredictions().length - predictionsBefore).toBe(bulkSize + bobIds.length);
    const rows = await ledgerOf(bulkJobId);
    expect(rows).toHaveLength(bulkSize);
    expect(
      rows.every((row) => row.status === 'complete' && row.spent === 1 && row.refunded === 0),
    ).toBe(true);
    const { rows: files } = await sql.query<{ n: number }>(
      `select count(distinct image_key)::int as n from generations where bulk_job_id = $1 and image_key is not null`,
      [bulkJobId],
    );
    expect(files[0]!.n).toBe(bulkSize);

    // Every event of every user reached both of that user's streams: the last ones too.
    const [aliceOwns, bobOwns] = await Promise.all([ownedBy(alice), ownedBy(bob)]);
    const finalCredits = async (user: BrowserUser) =>
      (
        await sql.query<{ credits: number }>(
          'select credits from subscriptions where user_id = $1',
          [user.id],
        )
      ).rows[0]!.credits;
    for (const [user, own, userStreams, bulk, size] of [
      [alice, aliceOwns, [aliceOnWeb1, aliceOnWeb2], bulkJobId, bulkSize],
      [bob, bobOwns, [bobOnWeb1, bobOnWeb2], bobBulkJobId, bobIds.length],
    ] as const) {
      const credits = await finalCredits(user);
      for (const stream of userStreams) {
        // A bulk publishes itself (not each queued image), then every image's end, the bulk's
        // progress, and the balance after the spend.
        const missing = () => {
          const completed = new Set(
            stream.events.flatMap((e) =>
              e.type === 'generation.updated' && e.data.status === 'complete'
                ? [e.data.generationId]
                : [],
            ),
          );
          return [
            ...(completed.size === size ? [] : [`${size - completed.size} completions`]),
            ...(stream.events.some(
              (e) =>
                e.type === 'bulk-job.updated' &&
                e.data.bulkJobId === bulk &&
                e.data.status === 'completed' &&
                e.data.completedImages === size,
            )
              ? []
              : ['the finished bulk job']),
            ...(stream.events.some(
              (e) => e.type === 'subscription.updated' && e.data.credits === credits,
            )
              ? []
              : [`the balance of ${credits}`]),
          ];
        };
        await until(
          'every event of the user on the stream',
          async () => (missing().length === 0 ? true : undefined),
          60_000,
        ).catch(() => {
          const types = stream.events.map(
            (e) => `${e.type}:${'status' in e.data ? e.data.status : ''}`,
          );
          throw new Error(`missing ${missing().join(', ')}; got ${[...new Set(types)].join(' ')}`);
        });
        // Nothing of anyone else's, whatever its type.
        expect(stream.events.filter((event) => !belongsTo(event, own))).toEqual([]);
      }
      // Both web processes delivered the same events: neither lost one the other had.
      expect(sortedJson(userStreams[0].events)).toEqual(sortedJson(userStreams[1].events));
    }
  }, 600_000);

  it('ends every job complete or failed-and-refunded when a worker is killed mid-job', async () => {
    // worker2 leaves first (drained by SIGTERM), so every job that is running when worker1 is
    // killed is worker1's.
    worker2.child.kill('SIGTERM');
    expect(await worker2.exited).toBe(0);
    const ids = presetIds.slice(0, 24);
    // Each prediction needs a few polls, so jobs are in flight when the worker dies.
    for (const _ of ids) fake.scriptPrediction({ outcome: 'succeed', polls: 3 });
    const bulkJobId = await bulkOf(ids);
    const activeJobs = async () =>
      (
        await sql.query<{ id: string }>(
          `select id from pgboss.job where name = 'generation.generate' and state = 'active'
             and data->>'generationId' in (select id from generations where bulk_job_id = $1)`,
          [bulkJobId],
        )
      ).rows.map((row) => row.id);
    await until('a first image, with more running', async () => {
      const rows = await ledgerOf(bulkJobId);
      return rows.some((row) => row.status === 'complete') && (await activeJobs()).length > 0
        ? true
        : undefined;
    });
    worker1.child.kill('SIGKILL');
    await worker1.exited;
    // With no other worker alive, jobs still marked active were held by the killed one.
    const heldWhenKilled = await activeJobs();
    expect(heldWhenKilled.length).toBeGreaterThan(0);
    for (const [name, dies] of [
      ['worker1-again', 'worker1'],
      ['worker2-again', 'worker2'],
    ] as const) {
      const restarted = await startProcess(name, 'worker', databaseUrl, {
        dataDir,
        env: { ...workerEnv(), PUBLIC_URL: web1.url },
      });
      processes.push(restarted);
      stopped.add(dies);
    }

    const job = await finishedBulk(bulkJobId, 240_000);
    expect(job.completedImages + job.failedImages).toBe(ids.length);
    const rows = await ledgerOf(bulkJobId);
    expect(rows.filter((row) => row.status === 'processing')).toEqual([]);
    for (const row of rows) {
      expect(row.spent, row.id).toBe(1);
      expect(row.refunded, row.id).toBe(row.status === 'failed' ? 1 : 0);
    }
    // The jobs the killed worker held ended too (none stuck active or waiting).
    const { rows: leftovers } = await sql.query<{ id: string; state: string }>(
      `select id, state from pgboss.job where id = any($1::uuid[]) and state not in ('completed', 'failed')`,
      [heldWhenKilled],
    );
    expect(leftovers).toEqual([]);
    // The balance is exactly what the ledger says, for everything Alice ever did.
    const { rows: balance } = await sql.query<{ credits: number; ledger: number; last: number }>(
      `select s.credits,
          (select sum(delta)::int from credit_ledger where user_id = s.user_id) as ledger,
          (select balance_after from credit_ledger where user_id = s.user_id
             order by created_at desc, id desc limit 1) as last
        from subscriptions s where s.user_id = $1`,
      [alice.id],
    );
    expect(balance[0]!.credits).toBe(balance[0]!.ledger);
    expect(balance[0]!.credits).toBe(balance[0]!.last);
    // One stored image per completed generation and no file for a failed one: an image made
    // again after the kill replaced nothing and was not kept twice under another name.
    const { rows: keys } = await sql.query<{ id: string; image_key: string | null }>(
      'select id, image_key from generations where bulk_job_id = $1',
      [bulkJobId],
    );
    const generationsDir = path.join(dataDir, 'storage', 'users', alice.id, 'generations');
    const storedImages = () =>
      (existsSync(generationsDir)
        ? readdirSync(generationsDir).filter((file) => keys.some((row) => file.startsWith(row.id)))
        : []
      )
        .filter((file) => !file.includes('-thumb'))
        .sort();
    const kept = keys
      .filter((row) => row.image_key)
      .map((row) => path.basename(row.image_key!))
      .sort();
    // A picture made HD replaces its original just after its generation ends (decision 040).
    // Named on a failure: which files are left over, which are missing.
    const difference = () => {
      const stored = storedImages();
      return {
        extra: stored.filter((file) => !kept.includes(file)),
        missing: kept.filter((file) => !stored.includes(file)),
      };
    };
    await expect.poll(difference, { timeout: 10_000 }).toEqual({ extra: [], missing: [] });
    expect(kept).toHaveLength(job.completedImages);
  }, 300_000);

  it('answers cleanly while every database connection is cut, and recovers without a restart', async () => {
    const answers: number[] = [];
    const bodies: string[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        for (const web of [web1, web2]) {
          const response = await fetch(`${web.url}/api/studio/models`, {
            headers: { cookie: alice.cookie },
          }).catch(() => undefined);
          answers.push(response?.status ?? 0);
          if (response && response.status >= 500) bodies.push(await response.text());
          else await response?.arrayBuffer();
        }
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // What a database restart does to the app: every connection it holds is cut at once.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const dbName = new URL(databaseUrl).pathname.slice(1);
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await load;
    await sql.end().catch(() => {});
    sql = pool();

    // Every answer was an answer (no connection reset), and failures were our clean error shape.
    expect(answers.length).toBeGreaterThan(4);
    expect(answers.filter((status) => status === 0)).toEqual([]);
    for (const body of bodies) expect(JSON.parse(body)).toHaveProperty('error.code');
    // The same processes recover by themselves.
    for (const web of [web1, web2]) {
      await until('recovery', async () => {
        const response = await fetch(`${web.url}/api/studio/models`, {
          headers: { cookie: alice.cookie },
        });
        return response.status === 200 ? true : undefined;
      });
    }
    expect(
      processes.filter((proc) => !stopped.has(proc.name) && proc.child.exitCode !== null),
    ).toEqual([]);
    // And work still flows through the workers.
    const bulkJobId = await bulkOf(presetIds.slice(0, 3));
    expect((await finishedBulk(bulkJobId, 120_000)).completedImages).toBe(3);
  }, 240_000);
});
