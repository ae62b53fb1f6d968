import { type SQL, sql } from 'drizzle-orm';
import { type Job, PgBoss, fromDrizzle, fromPglite } from 'pg-boss';
import type { z } from 'zod';
import { timings } from '../../common/product/timings.ts';
import { EngineError } from '../adapters/engine/training-engine.ts';
import type { DatabaseHandle, Executor } from '../db/client.ts';
import { currentContext, runWithContext } from '../observability/context.ts';
import { metrics } from '../observability/metrics.ts';

export interface RetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A job running longer than this is taken back and retried (a crashed worker's job too). */
  expireInSeconds: number;
}

/** A kind of job: its queue name, the shape of its payload and how it is retried. */
export interface JobType<P> {
  name: string;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
}

/** Where a job's data carries the context of the request that sent it (not part of the payload). */
const contextKey = '_context';

const defaultRetry: RetryPolicy = {
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 300,
};

export function defineJobType<P>(
  name: string,
  payload: z.ZodType<P>,
  retry: Partial<RetryPolicy> = {},
): JobType<P> {
  return { name, payload, retry: { ...defaultRetry, ...retry } };
}

export interface JobContext {
  id: string;
  retryCount: number;
  /** True on the last attempt: a handler that fails now will not be retried. */
  isLastAttempt: boolean;
  signal: AbortSignal;
}

export interface JobWorker<P = never> {
  type: JobType<P>;
  concurrency: number;
  handle(payload: P, context: JobContext): Promise<void>;
}

export function defineWorker<P>(
  type: JobType<P>,
  handle: (payload: P, context: JobContext) => Promise<void>,
  concurrency = 2,
): JobWorker<P> {
  return { type, handle, concurrency };
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists exactly when the transaction commits. */
  tx?: Executor;
  startAfterSeconds?: number;
  singletonKey?: string;
  /**
   * Whose job this is (a user id). A queue's owned jobs are served round-robin across owners,
   * so one user's bulk never makes another's single job wait behind it (see `fairPriorities`).
   */
  owner?: string;
}

/** Jobs inserted by a statement of the caller's (see `JobQueue.insertStatement`). */
export interface JobInsert {
  /** The CTEs to put in the caller's WITH (after `from`'s): `<as>` holds the new jobs' ids. */
  ctes: SQL;
  /**
   * An expression the caller's final SELECT must name: a CTE that only reads (the NOTIFY that
   * wakes listening workers) runs only when something reads it.
   */
  evaluated: SQL;
}

export interface JobQueue {
  send<P>(type: JobType<P>, payload: P, options?: SendOptions): Promise<string | null>;
  /** Many jobs of one type in one statement (a bulk request's), with the queue's policy. */
  sendMany<P>(
    type: JobType<P>,
    payloads: P[],
    options?: Pick<SendOptions, 'tx' | 'owner'>,
  ): Promise<void>;
  /**
   * The jobs of one type as a part of one statement the caller writes (decision 051): the rows
   * pg-boss's own `insert` (what `sendMany` does) would write, one per row of `from`, a relation
   * of the caller's statement with the columns `data` (the payload, jsonb: the caller vouches
   * for its shape, the payload schema is not run), `context` (jsonb: the context of the request
   * the job is for, `jobContext()` in that request, added to its data), `owner` (whose fair
   * share the job is served from) and `position` (0, 1, …: the order in which the owner's jobs
   * of the statement are served).
   */
  insertStatement<P>(
    type: JobType<P>,
    options: { from: string; as: string } & Pick<SendOptions, 'startAfterSeconds'>,
  ): JobInsert;
  /** The current request's context for the jobs of `insertStatement`s (jsonb text). */
  jobContext(): string;
  /**
   * Sends this job on a cron schedule (once per occurrence across all processes; the schedule
   * lives in the database, so declaring it again at each start changes nothing).
   */
  schedule<P>(type: JobType<P>, cron: string, payload: P): Promise<void>;
  /** Start consuming these kinds of job in this process (workers only). */
  work(workers: JobWorker<unknown>[]): Promise<void>;
  /** Jobs waiting or running, by queue: what an operator watches. */
  depth(): Promise<Record<string, number>>;
  stop(options: { graceful: boolean; timeoutMs: number }): Promise<void>;
}

