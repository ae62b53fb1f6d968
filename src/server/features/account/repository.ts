import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { profiles, subscriptions, user } from '../../db/schema/index.ts';

/**
 * Both rows are created on first read with the specification's defaults (the column defaults).
 * Read first: after the first visit that is the only query; the insert runs once per user.
 */
export async function findOrCreateProfile(db: Executor, userId: string) {
  const read = () => db.select().from(profiles).where(eq(profiles.userId, userId));
  const [existing] = await read();
  if (existing) return existing;
  await db.insert(profiles).values({ userId }).onConflictDoNothing();
  const [created] = await read();
  if (!created) throw new Error(`profile for ${userId} vanished`);
  return created;
}

export async function findOrCreateSubscription(db: Executor, userId: string) {
  const read = () => db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const [existing] = await read();
  if (existing) return existing;
  await db.insert(subscriptions).values({ userId }).onConflictDoNothing();
  const [created] = await read();
  if (!created) throw new Error(`subscription for ${userId} vanished`);
  return created;
}

/**
 * Deletes the user row; every table that references it with `on delete cascade` (sessions,
 * accounts, profile, subscription, and each feature's own rows) goes with it.
 */
export async function deleteUser(db: Executor, userId: string): Promise<boolean> {
  const deleted = await db.delete(user).where(eq(user.id, userId)).returning({ id: user.id });
  return deleted.length > 0;
}
