import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import {
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type TestApp,
  usesPostgres,
} from '../../../tests/helpers/test-app.ts';
import { waitFor } from '../../../tests/helpers/studio.ts';
import { uniqueEmail } from '../../../tests/helpers/users.ts';
import { EngineError } from '../adapters/engine/training-engine.ts';
import { prepareStatement } from '../db/statement.ts';
import { sendEmailJob } from '../features/email/jobs.ts';
import {
  defineJobType,
  defineWorker,
  type JobQueue,
  type JobType,
  type JobWorker,
  startJobQueue,
} from './job-queue.ts';

interface OutboxEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

function readOutbox(dir: string): OutboxEmail[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as OutboxEmail);
}

/** Polls the outbox until a message to `to` arrives; workers poll the queue every 0.5 s here. */
async function waitForEmail(dir: string, to: string, timeoutMs = 60_000): Promise<OutboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(dir).find((email) => email.to === to);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Jobs of this queue addressed to `to`, in any state: proof of what was (not) enqueued. */
async function jobsTo(app: TestApp, to: string): Promise<number> {
  const result = await app.deps.database.db.execute<{ count: number }>(
    sql`select count(*)::int as count from pgboss.job where name = ${sendEmailJob.name} and data->>'to' = ${to}`,
  );
  return (result as unknown as { rows: { count: number }[] }).rows[0]!.count;
}

// A web-only process needs Postgres (the embedded database runs ROLE=all): this runs in the
// Postgres stage.
describe.skipIf(!usesPostgres)('a job enqueued before a restart', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-restart-'));
  let databaseUrl: string | undefined;
  let running: TestApp | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    await running?.stop();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The same data both times: the same Postgres database.
  const boot = (role: 'web' | 'all') =>
    createTestApp({
      env: { ROLE: role },
      dataDir,
      persistent: true,
      ...(databaseUrl ? { databaseUrl } : {}),
    });

  // Two boots of the app on a busy machine: more than the default 30 s may pass.
  it('is run by a worker after the restart', async () => {
    const to = uniqueEmail('restart');
    const outbox = path.join(dataDir, 'outbox');

    // A web process only sends: nothing consumes the queue while it runs.
    running = await boot('web');
    expect(running.config.email.outboxDir).toBe(outbox);
    const id = await running.deps.queue.send(sendEmailJob, {
      to,
      subject: 'Your model is ready',
      text: 'Open the studio to see your photos.',
    });
    expect(id).toEqual(expect.any(String));
    expect((await running.deps.queue.depth())[sendEmailJob.name]).toBe(1);
    await running.stop();
    running = undefined;
    expect(readOutbox(outbox)).toEqual([]);

    running = await boot('all');
    const email = await waitForEmail(outbox, to);
    expect(email).toMatchObject({
      to,
      subject: 'Your model is ready',
      text: 'Open the studio to see your photos.',
      from: running.config.email.from,
    });
    expect(readOutbox(outbox)).toHaveLength(1);
  }, 120_000);
});

