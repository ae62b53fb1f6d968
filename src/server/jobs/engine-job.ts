import type { FastifyBaseLogger } from 'fastify';
import { EngineError } from '../adapters/engine/training-engine.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Database, Executor } from '../db/client.ts';
import type { AfterCommit, Transaction, UnitOfWork } from '../db/unit-of-work.ts';
import { metrics } from '../observability/metrics.ts';

/**
 * The lifecycle of a paid engine job (decision 049): a generation, a try-on, a training. Each is
 * a row that stays open while the engine works and ends exactly once, whoever ends it (the job,
 * a webhook, the sweep): under the row's lock, refunded when its ending refunds, published after
 * the commit. What each feature does differently (its queries, its columns, its refund
 * reference, its publish, its extra work in the ending's transaction, how it asks its provider)
 * it hands over as an `EngineJobKind`.
 */

/** What became of an open job: this call ended it, it had ended (or gone) already, or it is open. */
export type Settlement = 'ended' | 'already ended' | 'open';

interface EngineJobRow {
  id: string;
  userId: string;
}

/** How a job without news is settled from its provider's word (see `reconcile`). */
export interface Reconciliation<Row, Ending, Word> {
  /** The provider's word on the job; undefined when it has none to give (no job there, or running). */
  ask(row: Row): Promise<Word | undefined>;
  /** Ends the job as the word says (or, with news that keeps it open, notes that). */
  take(row: Row, word: Word): Promise<Settlement>;
  /** An error asking or taking that the next look is to retry rather than give the job up for. */
  asksAgain?(error: unknown): boolean;
  /** Whether a job still open after the provider's word has time left (recent news): left open. */
  hasTime?(row: Row): Promise<boolean>;
  /** The ending of a job given up. */
  givenUp(row: Row): Ending;
}

export interface EngineJobKind<Row extends EngineJobRow, Ending, Word> {
  /** In logs: the job's name ("a stale generation …") and the field of its id. */
  logAs: { name: string; idField: string };
  /** The engine's name, for the engine-error counter. */
  engine: string;
  lock(tx: Executor, id: string): Promise<Row | undefined>;
  /** Still waiting for its ending. */
  isOpen(row: Row): boolean;
  /** Writes the ending into the locked row; answers the row as ended. */
  write(tx: Executor, row: Row, ending: Ending): Promise<Row>;
  refunds(ending: Ending): boolean;
  /** The reference the job's credits were spent under (its refund's). */
  refundReference(id: string): string;
  /** Tells the owner, after the commit (registered before `alongside`'s work). */
  publish(row: Row): Promise<unknown>;
  /** The ending's further work in its transaction (a bulk job's counter, an email, files to delete). */
  alongside?(tx: Transaction, ended: Row, ending: Ending, afterCommit: AfterCommit): Promise<void>;
  /** Open jobs without news since `before` (the sweep's). */
  stale(db: Database, before: Date): Promise<Row[]>;
  staleAfterMinutes: number;
  /** Stops a job given up at its provider; best effort, never throws. */
  cancel?(row: Row): Promise<void>;
  reconciliation: Reconciliation<Row, Ending, Word>;
}

export interface EngineJobDeps {
  db: Database;
  unitOfWork: UnitOfWork;
  storage: Pick<Storage, 'delete'>;
  /** Billing's refund (`credits.refund`): gives back once what the reference spent. */
  credits: { refund(tx: Executor, userId: string, reference: string): Promise<void> };
  logger: FastifyBaseLogger;
}

/** Files an ending brings with it. */
export interface EndingFiles {
  /** Stored by this ending: the row's when it wins, deleted when another ending won. */
  written?: string[];
  /** The row's files this ending replaces: deleted once it has committed. */
  superseded?: string[];
}

/** What a failed attempt of a job does next (see `attemptFailed`). */
export interface FailedAttempt {
  /** The engine-error counter's operation label. */
  operation: string;
  isLastAttempt: boolean;
  /** Known to be final whatever the error says (nothing a retry could change). */
  final?: boolean;
  /** Another way to try again than the queue's retry; answers whether it took it. */
  defer?(): Promise<boolean>;
  /** Puts the row back for the retry before the error goes back to the queue. */
  beforeRetry?(): Promise<unknown>;
  /** Ends the job when no attempt is left or the failure is final. */
  end(): Promise<unknown>;
}