export interface JobQueueOptions {
  database: DatabaseHandle;
  types: JobType<unknown>[];
  pollSeconds: number;
  /**
   * Only workers run maintenance (expiry, retention) and listen for new jobs (LISTEN/NOTIFY:
   * a job starts the moment it is created, not at the next poll); a pure web process just sends.
   */
  supervise: boolean;
  onError: (error: Error) => void;
  /**
   * A running job whose worker has not confirmed it is alive for this long is handed to another
   * worker (a process killed mid-job); workers confirm every half of it. At least 10.
   */
  heartbeatSeconds: number;
  /** How often the supervisor checks for such jobs (and expiry, retention). */
  monitorSeconds: number;
  /** Multiplies each type's retry delay (tests and impatient operators shorten the waits). */
  retryDelayFactor?: number;
}

/**
 * An owner's waiting jobs by priority, for `fairPriorities`'s tail. Without it that read went
 * through every waiting job of the queue: 2 ms an accept with 20,000 waiting, growing with the
 * backlog. Made on pg-boss's partitioned job table once pg-boss has made the table, so every
 * queue's partition has it; processes starting together take turns (the advisory lock), since
 * two `create index if not exists` at once can both try to create it.
 */
const waitingByOwnerIndex = 'job_waiting_by_owner';

