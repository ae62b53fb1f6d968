import type { FastifyBaseLogger } from 'fastify';
import { subscriptionUpdatedEvent } from '../../../common/api/billing.ts';
import { costs } from '../../../common/product/credits.ts';
import type { Database, Executor } from '../../db/client.ts';
import { collect, collection, type UnitOfWork } from '../../db/unit-of-work.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../events/event-bus.ts';
import { insufficientCreditsMessage } from './gates.ts';
import {
  type LedgerRow,
  applyBalanceChange,
  balanceOf,
  entriesForReference,
  listEntries,
} from './ledger-repository.ts';
import { type SubscriptionRow, ensureSubscription, findSubscription } from './repository.ts';
import { toBillingSubscription } from './subscription-view.ts';

/**
 * The credit ledger: every change of a balance is one ledger row written in the same
 * transaction as the balance, and (reason, reference) makes each change happen at most once.
 *
 * The functions take the caller's transaction, so a spend commits or rolls back together with
 * what it pays for (a generation row, a model, a job). Run that transaction in the unit of work
 * the ledger was made with (`unitOfWork.run`, or `ledger.transaction`) and a
 * `subscription.updated` event goes to the user after commit.
 *
 * Reasons in use: spends `generation`, `bulk_generation`, `tryon`, `training`; grants
 * `plan_credits`, `plan_upgrade`, `yearly_monthly_grant`, `credit_pack`; `refund`; `adjustment`
 * (operator); `account_deleted`. References name what the change is about, e.g. an invoice id,
 * `generation:{id}`, `model:{id}`.
 */

export interface LedgerResult {
  /** The ledger row: this change's, or for a duplicate the earlier one (its `balanceAfter` is the earlier result). */
  entry: LedgerRow;
  /** True when the same (reason, reference) had already been applied: nothing changed now. */
  duplicate: boolean;
  /** The balance now. */
  balance: number;
  freeTrainingsLeft: number;
}

export const refundReason = 'refund';

// The users whose balance changed in a run of the unit of work, each published once after commit;
// with the subscription as it stands at the end of the transaction when the change knew it.
const changedSubscriptions = collection<SubscriptionRow | undefined>('subscription.updated');

/**
 * Marks the user's subscription as changed in this transaction (published after commit). `row`,
 * when given, is the whole row as the transaction leaves it, so the event needs no read after
 * commit; a later change without one clears it. A transaction begun outside the unit of work
 * (a test's) publishes nothing.
 */
export function markSubscriptionChanged(tx: Executor, userId: string, row?: SubscriptionRow): void {
  collect(tx, changedSubscriptions, userId, row);
}

function assertAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new Error(`a credit amount must be a positive integer, got ${amount}`);
}

async function duplicateResult(tx: Executor, entry: LedgerRow): Promise<LedgerResult> {
  const now = await balanceOf(tx, entry.userId);
  return { entry, duplicate: true, balance: now.balance, freeTrainingsLeft: now.freeTrainingsLeft };
}

/**
 * Spends `amount` credits, or throws INSUFFICIENT_CREDITS (with the message for `reason`) and
 * changes nothing. Spending the same (reason, reference) again is a no-op.
 */
export async function spend(
  tx: Executor,
  userId: string,
  amount: number,
  reason: string,
  reference: string,
): Promise<LedgerResult> {
  assertAmount(amount);
  const result = await applyBalanceChange(tx, {
    userId,
    delta: -amount,
    freeTrainingsDelta: 0,
    reason,
    reference,
  });
  if (result.outcome === 'duplicate') return duplicateResult(tx, result.entry);
  if (result.outcome === 'refused')
    throw new AppError('INSUFFICIENT_CREDITS', insufficientCreditsMessage(reason, result.balance));
  markSubscriptionChanged(tx, userId);
  return { entry: result.entry, duplicate: false, ...pick(result) };
}

/**
 * Adds `amount` credits (and optionally changes the free trainings, e.g. a renewal's reset).
 * Granting the same (reason, reference) again is a no-op returning the earlier entry.
 */
export async function grant(
  tx: Executor,
  userId: string,
  amount: number,
  reason: string,
  reference: string,
  options: { note?: string; freeTrainingsDelta?: number } = {},
): Promise<LedgerResult> {
  if (!Number.isInteger(amount) || amount < 0)
    throw new Error(`a grant must be a non-negative integer, got ${amount}`);
  await ensureSubscription(tx, userId);
  const result = await applyBalanceChange(tx, {
    userId,
    delta: amount,
    freeTrainingsDelta: options.freeTrainingsDelta ?? 0,
    reason,
    reference,
    note: options.note ?? null,
  });
  if (result.outcome === 'duplicate') return duplicateResult(tx, result.entry);
  if (result.outcome === 'refused') throw new Error(`grant ${reason}/${reference} was refused`);
  markSubscriptionChanged(tx, userId);
  return { entry: result.entry, duplicate: false, ...pick(result) };
}

