import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTestDatabase,
  dropTestDatabase,
  usesPostgres,
} from '../../../tests/helpers/test-app.ts';
import { EngineError } from '../adapters/engine/training-engine.ts';
import { type DatabaseHandle, type Executor, openDatabase } from '../db/client.ts';
import { createUnitOfWork } from '../db/unit-of-work.ts';
import { createEngineJobs, type Reconciliation, type Settlement } from './engine-job.ts';

// A paid engine job reduced to what the lifecycle needs: a row that is open until it ends, and
// a ledger of refunds with one row per reference (as billing's is).

interface JobRow {
  id: string;
  userId: string;
  status: string;
}

type Ending = { status: 'done'; result: string } | { status: 'failed' | 'blocked' };

let url: string | undefined;
let handle: DatabaseHandle;

beforeAll(async () => {
  url = usesPostgres ? await createTestDatabase() : undefined;
  handle = await openDatabase({ url, poolSize: 4, embeddedDir: 'memory://' });
  await handle.db.execute(sql`
    create table engine_jobs (
      id text primary key, user_id text not null, status text not null,
      result text, heard_at timestamptz not null default now())`);
  await handle.db.execute(sql`create table refunds (reference text primary key)`);
});

afterAll(async () => {
  await handle?.close();
  if (url) await dropTestDatabase(url);
});

beforeEach(async () => {
  await handle.db.execute(sql`delete from engine_jobs`);
  await handle.db.execute(sql`delete from refunds`);
});

const rowsOf = (result: unknown) =>
  (result as { rows: { id: string; user_id: string; status: string }[] }).rows.map(
    (row): JobRow => ({ id: row.id, userId: row.user_id, status: row.status }),
  );

async function insertJob(id: string, heardMinutesAgo = 0): Promise<JobRow> {
  await handle.db.execute(
    sql`insert into engine_jobs (id, user_id, status, heard_at)
        values (${id}, 'user-1', 'open', now() - make_interval(mins => ${heardMinutesAgo}))`,
  );
  return { id, userId: 'user-1', status: 'open' };
}

/** Each job's status, by id. */
async function statuses(): Promise<Record<string, string>> {
  const rows = rowsOf(await handle.db.execute(sql`select * from engine_jobs`));
  return Object.fromEntries(rows.map((row) => [row.id, row.status]));
}

async function refunds(): Promise<string[]> {
  const result = await handle.db.execute(sql`select reference from refunds order by reference`);
  return (result as unknown as { rows: { reference: string }[] }).rows.map((r) => r.reference);
}