async function createWaitingByOwnerIndex(database: JobQueueOptions['database']): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${waitingByOwnerIndex}))`);
    await tx.execute(
      sql.raw(`create index if not exists ${waitingByOwnerIndex} on pgboss.job
                 (name, group_id, priority) where state < 'active' and not blocked`),
    );
  });
}

/**
 * The priority of an owner's next job (see `fairPriorities`): one below their last waiting job,
 * else the head of the queue, else 0. Both reads go through an index (the head through pg-boss's
 * fetch index, the tail through `waitingByOwnerIndex`), so an enqueue costs the same whatever
 * the backlog; `not blocked` is what lets the planner use them (a job waiting on dependencies
 * is never fetched first).
 */
function firstFairPriority(name: string, owner: string | SQL): SQL {
  return sql`coalesce(
      (select min(priority) - 1 from pgboss.job
        where name = ${name}::text and state < 'active' and not blocked and group_id = ${owner}),
      (select max(priority) from pgboss.job
        where name = ${name}::text and state < 'active' and not blocked),
      0)`;
}

export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { database } = options;
  // pg-boss hears of new jobs through LISTEN only on the embedded database (see below).
  const listens = Boolean(database.pglite) && options.supervise;
  const boss = database.pglite
    ? new PgBoss({
        db: fromPglite(database.pglite),
        backend: 'pglite',
        supervise: options.supervise,
        useListenNotify: listens,
        schedule: options.supervise,
        monitorIntervalSeconds: options.monitorSeconds,
        superviseIntervalSeconds: options.monitorSeconds,
      })
    : new PgBoss({
        connectionString: database.connectionString,
        max: 4,
        supervise: options.supervise,
        // Not on a server: pg-boss 12.35's listening client has no 'error' handler, so a
        // Postgres restart crashed the process (tests/api/postgres-restart.test.ts). Polling only.
        useListenNotify: false,
        schedule: options.supervise,
        monitorIntervalSeconds: options.monitorSeconds,
        superviseIntervalSeconds: options.monitorSeconds,
        application_name: 'likeness-jobs',
      });
  boss.on('error', options.onError);
  await boss.start();
  const known = new Map(options.types.map((type) => [type.name, type]));
  const retryDelayFactor = options.retryDelayFactor ?? 1;
  for (const type of known.values()) {
    // pg-boss counts whole seconds.
    const retryDelay = Math.max(1, Math.round(type.retry.retryDelaySeconds * retryDelayFactor));
    const queueOptions = {
      retryLimit: type.retry.retryLimit,
      retryDelay,
      retryBackoff: type.retry.retryBackoff,
      // Shortened pauses stay short: the backoff doubles from pg-boss's second, which is already
      // longer than the scaled first pause, so without a cap four retries took 15 s where their
      // scaled pauses add up to 1.5.
      ...(retryDelayFactor < 1 && type.retry.retryBackoff ? { retryDelayMax: retryDelay } : {}),
      expireInSeconds: type.retry.expireInSeconds,
      heartbeatSeconds: options.heartbeatSeconds,
      // A NOTIFY in each enqueueing transaction only where someone LISTENs: on a Postgres server
      // the workers poll, and a NOTIFY in a commit serialises the server's WAL flushes.
      notify: listens,
    };
    await boss.createQueue(type.name, queueOptions);
    // A queue made by an earlier version keeps its options unless told.
    await boss.updateQueue(type.name, queueOptions);
  }
  await createWaitingByOwnerIndex(database);
  // The table each queue's jobs live in (pg-boss's `job_common`, or a partition of its own),
  // and whether inserting a job sends the NOTIFY that wakes listening workers.
  const queueTables = new Map<string, { table: string; notify: boolean }>();
  if (known.size > 0) {
    const result = (await database.db.execute(
      sql`select name, table_name, notify from pgboss.queue
          where name in (${sql.join(
            [...known.keys()].map((name) => sql`${name}`),
            sql`, `,
          )})`,
    )) as unknown as { rows: { name: string; table_name: string; notify: boolean }[] };
    for (const row of result.rows)
      queueTables.set(row.name, { table: row.table_name, notify: row.notify });
  }

  function contextData(): object {
    // The request id travels with the job, so its log lines can be found from the request's.
    const requestId = currentContext()?.requestId;
    return requestId ? { [contextKey]: { requestId } } : {};
  }

  function jobData<P>(type: JobType<P>, payload: P): object {
    if (!known.has(type.name)) throw new Error(`Job type ${type.name} is not registered`);
    return { ...(type.payload.parse(payload) as object), ...contextData() };
  }

  /** Inside the caller's transaction when given one: the jobs exist exactly when it commits. */
  function connection(tx: Executor | undefined) {
    return tx ? { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) } : {};
  }

  /**
   * Priorities that serve owners in turn. pg-boss takes the waiting job with the highest
   * priority, oldest first among equals. An owner's jobs count down from the priority of the job
   * at the head of the queue (one priority per round), or on from their own last waiting one: a
   * newcomer's first job ties with the head and runs right after it, whatever the backlog behind
   * it, while two owners with backlogs alternate. A new bulk of an owner who has jobs waiting
   * queues behind those. Two requests at once may share priorities, which only pairs their jobs
   * in a round; nothing is locked. The numbers start again from 0 whenever the queue drains.
   */
  async function fairPriorities(
    tx: Executor | undefined,
    name: string,
    owner: string,
    count: number,
  ): Promise<number[]> {
    const result = await (tx ?? database.db).execute(
      sql`select ${firstFairPriority(name, owner)} as start`,
    );
    const [row] = (result as unknown as { rows: { start: number }[] }).rows;
    const start = row?.start ?? 0;
    return Array.from({ length: count }, (_, i) => start - i);
  }

  /**
   * Fails the job as pg-boss would (the attempt counts against its retries like any other), but
   * moves its retry to no earlier than the provider asked for: the queue's own backoff (seconds)
   * would spend every retry inside a `Retry-After: 60` and give up early. One transaction, so
   * the retry is never left on the short schedule.
   */
  async function failUntil(name: string, id: string, error: EngineError, seconds: number) {
    await database.db.transaction(async (tx) => {
      await boss.fail(
        name,
        id,
        { message: error.message, retryAfterSeconds: seconds },
        connection(tx),
      );
      await tx.execute(
        sql`update pgboss.job
            set start_after = greatest(start_after, now() + make_interval(secs => ${seconds}))
            where name = ${name} and id = ${id} and state = 'retry'`,
      );
    });
  }

  /** Runs one fetched job in its request's logging context, counted in the job metrics. */
  async function runJob(worker: JobWorker<unknown>, job: Job<unknown>) {
    const context = (job.data as { [contextKey]?: { requestId?: string } })[contextKey];
    const started = performance.now();
    const labels = { queue: worker.type.name };
    try {
      await runWithContext(
        { ...(context?.requestId ? { requestId: context.requestId } : {}), job: job.id },
        () =>
          worker.handle(worker.type.payload.parse(job.data), {
            id: job.id,
            retryCount: job.retryCount,
            isLastAttempt: job.retryCount >= worker.type.retry.retryLimit,
            signal: job.signal,
          }),
      );
      metrics.jobsTotal.inc({ ...labels, outcome: 'completed' });
    } catch (error) {
      metrics.jobsTotal.inc({ ...labels, outcome: 'failed' });
      const waitSeconds = retryAfterSeconds(error);
      if (waitSeconds === undefined || job.retryCount >= worker.type.retry.retryLimit) throw error;
      await failUntil(worker.type.name, job.id, error as EngineError, waitSeconds);
    } finally {
      metrics.jobDuration.observe(labels, (performance.now() - started) / 1000);
    }
  }

  return {
    async send(type, payload, sendOptions = {}) {
      const { tx, owner } = sendOptions;
      const [priority] = owner ? await fairPriorities(tx, type.name, owner, 1) : [];
      return boss.send(type.name, jobData(type, payload), {
        ...connection(tx),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(owner ? { priority, group: { id: owner } } : {}),
      });
    },
    async sendMany(type, payloads, sendOptions = {}) {
      if (payloads.length === 0) return;
      const { tx, owner } = sendOptions;
      const priorities = owner ? await fairPriorities(tx, type.name, owner, payloads.length) : [];
      await boss.insert(
        type.name,
        payloads.map((payload, i) => ({
          data: jobData(type, payload),
          ...(owner ? { priority: priorities[i], group: { id: owner } } : {}),
        })),
        connection(tx),
      );
    },
    insertStatement(type, { from, as, startAfterSeconds = 0 }) {
      const queue = queueTables.get(type.name);
      if (!known.has(type.name) || !queue)
        throw new Error(`Job type ${type.name} is not registered`);
      if (!/^[a-z_][a-z0-9_]*$/.test(as) || !/^[a-z_][a-z0-9_]*$/.test(from))
        throw new Error(`not a relation name: ${from}, ${as}`);
      const { name } = type;
      const table = sql.raw(`pgboss.${pgIdentifier(queue.table)}`);
      const source = sql.raw(from);
      if (!Number.isInteger(startAfterSeconds) || startAfterSeconds < 0)
        throw new Error(`not a delay in whole seconds: ${startAfterSeconds}`);
      const startAfter = startAfterSeconds
        ? sql`pgboss.job_now() + ${startAfterSeconds}::int * interval '1s'`
        : sql`pgboss.job_now()`;
      // pg-boss 12.35's `insertJobs` (plans.js) for jobs that name only data, priority and group,
      // as `sendMany` sends them: every other column from the queue's options. The priorities are
      // `fairPriorities`'s, counted in the same statement for each owner.
      const ctes = sql`${sql.raw(as)}_start as (
          select o.owner, ${firstFairPriority(name, sql`o.owner`)} as priority
          from (select distinct owner from ${source}) o
        ),
        ${sql.raw(as)} as (
          insert into ${table} (
            id, name, data, priority, start_after, created_on, singleton_key, singleton_on,
            group_id, group_tier, expire_seconds, deletion_seconds, keep_until, retry_limit,
            retry_delay, retry_backoff, retry_delay_max, policy, dead_letter, heartbeat_seconds,
            blocked, blocking, pending_dependencies
          )
          select gen_random_uuid(), q.name, j.data || j.context,
            s.priority - j.position, ${startAfter}, pgboss.job_now(), null, null,
            j.owner, null, q.expire_seconds, q.deletion_seconds,
            pgboss.job_now() + (q.retention_seconds * interval '1s'), q.retry_limit,
            q.retry_delay, coalesce(q.retry_backoff, false), q.retry_delay_max, q.policy,
            q.dead_letter, q.heartbeat_seconds, false, false, 0
          from ${source} j
          join ${sql.raw(as)}_start s on s.owner = j.owner
          join pgboss.queue q on q.name = ${name}::text
          on conflict do nothing
          returning id
        )${
          queue.notify
            ? sql`, ${sql.raw(as)}_notified as (
                select pg_notify(('pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24)), ${name}::text)
                from ${sql.raw(as)} limit 1
              )`
            : sql``
        }`;
      return {
        ctes,
        evaluated: queue.notify ? sql`(select count(*) from ${sql.raw(as)}_notified)` : sql`0`,
      };
    },
    jobContext: () => JSON.stringify(contextData()),
    async schedule(type, cron, payload) {
      if (!known.has(type.name)) throw new Error(`Job type ${type.name} is not registered`);
      await boss.schedule(type.name, cron, type.payload.parse(payload) as object);
    },
    async work(workers) {
      // One pg-boss worker per slot, each woken as its job ends: pg-boss waits out the poll
      // interval after every fetch, one that found a job included, so a slot took at most one
      // job per interval (a bulk of 100 quick jobs took 25 s on two slots at 0.5 s). Now a slot
      // fetches again as soon as its job ends and waits only once the queue is empty.
      for (const worker of workers)
        for (let started = 0; started < worker.concurrency; started += 1) {
          // Filled once pg-boss answers; a job that ended before then waits out one interval.
          const slot: { id?: string } = {};
          slot.id = await boss.work<unknown>(
            worker.type.name,
            {
              batchSize: 1,
              pollingIntervalSeconds: options.pollSeconds,
              // Woken by NOTIFY when a job is created; the poll still finds jobs that come due
              // later (a retry's delay, a start-after), so it keeps its interval.
              notifyPollingIntervalSeconds: options.pollSeconds,
            },
            async ([job]) => {
              if (!job) return;
              try {
                await runJob(worker, job);
              } finally {
                if (slot.id) boss.notifyWorker(slot.id);
              }
            },
          );
        }
    },
    async depth() {
      // pg-boss's own queue counts are a cache its supervisor refreshes now and then (never on a
      // web process), so they read 0 with jobs waiting; count the rows instead.
      const names = [...known.keys()];
      const result = await database.db.execute<{ name: string; count: number }>(
        sql`select name, count(*)::int as count from pgboss.job
            where name in (${sql.join(
              names.map((name) => sql`${name}`),
              sql`, `,
            )}) and state in ('created', 'retry', 'active')
            group by name`,
      );
      const rows = (result as unknown as { rows: { name: string; count: number }[] }).rows;
      const depths: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
      for (const row of rows) depths[row.name] = row.count;
      return depths;
    },
    async stop({ graceful, timeoutMs }) {
      await boss.stop({ graceful, timeout: timeoutMs, close: !database.pglite });
    },
  };
}

function pgIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected pg-boss table ${name}`);
  return name;
}

/** How long a provider asked us to wait (a 429's Retry-After), at most the product's cap. */
function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof EngineError) || !error.transient || !error.retryAfterSeconds)
    return undefined;
  return Math.min(error.retryAfterSeconds, timings.engineRetryAfterMaxSeconds);
}
