import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { prepareStatement, type RunPrepared } from '../../db/statement.ts';
import { profiles, subscriptions, user } from '../../db/schema/index.ts';

/**
 * Both rows are created at sign-up (`createAccountRows`); these create them on first read for an
 * account that has none (made before that, or whose sign-up hook failed).
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

/** A new account's profile and subscription (the column defaults), in one statement. */
export async function createAccountRows(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`
    with profile as (
      insert into ${profiles} (user_id) values (${userId}) on conflict do nothing
    )
    insert into ${subscriptions} (user_id) values (${userId}) on conflict do nothing`);
}

/** What /api/me shows of both rows. */
export interface AccountRows {
  trainingInProgress: boolean;
  selectedTrainingModelId: string | null;
  active: boolean;
  tier: string;
  credits: number;
  monthlyFreeTrainingsLeft: number;
}

// Named: /api/me is read on every page, so Postgres parses and plans it once per connection and
// no query is built per request (decision 051).
const accountRowsStatement = prepareStatement(
  'account-rows',
  sql`select ${profiles.trainingInProgress} as "trainingInProgress",
        ${profiles.selectedTrainingModelId} as "selectedTrainingModelId",
        ${subscriptions.active} as "active", ${subscriptions.tier} as "tier",
        ${subscriptions.credits} as "credits",
        ${subscriptions.monthlyFreeTrainingsLeft} as "monthlyFreeTrainingsLeft"
      from ${profiles} join ${subscriptions} on ${subscriptions.userId} = ${profiles.userId}
      where ${profiles.userId} = ${sql.placeholder('userId')}`,
);

/** What /api/me shows of both rows, in one round trip; undefined when either is missing. */
export async function findAccountRows(
  runPrepared: RunPrepared,
  userId: string,
): Promise<AccountRows | undefined> {
  const [row] = await runPrepared<AccountRows>(accountRowsStatement, { userId });
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