function setUp(reconciliation: Partial<Reconciliation<JobRow, Ending, Ending>> = {}) {
  const logger = { warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
  const storage = { delete: vi.fn(async (_key: string) => {}) };
  const published: JobRow[] = [];
  const cancelled: string[] = [];
  const jobs = createEngineJobs<JobRow, Ending, Ending>(
    {
      db: handle.db,
      unitOfWork: createUnitOfWork(handle.db, { logger }),
      storage,
      credits: {
        // A second refund of one reference would break the primary key: exactly once, or throw.
        async refund(tx: Executor, _userId: string, reference: string) {
          await tx.execute(sql`insert into refunds (reference) values (${reference})`);
        },
      },
      logger,
    },
    {
      logAs: { name: 'probe', idField: 'probeId' },
      engine: 'fake',
      lock: async (tx, id) =>
        rowsOf(await tx.execute(sql`select * from engine_jobs where id = ${id} for update`))[0],
      isOpen: (row) => row.status === 'open',
      write: async (tx, row, ending) =>
        rowsOf(
          await tx.execute(sql`update engine_jobs
            set status = ${ending.status}, result = ${'result' in ending ? ending.result : null}
            where id = ${row.id} returning *`),
        )[0]!,
      refunds: (ending) => ending.status === 'failed',
      refundReference: (id) => `probe:${id}`,
      publish: async (row) => published.push(row),
      stale: async (db, before) =>
        rowsOf(
          await db.execute(sql`select * from engine_jobs
            where status = 'open' and heard_at < ${before.toISOString()}::timestamptz
            order by id`),
        ),
      staleAfterMinutes: 30,
      cancel: async (row) => void cancelled.push(row.id),
      reconciliation: {
        ask: async () => undefined,
        take: async (row, word): Promise<Settlement> =>
          (await jobs.end(row.id, word)) ? 'ended' : 'already ended',
        givenUp: () => ({ status: 'failed' }),
        ...reconciliation,
      },
    },
  );
  return { jobs, storage, published, cancelled, logger };
}

describe('ending an engine job', () => {
  it('ends it once when two endings race: one wins, one refund, the loser’s file deleted', async () => {
    const { jobs, storage, published } = setUp();
    await insertJob('race');
    const [first, second] = await Promise.all([
      jobs.end('race', { status: 'failed' }, { written: ['first.jpg'] }),
      jobs.end('race', { status: 'failed' }, { written: ['second.jpg'] }),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await refunds()).toEqual(['probe:race']);
    expect(published.map((row) => row.status)).toEqual(['failed']);
    const loser = first ? 'second.jpg' : 'first.jpg';
    expect(storage.delete.mock.calls).toEqual([[loser]]);
  });

  it('refunds a failed ending and not a blocked one; publishes both after the commit', async () => {
    const { jobs, published } = setUp();
    await insertJob('failed');
    await insertJob('blocked');
    await jobs.end('failed', { status: 'failed' });
    await jobs.end('blocked', { status: 'blocked' });
    expect(await refunds()).toEqual(['probe:failed']);
    expect(published.map((row) => [row.id, row.status])).toEqual([
      ['failed', 'failed'],
      ['blocked', 'blocked'],
    ]);
  });

  it('deletes what the winning ending supersedes once committed, and keeps what it wrote', async () => {
    const { jobs, storage } = setUp();
    await insertJob('done');
    const ended = await jobs.end(
      'done',
      { status: 'done', result: 'new.jpg' },
      { written: ['new.jpg'], superseded: ['old.jpg'] },
    );
    expect(ended?.status).toBe('done');
    expect(storage.delete.mock.calls).toEqual([['old.jpg']]);
    expect(await refunds()).toEqual([]);
  });

  it('changes nothing of a job that has ended, and deletes what the late ending wrote', async () => {
    const { jobs, storage, published } = setUp();
    await insertJob('late');
    await jobs.end('late', { status: 'done', result: 'kept.jpg' });
    expect(await jobs.end('late', { status: 'failed' }, { written: ['late.jpg'] })).toBeUndefined();
    expect(await statuses()).toEqual({ late: 'done' });
    expect(await refunds()).toEqual([]);
    expect(published).toHaveLength(1);
    expect(storage.delete.mock.calls).toEqual([['late.jpg']]);
  });
});

describe('the sweep', () => {
  it('settles stale jobs from the provider’s word or gives them up, and counts what it ended', async () => {
    const words: Record<string, Ending | Error> = {
      collected: { status: 'done', result: 'from-the-provider.jpg' },
      later: new EngineError('the provider is busy', { transient: true }),
    };
    const { jobs, cancelled } = setUp({
      ask: async (row) => {
        const word = words[row.id];
        if (word instanceof Error) throw word;
        return word;
      },
      asksAgain: (error) => error instanceof EngineError && error.transient,
    });
    for (const id of ['collected', 'given-up', 'later']) await insertJob(id, 60);
    await insertJob('recent', 1);
    expect(await jobs.sweep()).toBe(2);
    expect(await statuses()).toEqual({
      collected: 'done',
      'given-up': 'failed',
      later: 'open',
      recent: 'open',
    });
    expect(await refunds()).toEqual(['probe:given-up']);
    // Only the job given up is stopped at the provider.
    expect(cancelled).toEqual(['given-up']);
    expect(await jobs.sweep()).toBe(0);
  });

  it('leaves a job with time left open, and goes on past one that cannot be settled', async () => {
    const { jobs, logger } = setUp({
      ask: async (row) => {
        if (row.id === 'broken') throw new Error('the database hiccuped');
        return undefined;
      },
      hasTime: async (row) => row.id === 'moving',
      givenUp: (row) => {
        if (row.id === 'broken') throw new Error('still hiccuping');
        return { status: 'failed' };
      },
    });
    for (const id of ['broken', 'moving', 'silent']) await insertJob(id, 60);
    expect(await jobs.sweep()).toBe(1);
    expect(await statuses()).toEqual({ broken: 'open', moving: 'open', silent: 'failed' });
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ probeId: 'broken' }),
      'a stale probe could not be settled',
    );
  });
});

describe('a failed attempt', () => {
  it('goes back to the queue when transient with attempts left, else ends the job', async () => {
    const { jobs } = setUp();
    const transient = new EngineError('429', { transient: true });
    const beforeRetry = vi.fn(async () => {});
    const end = vi.fn(async () => {});
    await expect(
      jobs.attemptFailed(transient, { operation: 'probe', isLastAttempt: false, beforeRetry, end }),
    ).rejects.toBe(transient);
    expect(beforeRetry).toHaveBeenCalledOnce();
    expect(end).not.toHaveBeenCalled();

    await jobs.attemptFailed(transient, { operation: 'probe', isLastAttempt: true, end });
    await jobs.attemptFailed(new Error('unreadable'), {
      operation: 'probe',
      isLastAttempt: false,
      final: true,
      end,
    });
    expect(end).toHaveBeenCalledTimes(2);
  });

  it('takes the way `defer` offers instead of the queue’s retry or the ending', async () => {
    const { jobs } = setUp();
    const end = vi.fn(async () => {});
    await jobs.attemptFailed(new EngineError('429', { transient: true }), {
      operation: 'probe',
      isLastAttempt: true,
      defer: async () => true,
      end,
    });
    expect(end).not.toHaveBeenCalled();
  });
});
