import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { profiles, subscriptions, user } from '../../db/schema/index.ts';

/** Both rows are created on first read with the specification's defaults (the column defaults). */
export async function findOrCreateProfile(db: Executor, userId: string) {
  await db.insert(profiles).values({ userId }).onConflictDoNothing();
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  if (!row) throw new Error(`profile for ${userId} vanished`);
  return row;
}

export async function findOrCreateSubscription(db: Executor, userId: string) {
  await db.insert(subscriptions).values({ userId }).onConflictDoNothing();
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  if (!row) throw new Error(`subscription for ${userId} vanished`);
  return row;
}

/**
 * Deletes the user row; every table that references it with `on delete cascade` (sessions,
 * accounts, profile, subscription, and each feature's own rows) goes with it.
 */
export async function deleteUser(db: Executor, userId: string): Promise<boolean> {
  const deleted = await db.delete(user).where(eq(user.id, userId)).returning({ id: user.id });
  return deleted.length > 0;
}