/** Counts an engine error as transient (worth a retry: anything but a final `EngineError`) or final. */
export function countEngineError(
  engine: string,
  operation: string,
  error: unknown,
  final = false,
): 'transient' | 'final' {
  const kind = final || (error instanceof EngineError && !error.transient) ? 'final' : 'transient';
  metrics.engineErrors.inc({ engine, operation, kind });
  return kind;
}

export function createEngineJobs<Row extends EngineJobRow, Ending, Word>(
  deps: EngineJobDeps,
  kind: EngineJobKind<Row, Ending, Word>,
) {
  const { db, unitOfWork, storage, logger } = deps;

  /** Runs `work` under the row's lock while the job is open; undefined when it is not (or gone). */
  async function whileOpen<T>(
    id: string,
    work: (tx: Transaction, row: Row, afterCommit: AfterCommit) => Promise<T>,
  ): Promise<T | undefined> {
    return unitOfWork.run(async (tx, afterCommit) => {
      const row = await kind.lock(tx, id);
      if (!row || !kind.isOpen(row)) return undefined;
      return work(tx, row, afterCommit);
    });
  }

  /**
   * Ends the job once: later endings (a webhook's replay, a poll, the sweep) change nothing and
   * delete what they wrote. Answers the ended row, or undefined when it had ended or is gone.
   */
  async function end(id: string, ending: Ending, files: EndingFiles = {}) {
    const ended = await whileOpen(id, async (tx, row, afterCommit) => {
      const updated = await kind.write(tx, row, ending);
      if (kind.refunds(ending))
        await deps.credits.refund(tx, row.userId, kind.refundReference(row.id));
      afterCommit(() => kind.publish(updated));
      await kind.alongside?.(tx, updated, ending, afterCommit);
      if (files.superseded?.length) afterCommit(() => deleteFiles(files.superseded!));
      return updated;
    });
    if (!ended && files.written) await deleteFiles(files.written);
    return ended;
  }

  async function deleteFiles(keys: string[]) {
    for (const key of keys) await storage.delete(key).catch(() => {});
  }

  /**
   * Ends a job nobody will collect, then stops it at the provider (in that order: the provider's
   * news of the cancel finds it ended with our reason, and a provider that cannot be told does
   * not hold up the refund).
   */
  async function giveUp(id: string, ending: Ending) {
    const ended = await end(id, ending);
    if (ended) await kind.cancel?.(ended);
    return ended;
  }

  /**
   * A job without news: its provider's word, when there is one, settles it; else (or when the
   * provider could not be asked) it is given up, unless it still has time or the error is one to
   * ask again about.
   */
  async function reconcile(row: Row): Promise<Settlement> {
    if (!kind.isOpen(row)) return 'already ended';
    const steps = kind.reconciliation;
    try {
      const word = await steps.ask(row);
      if (word !== undefined) {
        const settled = await steps.take(row, word);
        if (settled !== 'open') return settled;
      }
    } catch (error) {
      logger.warn(
        { err: error, [kind.logAs.idField]: row.id },
        `the engine could not say how a ${kind.logAs.name} went`,
      );
      if (steps.asksAgain?.(error)) return 'open';
    }
    if (await steps.hasTime?.(row)) return 'open';
    return (await giveUp(row.id, steps.givenUp(row))) ? 'ended' : 'already ended';
  }

  return {
    whileOpen,
    end,
    giveUp,
    reconcile,

    /**
     * A failed attempt: counted; a transient failure with attempts left goes back to the queue
     * (thrown again), unless `defer` took another way; otherwise the job ends (`end`).
     */
    async attemptFailed(error: unknown, attempt: FailedAttempt): Promise<void> {
      const errorKind = countEngineError(kind.engine, attempt.operation, error, attempt.final);
      if (await attempt.defer?.()) return;
      if (errorKind === 'transient' && !attempt.isLastAttempt) {
        await attempt.beforeRetry?.();
        throw error;
      }
      await attempt.end();
    },

    /** Reconciles every job without news for `staleAfterMinutes`; answers how many it ended. */
    async sweep(): Promise<number> {
      const before = new Date(Date.now() - kind.staleAfterMinutes * 60_000);
      let ended = 0;
      for (const row of await kind.stale(db, before)) {
        try {
          if ((await reconcile(row)) === 'ended') ended += 1;
        } catch (error) {
          // One job that cannot be settled now does not hold up the others; the next sweep retries.
          logger.error(
            { err: error, [kind.logAs.idField]: row.id },
            `a stale ${kind.logAs.name} could not be settled`,
          );
        }
      }
      if (ended > 0) logger.warn({ ended }, `stale ${kind.logAs.name}s settled`);
      return ended;
    },
  };
}
