import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestDatabase,
  dropTestDatabase,
  usesPostgres,
} from '../../../tests/helpers/test-app.ts';
import { type DatabaseHandle, type Executor, openDatabase } from './client.ts';
import { collect, collection, createUnitOfWork } from './unit-of-work.ts';

let url: string | undefined;
let handle: DatabaseHandle;

beforeAll(async () => {
  url = usesPostgres ? await createTestDatabase() : undefined;
  handle = await openDatabase({ url, poolSize: 2, embeddedDir: 'memory://' });
  await handle.db.execute(sql`create table probe (name text primary key)`);
});

afterAll(async () => {
  await handle?.close();
  if (url) await dropTestDatabase(url);
});

const insert = (tx: Executor, name: string) =>
  tx.execute(sql`insert into probe (name) values (${name})`);

/** Whether the row is there for a reader outside the transaction. */
async function committed(name: string): Promise<boolean> {
  const result = await handle.db.execute(sql`select 1 from probe where name = ${name}`);
  return (result as unknown as { rows: unknown[] }).rows.length === 1;
}

function logger() {
  return { error: vi.fn() };
}

describe('the unit of work', () => {
  it('runs the callbacks after the commit, in order, before it resolves', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const seen: string[] = [];
    const result = await unitOfWork.run(async (tx, afterCommit) => {
      await insert(tx, 'ordered');
      afterCommit(async () => seen.push(`first: ${await committed('ordered')}`));
      afterCommit(() => seen.push('second'));
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['first: true', 'second']);
  });

  it('runs none of them when the transaction rolls back, and rejects with its error', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const callback = vi.fn();
    const failure = new Error('refused');
    await expect(
      unitOfWork.run(async (tx, afterCommit) => {
        await insert(tx, 'rolled back');
        afterCommit(callback);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(callback).not.toHaveBeenCalled();
    expect(await committed('rolled back')).toBe(false);
  });

  it('logs a failing callback, runs the next one and resolves with the committed result', async () => {
    const log = logger();
    const unitOfWork = createUnitOfWork(handle.db, { logger: log });
    const next = vi.fn();
    const result = await unitOfWork.run(async (tx, afterCommit) => {
      await insert(tx, 'committed anyway');
      afterCommit(() => {
        throw new Error('the bus is down');
      });
      afterCommit(async () => Promise.reject(new Error('so is storage')));
      afterCommit(next);
      return 42;
    });
    expect(result).toBe(42);
    expect(next).toHaveBeenCalledOnce();
    expect(log.error).toHaveBeenCalledTimes(2);
    expect(await committed('committed anyway')).toBe(true);
  });

  it('refuses a callback registered after the run ended', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    let late: ((callback: () => void) => void) | undefined;
    await unitOfWork.run(async (_tx, afterCommit) => void (late = afterCommit));
    expect(() => late!(() => {})).toThrow(/after its unit of work ended/);
  });

  it('runs a savepoint’s callbacks after the outer commit, and drops a rolled-back one’s', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const seen: string[] = [];
    await unitOfWork.run(async (tx, afterCommit) => {
      afterCommit(() => seen.push('outer, before'));
      await createUnitOfWork(tx).run(async (savepoint, inner) => {
        await insert(savepoint, 'kept savepoint');
        inner(async () => seen.push(`released savepoint: ${await committed('kept savepoint')}`));
      });
      await createUnitOfWork(tx)
        .run(async (savepoint, inner) => {
          await insert(savepoint, 'dropped savepoint');
          inner(() => seen.push('rolled-back savepoint'));
          throw new Error('undo this part only');
        })
        .catch(() => {});
      // Released, but the outer transaction has not committed yet.
      expect(seen).toEqual([]);
      afterCommit(() => seen.push('outer, after'));
    });
    expect(seen).toEqual(['outer, before', 'released savepoint: true', 'outer, after']);
    expect(await committed('dropped savepoint')).toBe(false);
  });

  it('runs nothing of a savepoint when the outer transaction rolls back', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const callback = vi.fn();
    await expect(
      unitOfWork.run(async (tx) => {
        await createUnitOfWork(tx).run(async (_savepoint, inner) => inner(callback));
        throw new Error('all of it');
      }),
    ).rejects.toThrow('all of it');
    expect(callback).not.toHaveBeenCalled();
  });

  it('refuses a unit of work on a transaction that is not a run', async () => {
    await handle.db.transaction(async (tx) => {
      await expect(createUnitOfWork(tx).run(async () => {})).rejects.toThrow(/needs/);
    });
  });
});

describe('a collection', () => {
  const changed = collection<number>('changed balances');

  it('is handled once per key after the commit, with the last value, in the place first collected', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const seen: string[] = [];
    unitOfWork.handleCollected(changed, (key, value) => seen.push(`${key}=${value}`));
    await unitOfWork.run(async (tx, afterCommit) => {
      afterCommit(() => seen.push('before'));
      collect(tx, changed, 'ann', 1);
      collect(tx, changed, 'bob', 5);
      afterCommit(() => seen.push('after'));
      collect(tx, changed, 'ann', 2);
      await createUnitOfWork(tx).run(async (savepoint) => collect(savepoint, changed, 'cy', 7));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['before', 'ann=2', 'bob=5', 'cy=7', 'after']);
  });

  it('collects nothing outside a unit of work, and nothing on rollback', async () => {
    const unitOfWork = createUnitOfWork(handle.db);
    const handler = vi.fn();
    unitOfWork.handleCollected(changed, handler);
    await handle.db.transaction(async (tx) => collect(tx, changed, 'ann', 1));
    await expect(
      unitOfWork.run(async (tx) => {
        collect(tx, changed, 'bob', 1);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(handler).not.toHaveBeenCalled();
  });

  it('must have a handler in the unit of work it is collected in', async () => {
    await expect(
      createUnitOfWork(handle.db).run(async (tx) => collect(tx, changed, 'ann', 1)),
    ).rejects.toThrow(/nothing handles changed balances/);
  });
});
