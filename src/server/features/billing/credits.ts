import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { defaultSubscription } from '../../../common/product/credits.ts';
import type { Database, Executor } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { rowFromJson } from '../../db/statement.ts';
import { createUnitOfWork } from '../../db/unit-of-work.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../events/event-bus.ts';
import {
  type Gate,
  type GateSubject,
  type ProFeature,
  insufficientCreditsMessage,
  requireGate,
  requireTierFor,
  tiersPassing,
} from './gates.ts';
import {
  adjust,
  createCreditLedger,
  markSubscriptionChanged,
  refund,
  spend,
  spendTraining,
} from './ledger.ts';
import { spendCtes } from './ledger-repository.ts';
import {
  type SubscriptionRow,
  findSubscription,
  findUserIdByEmail,
  lockSubscription,
} from './repository.ts';

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

/** A spend decided inside one statement of the caller's (`inStatement`, decision 051). */
export interface StatementCharge {
  gate: 'generation' | ProFeature;
  reason: 'generation' | 'bulk_generation' | 'tryon';
  /** Credits for each item. */
  amount: number;
}

/** What the caller's statement answers in the columns `inStatement(…).columns` names. */
export interface StatementChargeColumns {
  /** The subscription as read: only when nothing was paid (a paid row is in `charge_debit`). */
  charge_read: Record<string, unknown> | null;
  charge_debit: Record<string, unknown> | null;
  charge_items: number;
}

/** The `payers` of `inStatement` when one user pays: `user`, an SQL expression of their id. */
export function onePayer(user: SQL): SQL {
  return sql`select ${user} as user_id`;
}

/** `tier` read as `toTier` reads it (trimmed, any casing) in one of `tiers`. */
function tierIn(tiers: readonly string[]): SQL {
  if (tiers.length === 0) return sql`false`;
  return sql`lower(btrim(tier)) in (${sql.join(
    tiers.map((tier) => sql`${tier}::text`),
    sql`, `,
  )})`;
}

export function createCredits(deps: {
  db: Database;
  /** Publishes `subscription.updated` with the row as a committed change left it. */
  publishChanged?: (userId: string, row: SubscriptionRow) => Promise<void>;
}) {
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

    /**
     * Charges as part of one statement the caller writes and runs on its own (autocommit):
     * the gate, the conditional debit and its ledger rows in SQL, so that paid actions (their
     * rows, their jobs) are accepted in one round trip (decision 051), one user's or several
     * users' at once (decision 067). The caller's WITH lists its relation `items` (columns
     * `user_id`, `reference`, `position` 0, 1, … for each user: one per thing paid for, only
     * those the caller's own checks let through) and `payers` selects the users who pay (column
     * `user_id`, each once); then `ctes`, then what is paid for, inserted from `charge_debit`
     * (a row for each user who paid); its final SELECT lists `columns(user)` for each payer.
     *
     * After the statement: `checkTier` (a Pro feature's tier, the specification's first check)
     * and the caller's own checks, then `settle`, which throws the gate's error or
     * INSUFFICIENT_CREDITS exactly as `charge` would, or publishes the new balance (the
     * statement has committed) and answers it.
     */
    inStatement(charge: StatementCharge, args: { payers: SQL; items: string }) {
      const tiers = tiersPassing(charge.gate);
      const passes = sql`case when active then ${tierIn(tiers.active)} else ${tierIn(tiers.inactive)} end`;
      const readRow = (columns: StatementChargeColumns): GateSubject => {
        const read = columns.charge_read ?? columns.charge_debit;
        return !read || read.active === null
          ? defaultSubscription
          : {
              active: read.active as boolean,
              tier: read.tier as string,
              credits: Number(read.credits),
              monthlyFreeTrainingsLeft: Number(read.monthly_free_trainings_left),
            };
      };
      return {
        ctes: spendCtes({ ...args, passes, amount: charge.amount, reason: charge.reason }),
        /** The charge's columns for the payer `user` (an expression of the final SELECT). */
        columns: (user: SQL) =>
          // The row as read is for saying why nothing was paid: not sent (nor parsed) otherwise.
          sql`(select row_to_json(r) from charge_read r where r.user_id = ${user}
              and not exists (select 1 from charge_debit d where d.user_id = ${user})) as charge_read,
            (select row_to_json(d) from charge_debit d where d.user_id = ${user}) as charge_debit,
            (select n from charge_count c where c.user_id = ${user}) as charge_items`,

        /** TIER_REQUIRED when the row as read does not have the feature's tier. */
        checkTier(columns: StatementChargeColumns, feature: ProFeature): void {
          requireTierFor(feature, readRow(columns).tier);
        },

        /** Throws what `charge` would have, or publishes the balance paid and answers it. */
        async settle(userId: string, columns: StatementChargeColumns): Promise<ChargeResult> {
          if (columns.charge_debit) {
            const row = rowFromJson(subscriptions, columns.charge_debit);
            // Not awaited: the event bus sends events in the order they were published (this
            // one before the caller's own) and a closing bus sends what waits, so the answer
            // need not wait for the NOTIFY's round trip.
            void deps.publishChanged?.(userId, row);
            return { balance: row.credits, usedFreeTraining: false };
          }
          let subject: GateSubject = readRow(columns);
          requireGate(charge.gate, subject);
          const cost = charge.amount * columns.charge_items;
          if (cost === 0) return { balance: subject.credits, usedFreeTraining: false };
          // The row as read passes, so the update saw a newer one: say what stopped it.
          if (subject.credits >= cost) {
            subject = (await findSubscription(db, userId)) ?? defaultSubscription;
            requireGate(charge.gate, subject);
          }
          throw new AppError(
            'INSUFFICIENT_CREDITS',
            insufficientCreditsMessage(charge.reason, subject.credits),
          );
        },
      };
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
