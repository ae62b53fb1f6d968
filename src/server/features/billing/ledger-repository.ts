import { type SQL, and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { creditLedger, subscriptions } from '../../db/schema/index.ts';

export type LedgerRow = typeof creditLedger.$inferSelect;

export interface BalanceChange {
  userId: string;
  delta: number;
  freeTrainingsDelta: number;
  reason: string;
  reference: string;
  note?: string | null;
}

export type ApplyResult =
  | { outcome: 'applied'; entry: LedgerRow; balance: number; freeTrainingsLeft: number }
  | { outcome: 'duplicate'; entry: LedgerRow }
  | { outcome: 'refused'; balance: number; freeTrainingsLeft: number };

/**
 * Applies one change to a user's balance together with its ledger row, inside the caller's
 * transaction, in one statement:
 *
 * - The balance moves with a conditional update (`credits + delta >= 0`), which Postgres
 *   re-checks on the latest row version under the row lock: concurrent spends can never take
 *   the balance below zero.
 * - The ledger row is inserted from the updated balance (`balance_after`). (reason, reference)
 *   is unique: when the same change was already made (a retry, a duplicate webhook, even a
 *   concurrent one, which waits for the row lock and then sees the committed row), the insert
 *   does nothing and the balance change is undone at once, still under the same row lock.
 * - Nothing is left half done, so the caller's transaction stays usable after a refusal.
 */
export async function applyBalanceChange(
  tx: Executor,
  change: BalanceChange,
): Promise<ApplyResult> {
  const result = await tx.execute(sql`
    with change as (
      update ${subscriptions}
      set credits = credits + ${change.delta},
          monthly_free_trainings_left = monthly_free_trainings_left + ${change.freeTrainingsDelta},
          updated_at = now()
      where user_id = ${change.userId}
        and credits + ${change.delta} >= 0
        and monthly_free_trainings_left + ${change.freeTrainingsDelta} >= 0
        -- a change made before needs no row lock at all (a concurrent one is caught below)
        and not exists (
          select 1 from ${creditLedger}
          where reason = ${change.reason} and reference = ${change.reference}
        )
      returning credits, monthly_free_trainings_left
    ), entry as (
      insert into ${creditLedger}
        (user_id, delta, free_trainings_delta, balance_after, reason, reference, note)
      select ${change.userId}, ${change.delta}, ${change.freeTrainingsDelta}, credits,
        ${change.reason}, ${change.reference}, ${change.note ?? null}
      from change
      on conflict (reason, reference) do nothing
      returning id, created_at
    )
    select change.credits, change.monthly_free_trainings_left as free_left,
      entry.id, entry.created_at
    from change left join entry on true`);
  const [row] = rowsOf<{
    credits: number;
    free_left: number;
    id: number | string | null;
    created_at: Date | string | null;
  }>(result);

  if (row && row.id !== null) {
    return {
      outcome: 'applied',
      balance: row.credits,
      freeTrainingsLeft: row.free_left,
      entry: {
        id: Number(row.id),
        userId: change.userId,
        delta: change.delta,
        freeTrainingsDelta: change.freeTrainingsDelta,
        balanceAfter: row.credits,
        reason: change.reason,
        reference: change.reference,
        note: change.note ?? null,
        createdAt: new Date(row.created_at!),
      },
    };
  }
  if (row) {
    // Already applied earlier: give the balance change back (we still hold the row lock).
    await tx
      .update(subscriptions)
      .set({
        credits: sql`${subscriptions.credits} - ${change.delta}`,
        monthlyFreeTrainingsLeft: sql`${subscriptions.monthlyFreeTrainingsLeft} - ${change.freeTrainingsDelta}`,
      })
      .where(eq(subscriptions.userId, change.userId));
  }
  const existing = await findEntry(tx, change.reason, change.reference);
  if (existing) {
    if (existing.userId !== change.userId)
      throw new Error(
        `ledger reference ${change.reason}/${change.reference} belongs to another user`,
      );
    return { outcome: 'duplicate', entry: existing };
  }
  if (row) throw new Error(`ledger entry ${change.reason}/${change.reference} vanished`);
  return { outcome: 'refused', ...(await balanceOf(tx, change.userId)) };
}

export async function findEntry(
  tx: Executor,
  reason: string,
  reference: string,
): Promise<LedgerRow | undefined> {
  const [row] = await tx
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.reason, reason), eq(creditLedger.reference, reference)));
  return row;
}

