import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tryOns } from '../../db/schema/index.ts';
import { rowFromJson } from '../../db/statement.ts';
import type { JobInsert } from '../../jobs/job-queue.ts';

export type TryOnRow = typeof tryOns.$inferSelect;

/**
 * A try-on accepted in one statement (decision 051, as a generation): billing's charge of the
 * relation `items` (`charge`), then, from what paid, the try-on row and its job. Placeholders:
 * tryOnId, userId, personKey, garmentKey and jobContext. Answers one row: the try-on (null when
 * nothing was paid) and the charge's columns.
 */
export function acceptTryOnSql(args: {
  charge: { ctes: SQL; columns: (user: SQL) => SQL };
  /** The job of each row of `job_source` (columns data, owner, position, context). */
  jobs: JobInsert;
  referencePrefix: string;
  engine: string;
}): SQL {
  const id = sql`${sql.placeholder('tryOnId')}::text`;
  const userId = sql`${sql.placeholder('userId')}::text`;
  return sql`with items as (
      select ${userId} as user_id, ${id} as id, ${args.referencePrefix}::text || ${id} as reference,
        0 as position
    ),
    ${args.charge.ctes},
    tryon as (
      insert into tryons (id, user_id, person_key, garment_key, engine)
      select i.id, i.user_id, ${sql.placeholder('personKey')}::text,
        ${sql.placeholder('garmentKey')}::text, ${args.engine}::text
      from charge_debit d join items i on i.user_id = d.user_id
      returning *
    ),
    job_source as (
      select jsonb_build_object('tryOnId', id) as data, user_id as owner, 0 as position,
        ${sql.placeholder('jobContext')}::jsonb as context
      from tryon
    ),
    ${args.jobs.ctes}
    select (select row_to_json(t) from tryon t) as try_on,
      ${args.jobs.evaluated} as jobs_evaluated,
      ${args.charge.columns(userId)}`;
}

/** The row `acceptTryOnSql` answers. */
export interface AcceptTryOnColumns {
  try_on: Record<string, unknown> | null;
  charge_read: Record<string, unknown> | null;
  charge_debit: Record<string, unknown> | null;
  charge_items: number;
}

/** A try-on row from its `row_to_json`. */
export function tryOnFromJson(json: Record<string, unknown>): TryOnRow {
  return rowFromJson(tryOns, json);
}

// Every query on a user's data names the user, so another user's id simply finds nothing.

/** Newest first; older than `before` (one of the user's try-ons) when given. */
export async function listTryOns(
  tx: Executor,
  userId: string,
  limit: number,
  before?: string,
): Promise<TryOnRow[]> {
  // Compared in SQL: the stored microseconds would be lost in a JavaScript Date.
  const older = before
    ? sql`(${tryOns.createdAt}, ${tryOns.id}) < (select t.created_at, t.id from tryons t where t.id = ${before} and t.user_id = ${userId})`
    : undefined;
  return tx
    .select()
    .from(tryOns)
    .where(and(eq(tryOns.userId, userId), older))
    .orderBy(desc(tryOns.createdAt), desc(tryOns.id))
    .limit(limit);
}

export async function findTryOn(tx: Executor, userId: string, id: string) {
  const [row] = await tx
    .select()
    .from(tryOns)
    .where(and(eq(tryOns.userId, userId), eq(tryOns.id, id)));
  return row;
}

/** By id alone: for the worker and the webhook, which act for the owner. */
export async function findTryOnById(tx: Executor, id: string) {
  const [row] = await tx.select().from(tryOns).where(eq(tryOns.id, id));
  return row;
}

export async function lockTryOnById(tx: Executor, id: string) {
  const [row] = await tx.select().from(tryOns).where(eq(tryOns.id, id)).for('update');
  return row;
}

export async function updateTryOn(
  tx: Executor,
  id: string,
  values: Partial<Omit<TryOnRow, 'id' | 'userId' | 'createdAt'>>,
): Promise<TryOnRow | undefined> {
  const [row] = await tx.update(tryOns).set(values).where(eq(tryOns.id, id)).returning();
  return row;
}

/** Try-ons still processing that started before `before`, whoever they belong to (the sweep). */
export async function staleTryOns(tx: Executor, before: Date): Promise<TryOnRow[]> {
  return tx
    .select()
    .from(tryOns)
    .where(and(eq(tryOns.status, 'processing'), lt(tryOns.createdAt, before)));
}
