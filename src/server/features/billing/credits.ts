import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '../../db/client.ts';
import { createUnitOfWork } from '../../db/unit-of-work.ts';
import type { EventBus } from '../events/event-bus.ts';
import { type Gate, type ProFeature, requireGate, requireTierFor } from './gates.ts';
import {
  adjust,
  createCreditLedger,
  markSubscriptionChanged,
  refund,
  spend,
  spendTraining,
} from './ledger.ts';
import { findSubscription, findUserIdByEmail, lockSubscription } from './repository.ts';

/**
 * Billing's one door for paid actions (decision 035). Other features name a gate and what they
 * spend; the plans' rules, the subscription lock and the ledger stay behind this door.
 *
 * Every function that takes `tx` works in the caller's transaction, so a charge commits or rolls
 * back with what it pays for (a generation, a model, a try-on, its job). Run that transaction in
 * the app's unit of work (`unitOfWork.run`, decision 048) and the user's open pages hear of the
 * new balance after it commits.
 */

export type { Gate, ProFeature };

/** What a paid action spends: `amount` credits for each reference (one per thing paid for). */
export type Charge =
  | {
      gate: Exclude<Gate, 'training' | 'chooseModel'>;
      reason: 'generation' | 'bulk_generation' | 'tryon';
      amount: number;
      reference: string | readonly string[];
    }
  | {
      /** A training: a monthly free training when one is left, else its credits (50). */
      gate: 'training';
      reference: string;
      /** The user's models, counted under the subscription's lock (the plan's model limit). */
      models: () => Promise<number>;
    };

export interface ChargeResult {
  balance: number;
  usedFreeTraining: boolean;
}

export function createCredits(deps: { db: Database }) {
  const { db } = deps;

  /** Locks the user's subscription for the rest of `tx` and checks the gate under that lock. */
  async function lockAndCheck(
    tx: Executor,
    userId: string,
    gate: Gate,
    models?: () => Promise<number>,
  ) {
    const subscription = await lockSubscription(tx, userId);
    requireGate(gate, subscription, models ? await models() : 0);
    return subscription;
  }

  return {
    /**
     * The tier of a Pro feature, read before anything else (before an upload is read, say); the
     * charge checks it again under the lock.
     */
    async checkTier(userId: string, feature: ProFeature): Promise<void> {
      const subscription = await findSubscription(db, userId);
      requireTierFor(feature, subscription?.tier ?? 'none');
    },

    /** A gate without a spend (choosing the default model): checked under the lock, in `tx`. */
    async authorize(tx: Executor, userId: string, gate: 'chooseModel'): Promise<void> {
      await lockAndCheck(tx, userId, gate);
    },

    /**
     * Checks the gate and spends, in `tx`; throws the gate's error or INSUFFICIENT_CREDITS with
     * the specification's message and spends nothing. A reference already paid is not paid again.
     */
    async charge(tx: Executor, userId: string, charge: Charge): Promise<ChargeResult> {
      if (charge.gate === 'training') {
        await lockAndCheck(tx, userId, charge.gate, charge.models);
        const paid = await spendTraining(tx, userId, charge.reference);
        return { balance: paid.balance, usedFreeTraining: paid.usedFreeTraining };
      }
      const locked = await lockAndCheck(tx, userId, charge.gate);
      let balance = locked.credits;
      const references =
        typeof charge.reference === 'string' ? [charge.reference] : charge.reference;
      for (const reference of references)
        ({ balance } = await spend(tx, userId, charge.amount, charge.reason, reference));
      // Only this transaction changes the locked row: the event after commit needs no read.
      markSubscriptionChanged(tx, userId, { ...locked, credits: balance });
      return { balance, usedFreeTraining: false };
    },

    /** Gives back, once, whatever `reference` spent (credits or a free training). */
    async refund(tx: Executor, userId: string, reference: string): Promise<void> {
      await refund(tx, userId, reference);
    },
  };
}

export type Credits = ReturnType<typeof createCredits>;

/** The operator's commands (`npm run credits`), through the same ledger as the app. */
export function createOperatorCredits(deps: { db: Database; events: EventBus }) {
  const ledger = createCreditLedger({ ...deps, unitOfWork: createUnitOfWork(deps.db) });
  return {
    userIdByEmail: (email: string) => findUserIdByEmail(deps.db, email),
    /** A correction up or down (never below zero), with a note saying why. */
    adjust: (userId: string, delta: number, note: string) =>
      ledger.transaction((tx) => adjust(tx, userId, delta, note, `operator:${randomUUID()}`)),
    /** The subscription as it stands and its last `limit` ledger rows. */
    async statement(userId: string, limit: number) {
      const subscription = await findSubscription(deps.db, userId);
      return { subscription, ...(await ledger.history(userId, undefined, limit)) };
    },
  };
}
