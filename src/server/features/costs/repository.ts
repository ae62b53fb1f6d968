import { gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { providerCosts } from '../../db/schema/index.ts';

export type CostRow = typeof providerCosts.$inferInsert;

/** Inserts the call's cost once: false when a row with its id was there already. */
export async function insertCost(db: Executor, row: CostRow): Promise<boolean> {
  const inserted = await db
    .insert(providerCosts)
    .values(row)
    .onConflictDoNothing({ target: providerCosts.id })
    .returning({ id: providerCosts.id });
  return inserted.length > 0;
}

/** Calls and dollars by kind and engine since `since`. */
export async function costTotals(db: Executor, since: Date) {
  return db
    .select({
      kind: providerCosts.kind,
      engine: providerCosts.engine,
      calls: sql<number>`count(*)::int`,
      totalUsd: sql<number>`coalesce(sum(${providerCosts.usd}), 0)::float8`,
    })
    .from(providerCosts)
    .where(gte(providerCosts.createdAt, since))
    .groupBy(providerCosts.kind, providerCosts.engine)
    .orderBy(providerCosts.kind, providerCosts.engine);
}