describe('sending a job', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('refuses a payload that does not match the job type, and enqueues nothing', async () => {
    const { queue } = app.deps;
    await expect(
      queue.send(sendEmailJob, { to: 'not-an-address', subject: 'Hi', text: 'x' }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      // @ts-expect-error a caller without types (or with stale ones) sends a wrong shape
      queue.send(sendEmailJob, { to: uniqueEmail(), text: 'no subject' }),
    ).rejects.toBeInstanceOf(ZodError);
    expect(await jobsTo(app, 'not-an-address')).toBe(0);
    const [row] = (
      (await app.deps.database.db.execute(
        sql`select count(*)::int as count from pgboss.job where name = ${sendEmailJob.name}`,
      )) as unknown as { rows: { count: number }[] }
    ).rows;
    expect(row!.count).toBe(0);
  });

  it('enqueues nothing when the surrounding transaction rolls back', async () => {
    const to = uniqueEmail('rollback');
    await expect(
      app.deps.database.db.transaction(async (tx) => {
        const id = await app.deps.queue.send(
          sendEmailJob,
          { to, subject: 'Never sent', text: 'The purchase failed.' },
          { tx },
        );
        expect(id).toEqual(expect.any(String));
        throw new Error('the purchase failed');
      }),
    ).rejects.toThrow('the purchase failed');
    expect(await jobsTo(app, to)).toBe(0);
  });

  it('runs the job once the surrounding transaction commits', async () => {
    const to = uniqueEmail('commit');
    await app.deps.database.db.transaction(async (tx) => {
      await app.deps.queue.send(
        sendEmailJob,
        { to, subject: 'Training started', text: 'We will tell you when it is done.' },
        { tx },
      );
    });
    expect(await jobsTo(app, to)).toBe(1);
    const email = await waitForEmail(app.config.email.outboxDir, to);
    expect(email).toMatchObject({ to, subject: 'Training started' });
  }, 90_000);
  it('sends many jobs in one go with the transaction: none on rollback, each run on commit', async () => {
    const batch = (label: string) =>
      [1, 2, 3].map((n) => ({
        to: uniqueEmail(`${label}-${n}`),
        subject: `Image ${n} is ready`,
        text: 'Open the studio to see it.',
      }));
    const rolledBack = batch('many-rollback');
    await expect(
      app.deps.database.db.transaction(async (tx) => {
        await app.deps.queue.sendMany(sendEmailJob, rolledBack, { tx });
        throw new Error('the bulk request failed');
      }),
    ).rejects.toThrow('the bulk request failed');
    for (const { to } of rolledBack) expect(await jobsTo(app, to)).toBe(0);

    const committed = batch('many-commit');
    await app.deps.database.db.transaction((tx) =>
      app.deps.queue.sendMany(sendEmailJob, committed, { tx }),
    );
    for (const { to, subject } of committed)
      expect(await waitForEmail(app.config.email.outboxDir, to)).toMatchObject({ to, subject });
    // The queue's retry policy applies to jobs sent together too, with the test app's pauses
    // (JOB_RETRY_DELAY_FACTOR 0.02): a second, and the backoff never doubles it.
    const [policy] = (
      (await app.deps.database.db.execute(
        sql`select retry_limit, retry_delay, retry_backoff, retry_delay_max from pgboss.job
            where data->>'to' = ${committed[0]!.to}`,
      )) as unknown as { rows: Record<string, unknown>[] }
    ).rows;
    expect(policy).toEqual({
      retry_limit: sendEmailJob.retry.retryLimit,
      retry_delay: 1,
      retry_backoff: true,
      retry_delay_max: 1,
    });
  }, 90_000);

  /** An email job's payload to a fresh address. */
  const email = (label: string) => ({
    to: uniqueEmail(label),
    subject: 'Your image is ready',
    text: 'Open the studio to see it.',
  });

  it("inserts through a caller's statement the row pg-boss's own insert writes, and it runs", async () => {
    const bosses = email('insert-by-pg-boss');
    const ours = email('insert-by-statement');
    await app.deps.queue.sendMany(sendEmailJob, [bosses], { owner: 'owner-pg-boss' });
    const jobs = app.deps.queue.insertStatement(sendEmailJob, { from: 'source', as: 'jobs' });
    const statement = prepareStatement(
      'test-insert-statement',
      sql`with source as (select ${sql.placeholder('data')}::jsonb as data,
          ${sql.placeholder('owner')}::text as owner, 0 as position,
          ${sql.placeholder('jobContext')}::jsonb as context),
        ${jobs.ctes}
        select (select count(*)::int from jobs) as inserted, ${jobs.evaluated} as evaluated`,
    );
    const [answer] = await app.deps.database.runPrepared<{ inserted: number }>(statement, {
      owner: 'owner-statement',
      data: JSON.stringify(ours),
      jobContext: app.deps.queue.jobContext(),
    });
    expect(answer!.inserted).toBe(1);
    const columns = sql`name, data, singleton_key, singleton_on, group_tier, expire_seconds,
      deletion_seconds, retry_limit, retry_delay, retry_backoff, retry_delay_max, policy,
      dead_letter, heartbeat_seconds, blocked, blocking, pending_dependencies`;
    const read = async (to: string) =>
      (
        (await app.deps.database.db.execute(
          sql`select ${columns}, group_id, created_on = start_after as starts_now
              from pgboss.job where name = ${sendEmailJob.name} and data->>'to' = ${to}`,
        )) as unknown as { rows: Record<string, unknown>[] }
      ).rows;
    const [byBoss] = await read(bosses.to);
    const [byStatement] = await read(ours.to);
    expect(byStatement).toEqual({
      ...byBoss,
      data: ours,
      group_id: 'owner-statement',
    });
    expect(byBoss!.group_id).toBe('owner-pg-boss');
    // A worker of the queue takes it as it takes pg-boss's own.
    expect(await waitForEmail(app.config.email.outboxDir, ours.to)).toMatchObject(ours);
  }, 90_000);

  it("delays a caller's statement's job as pg-boss delays one sent to start later", async () => {
    const bosses = email('delayed-by-pg-boss');
    const ours = email('delayed-by-statement');
    await app.deps.queue.send(sendEmailJob, bosses, { startAfterSeconds: 600 });
    const jobs = app.deps.queue.insertStatement(sendEmailJob, {
      from: 'source',
      as: 'jobs',
      startAfterSeconds: 600,
    });
    await app.deps.database.runPrepared(
      prepareStatement(
        'test-insert-statement-delayed',
        sql`with source as (select ${sql.placeholder('data')}::jsonb as data,
          ${sql.placeholder('owner')}::text as owner, 0 as position,
          ${sql.placeholder('jobContext')}::jsonb as context),
          ${jobs.ctes}
          select ${jobs.evaluated} as evaluated`,
      ),
      {
        owner: 'owner-delayed',
        data: JSON.stringify(ours),
        jobContext: app.deps.queue.jobContext(),
      },
    );
    const delays = await Promise.all(
      [bosses, ours].map(
        async ({ to }) =>
          (
            (await app.deps.database.db.execute(
              sql`select state, extract(epoch from start_after - created_on)::int as seconds
                  from pgboss.job where name = ${sendEmailJob.name} and data->>'to' = ${to}`,
            )) as unknown as { rows: { state: string; seconds: number }[] }
          ).rows[0],
      ),
    );
    expect(delays).toEqual([
      { state: 'created', seconds: 600 },
      { state: 'created', seconds: 600 },
    ]);
    expect(() =>
      app.deps.queue.insertStatement(sendEmailJob, {
        from: 'source',
        as: 'jobs',
        startAfterSeconds: 1.5,
      }),
    ).toThrow('not a delay in whole seconds');
  });
});

