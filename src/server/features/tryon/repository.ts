import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tryOns } from '../../db/schema/index.ts';

export type TryOnRow = typeof tryOns.$inferSelect;

// Every query on a user's data names the user, so another user's id simply finds nothing.

export async function insertTryOn(
  tx: Executor,
  row: typeof tryOns.$inferInsert,
): Promise<TryOnRow> {
  const [inserted] = await tx.insert(tryOns).values(row).returning();
  return inserted!;
}

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