/**
 * Gives back what `reference` spent (credits and free trainings), once. Answers undefined when
 * nothing was spent under that reference; a second refund returns the first (duplicate).
 */
export async function refund(
  tx: Executor,
  userId: string,
  reference: string,
): Promise<LedgerResult | undefined> {
  const entries = await entriesForReference(tx, userId, reference);
  const spent = entries.filter((entry) => entry.reason !== refundReason);
  const credits = -spent.reduce((sum, entry) => sum + Math.min(entry.delta, 0), 0);
  const freeTrainings = -spent.reduce(
    (sum, entry) => sum + Math.min(entry.freeTrainingsDelta, 0),
    0,
  );
  if (credits === 0 && freeTrainings === 0) return undefined;
  const result = await applyBalanceChange(tx, {
    userId,
    delta: credits,
    freeTrainingsDelta: freeTrainings,
    reason: refundReason,
    reference,
  });
  if (result.outcome === 'duplicate') return duplicateResult(tx, result.entry);
  if (result.outcome === 'refused') throw new Error(`refund of ${reference} was refused`);
  markSubscriptionChanged(tx, userId);
  return { entry: result.entry, duplicate: false, ...pick(result) };
}

/** An operator's correction, up or down (never below zero), with a note saying why. */
export async function adjust(
  tx: Executor,
  userId: string,
  delta: number,
  note: string,
  reference: string,
): Promise<LedgerResult> {
  if (!Number.isInteger(delta) || delta === 0)
    throw new Error(`an adjustment must be a non-zero integer, got ${delta}`);
  await ensureSubscription(tx, userId);
  const result = await applyBalanceChange(tx, {
    userId,
    delta,
    freeTrainingsDelta: 0,
    reason: 'adjustment',
    reference,
    note,
  });
  if (result.outcome === 'duplicate') return duplicateResult(tx, result.entry);
  if (result.outcome === 'refused')
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `The balance is ${result.balance} credits; it cannot go below zero.`,
    );
  markSubscriptionChanged(tx, userId);
  return { entry: result.entry, duplicate: false, ...pick(result) };
}

/**
 * Pays for a training: a monthly free training when one is left, else the training's credits
 * (50). Throws INSUFFICIENT_CREDITS with the training message when neither is there. The same
 * reference (one per model) is paid once; `refund(tx, userId, reference)` gives back whichever
 * was used.
 */
export async function spendTraining(
  tx: Executor,
  userId: string,
  reference: string,
): Promise<LedgerResult & { usedFreeTraining: boolean }> {
  const free = await applyBalanceChange(tx, {
    userId,
    delta: 0,
    freeTrainingsDelta: -1,
    reason: 'training',
    reference,
  });
  if (free.outcome === 'duplicate') {
    const earlier = await duplicateResult(tx, free.entry);
    return { ...earlier, usedFreeTraining: free.entry.freeTrainingsDelta < 0 };
  }
  if (free.outcome === 'applied') {
    markSubscriptionChanged(tx, userId);
    return { entry: free.entry, duplicate: false, ...pick(free), usedFreeTraining: true };
  }
  const paid = await spend(tx, userId, costs.trainingCredits, 'training', reference);
  return { ...paid, usedFreeTraining: false };
}

function pick(result: { balance: number; freeTrainingsLeft: number }) {
  return { balance: result.balance, freeTrainingsLeft: result.freeTrainingsLeft };
}

/**
 * The ledger with its side effects: the unit of work's runs publish `subscription.updated` after
 * they commit, and the user's history.
 */
export function createCreditLedger(deps: {
  db: Database;
  events: EventBus;
  unitOfWork: UnitOfWork;
  logger?: FastifyBaseLogger;
}) {
  const { db, events, unitOfWork, logger } = deps;

  async function publish(userId: string, known?: SubscriptionRow): Promise<void> {
    try {
      const row = known ?? (await findSubscription(db, userId));
      if (!row) return;
      await events.publish(userId, {
        type: subscriptionUpdatedEvent,
        data: toBillingSubscription(row),
      });
    } catch (error) {
      // The change is committed; a lost event only delays the page until its next refetch.
      logger?.warn({ err: error, userId }, 'subscription.updated could not be published');
    }
  }

  unitOfWork.handleCollected(changedSubscriptions, (userId, row) => publish(userId, row));

  return {
    /**
     * The unit of work's `run`: `work` in one transaction; after it commits, every user whose
     * balance or subscription changed in it (through this module's functions or
     * `markSubscriptionChanged`) gets a `subscription.updated` event.
     */
    transaction: unitOfWork.run,
    publish: (userId: string) => publish(userId),
    /** `subscription.updated` with the row a committed change left (no read). */
    publishChanged: (userId: string, row: SubscriptionRow) => publish(userId, row),
    async history(userId: string, beforeId: number | undefined, limit: number) {
      const rows = await listEntries(db, userId, beforeId, limit + 1);
      return { entries: rows.slice(0, limit), hasMore: rows.length > limit };
    },
  };
}

export type CreditLedger = ReturnType<typeof createCreditLedger>;