/**
 * A queue of `type` alone on the app's database, beside the app's own: no supervisor, so no
 * NOTIFY wakes its workers (as on a Postgres server); they poll every `pollSeconds`.
 */
function ownQueue<P>(app: TestApp, type: JobType<P>, pollSeconds: number): Promise<JobQueue> {
  return startJobQueue({
    database: app.deps.database,
    types: [type as JobType<unknown>],
    pollSeconds,
    supervise: false,
    heartbeatSeconds: 30,
    monitorSeconds: 30,
    onError: () => {},
  });
}

describe('a job whose engine asked to be called back later (429 with Retry-After)', () => {
  let app: TestApp;
  let queue: JobQueue;
  const attempts = new Map<string, { at: number; retryCount: number }[]>();
  const retryAfterType = defineJobType('test.retry-after', z.object({ label: z.string() }), {
    retryLimit: 2,
    retryDelaySeconds: 5,
    retryBackoff: true,
  });

  beforeAll(async () => {
    app = await createTestApp();
    // A queue of its own on the app's database, with one handler that always fails as told.
    queue = await ownQueue(app, retryAfterType, 0.5);
    await queue.work([
      defineWorker(retryAfterType, async ({ label }, job) => {
        attempts.set(label, [
          ...(attempts.get(label) ?? []),
          { at: Date.now(), retryCount: job.retryCount },
        ]);
        throw label === 'busy'
          ? new EngineError('Replicate answered 429', { transient: true, retryAfterSeconds: 120 })
          : new EngineError('Replicate answered 500', { transient: true });
      }) as JobWorker<unknown>,
    ]);
  });
  afterAll(async () => {
    await queue?.stop({ graceful: false, timeoutMs: 1000 });
    await app?.stop();
  });

  async function rowOf(id: string) {
    const result = await app.deps.database.db.execute<{
      state: string;
      retry_count: number;
      start_after: string;
    }>(sql`select state, retry_count, start_after from pgboss.job where id = ${id}`);
    return (
      result as unknown as { rows: { state: string; retry_count: number; start_after: string }[] }
    ).rows[0]!;
  }

  async function afterFirstFailure(label: string) {
    const id = (await queue.send(retryAfterType, { label }))!;
    const row = await waitFor(
      () => rowOf(id),
      (found) => found.state !== 'created' && found.state !== 'active',
    );
    return { row, failedAt: attempts.get(label)![0]!.at };
  }

  it('is retried no earlier than the Retry-After, spending one retry like any failure', async () => {
    const busy = await afterFirstFailure('busy');
    const broken = await afterFirstFailure('broken');
    expect(busy.row.state).toBe('retry');
    expect(new Date(busy.row.start_after).getTime()).toBeGreaterThanOrEqual(
      busy.failedAt + 120_000,
    );
    // Without a Retry-After the queue's own backoff applies (5 s, with jitter).
    expect(broken.row.state).toBe('retry');
    expect(new Date(broken.row.start_after).getTime()).toBeLessThan(broken.failedAt + 120_000);
    // The attempt counts the same either way: the retry budget is not spent faster or slower.
    expect(busy.row.retry_count).toBe(broken.row.retry_count);
    expect(attempts.get('busy')).toHaveLength(1);
  });
});

describe('a queue with jobs waiting', () => {
  let app: TestApp;
  let queue: JobQueue;
  const ran: number[] = [];
  const quickType = defineJobType('test.quick', z.object({ n: z.number() }), {
    retryLimit: 0,
    retryDelaySeconds: 1,
    retryBackoff: false,
  });

  beforeAll(async () => {
    app = await createTestApp();
    // A poll of a minute and no NOTIFY (as on a Postgres server): once the jobs are sent, only
    // the end of each job can start the next fetch before a minute has passed.
    queue = await ownQueue(app, quickType, 60);
  });
  afterAll(async () => {
    await queue?.stop({ graceful: false, timeoutMs: 1000 });
    await app?.stop();
  });

  it('runs them one after another without waiting out the poll interval between them', async () => {
    const numbers = [1, 2, 3, 4, 5, 6];
    await queue.sendMany(
      quickType,
      numbers.map((n) => ({ n })),
    );
    // One slot, which finds the first job as it starts.
    await queue.work([
      defineWorker(quickType, async ({ n }) => void ran.push(n), 1) as JobWorker<unknown>,
    ]);
    // Half the poll interval for all six: a slot that waited it out after each job would have
    // run one.
    await waitFor(
      async () => ran.length,
      (count) => count === numbers.length,
      30_000,
    );
    expect(ran.toSorted()).toEqual(numbers);
  }, 60_000);
});
