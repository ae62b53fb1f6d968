import type { FastifyBaseLogger } from 'fastify';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Executor } from './client.ts';

/**
 * The unit of work (decision 048): one transaction, and what is to happen once it has committed
 * (events published, files deleted), never when it rolls back.
 *
 *   await unitOfWork.run(async (tx, afterCommit) => {
 *     const row = await insertSomething(tx, …);
 *     afterCommit(() => publish(row));
 *     return row;
 *   });
 *
 * `run` resolves after the callbacks have run, one at a time in the order they were registered,
 * so what they publish has gone out before the caller answers. A callback that fails is logged
 * and the rest still run: the work has committed, and `run` resolves with its result.
 *
 * Code that has only `tx` (billing's ledger, deep in a charge) gathers into a `Collection`
 * instead (`collect`): one after-commit action per key, however often it is collected, with the
 * last value, done by the handler the collection's owner gave the unit of work.
 *
 * A unit of work made on a transaction of a run (`createUnitOfWork(tx)`) runs a savepoint: what
 * it registers joins the outer run when the savepoint is released (and is dropped when it rolls
 * back), so it happens after the outer commit.
 */

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Registers work to do once the transaction has committed. */
export type AfterCommit = (callback: () => unknown) => void;

/** What a run gathers by key for one after-commit action each (see `collect`). */
export interface Collection<V> {
  readonly name: string;
  /** The type of the values; never set. */
  readonly valueType?: V;
}

export function collection<V>(name: string): Collection<V> {
  return { name };
}

type Handler = (key: string, value: unknown) => unknown;

interface Collected {
  collection: Collection<unknown>;
  values: Map<string, unknown>;
}

/** A run's after-commit work in the order it was asked for: a callback, or a collection's keys. */
type Step = { callback: () => unknown } | Collected;

interface Run {
  steps: Step[];
  /** The handlers of the unit of work the outermost run belongs to. */
  handlers: Map<Collection<unknown>, Handler>;
  open: boolean;
}

/** The run each transaction (or savepoint) begun by a unit of work belongs to. */
const runs = new WeakMap<object, Run>();

export interface UnitOfWork {
  /** Runs `work` in one transaction, then its after-commit work (see the module's comment). */
  run<T>(work: (tx: Transaction, afterCommit: AfterCommit) => Promise<T>): Promise<T>;
  /** What is done after commit with each key a run collected into `collection` (one handler). */
  handleCollected<V>(collection: Collection<V>, handler: (key: string, value: V) => unknown): void;
}

export function createUnitOfWork(
  db: Executor,
  options: { logger?: Pick<FastifyBaseLogger, 'error'> } = {},
): UnitOfWork {
  const handlers = new Map<Collection<unknown>, Handler>();

  /** After the commit: every step in order, each failure logged and passed over. */
  async function finish(run: Run): Promise<void> {
    for (const step of run.steps) {
      const calls =
        'callback' in step
          ? [step.callback]
          : [...step.values].map(
              ([key, value]) =>
                () =>
                  run.handlers.get(step.collection)!(key, value),
            );
      for (const call of calls) {
        try {
          await call();
        } catch (error) {
          // The work has committed; what failed after it is the callback's to answer for.
          options.logger?.error({ err: error }, 'work after a commit failed');
        }
      }
    }
  }

  return {
    handleCollected(collection, handler) {
      if (handlers.has(collection))
        throw new Error(`${collection.name} is handled after commit already`);
      handlers.set(collection, handler as Handler);
    },

    async run<T>(work: (tx: Transaction, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
      const outer = runs.get(db);
      if (!outer && db instanceof PgTransaction)
        throw new Error('a unit of work on a transaction needs that transaction to be a run');
      const run: Run = { steps: [], handlers: outer?.handlers ?? handlers, open: true };
      const afterCommit: AfterCommit = (callback) => {
        if (!run.open) throw new Error('afterCommit was called after its unit of work ended');
        run.steps.push({ callback });
      };
      let result: T;
      try {
        result = await db.transaction((tx) => {
          runs.set(tx, run);
          return work(tx, afterCommit);
        });
      } finally {
        run.open = false;
      }
      if (!outer) {
        await finish(run);
        return result;
      }
      // A savepoint released: its work joins the outer run, to happen after the outer commit.
      for (const step of run.steps)
        if ('callback' in step) outer.steps.push(step);
        else for (const [key, value] of step.values) collectIn(outer, step.collection, key, value);
      return result;
    },
  };
}

/**
 * Collects `value` under `key` for the after-commit handler of `collection`, in the run `tx`
 * belongs to; a key collected again keeps its place and takes the new value. A transaction
 * begun outside a unit of work (a test's, a script's) collects nothing.
 */
export function collect<V>(tx: Executor, collection: Collection<V>, key: string, value: V): void {
  const run = runs.get(tx);
  if (run) collectIn(run, collection, key, value);
}

function collectIn(run: Run, collection: Collection<unknown>, key: string, value: unknown): void {
  if (!run.open) throw new Error(`${collection.name} was collected after its unit of work ended`);
  if (!run.handlers.has(collection))
    throw new Error(`nothing handles ${collection.name} after commit`);
  let collected = run.steps.find(
    (step): step is Collected => 'collection' in step && step.collection === collection,
  );
  if (!collected) run.steps.push((collected = { collection, values: new Map() }));
  collected.values.set(key, value);
}