/** Every entry of the user under this reference (the spends a refund gives back). */
export async function entriesForReference(
  tx: Executor,
  userId: string,
  reference: string,
): Promise<LedgerRow[]> {
  return tx
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reference, reference)));
}

export async function balanceOf(
  tx: Executor,
  userId: string,
): Promise<{ balance: number; freeTrainingsLeft: number }> {
  const [row] = await tx
    .select({
      balance: subscriptions.credits,
      freeTrainingsLeft: subscriptions.monthlyFreeTrainingsLeft,
    })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return row ?? { balance: 0, freeTrainingsLeft: 0 };
}

/** The user's history, newest first, `limit` entries older than `beforeId`. */
export async function listEntries(
  tx: Executor,
  userId: string,
  beforeId: number | undefined,
  limit: number,
): Promise<LedgerRow[]> {
  return tx
    .select()
    .from(creditLedger)
    .where(
      beforeId === undefined
        ? eq(creditLedger.userId, userId)
        : and(eq(creditLedger.userId, userId), lt(creditLedger.id, beforeId)),
    )
    .orderBy(desc(creditLedger.id))
    .limit(limit);
}

/** Sum of a user's ledger (what the balance must equal: the books balance). */
export async function ledgerSum(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row?.total ?? 0);
}

/** node-postgres and PGlite both answer `execute` with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Spends as CTEs of a statement the caller writes (decision 051): for each payer, `amount`
 * credits for each of their rows of the caller's relation `items` (columns `user_id`,
 * `reference` and `position`, 0, 1, … for each payer), all or none, only when the payer's row
 * passes the gate `passes` (an SQL condition on `active` and `tier`). `payers` selects the
 * users who pay in the statement (column `user_id`), each once; one without items pays nothing.
 * Adds to the caller's WITH:
 *
 * - `charge_read`: each payer's subscription as the statement found it (nulls when there is none);
 * - `charge_count`: each payer's number of items;
 * - `charge_debit`: the subscriptions after the debit (a row for each payer who paid). The
 *   conditional update checks the balance and the gate on the newest row version under its row
 *   lock, as `applyBalanceChange` does: concurrent spends never take it below zero;
 * - `charge_ledger`: one ledger row per item paid, `balance_after` counted down in the items'
 *   order as one spend after another would leave it. The references are new (a new row's id), so
 *   a conflict is an error that undoes the whole statement, never a debit without its row.
 */
export function spendCtes(args: {
  payers: SQL;
  items: string;
  passes: SQL;
  amount: number;
  reason: string;
}): SQL {
  const { payers, passes, amount, reason } = args;
  if (!/^[a-z_][a-z0-9_]*$/.test(args.items)) throw new Error(`not a relation: ${args.items}`);
  const items = sql.raw(args.items);
  // `charge_read` reads each payer's row by its key in a lateral subquery with a limit: as a join,
  // the planner read every balance once the table held a few thousand (decision 067).
  return sql`charge_payers as (${payers}),
    charge_read as (
      select u.user_id, s.active, s.tier, s.credits, s.monthly_free_trainings_left
      from charge_payers u
      left join lateral (select * from subscriptions s where s.user_id = u.user_id limit 1) s on true
    ),
    charge_count as (
      select u.user_id, (select count(*)::int from ${items} i where i.user_id = u.user_id) as n
      from charge_payers u
    ),
    charge_debit as (
      update subscriptions
      set credits = credits - ${amount}::int * c.n, updated_at = now()
      from charge_count c
      where subscriptions.user_id = c.user_id
        and c.n > 0
        and (${passes})
        and subscriptions.credits >= ${amount}::int * c.n
      returning subscriptions.*
    ),
    charge_ledger as (
      insert into credit_ledger
        (user_id, delta, free_trainings_delta, balance_after, reason, reference)
      select d.user_id, -${amount}::int, 0, d.credits + ${amount}::int * (c.n - i.position - 1),
        ${reason}::text, i.reference
      from charge_debit d
      join charge_count c on c.user_id = d.user_id
      join ${items} i on i.user_id = d.user_id
      returning id
    )`;
}
