import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { billingEvents, checkoutSessions, subscriptions, user } from '../../db/schema/index.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type CheckoutRow = typeof checkoutSessions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Subscriptions (the row the account feature creates on first read; billing keeps it in sync)
// ---------------------------------------------------------------------------------------------

export async function ensureSubscription(tx: Executor, userId: string): Promise<void> {
  await tx.insert(subscriptions).values({ userId }).onConflictDoNothing();
}

export async function findSubscription(
  tx: Executor,
  userId: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}

/** Locks the user's row for the rest of the transaction: billing changes of one user queue up. */
export async function lockSubscription(tx: Executor, userId: string): Promise<SubscriptionRow> {
  const locked = () =>
    tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
  // Almost every user has the row already: one round trip; the first purchase makes it.
  let [row] = await locked();
  if (!row) {
    await ensureSubscription(tx, userId);
    [row] = await locked();
  }
  if (!row) throw new Error(`subscription of ${userId} vanished`);
  return row;
}

export async function updateSubscription(
  tx: Executor,
  userId: string,
  values: Partial<Omit<SubscriptionRow, 'userId' | 'credits' | 'monthlyFreeTrainingsLeft'>>,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.userId, userId));
}

/** The user a provider subscription or customer belongs to, from what we stored. */
export async function findUserIdByProviderIds(
  tx: Executor,
  subscriptionId: string,
  customerId: string | undefined,
): Promise<string | undefined> {
  const [row] = await tx
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      customerId
        ? or(
            eq(subscriptions.providerSubscriptionId, subscriptionId),
            eq(subscriptions.providerCustomerId, customerId),
          )
        : eq(subscriptions.providerSubscriptionId, subscriptionId),
    )
    .limit(1);
  return row?.userId;
}

export async function userExists(tx: Executor, userId: string): Promise<boolean> {
  const [row] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId));
  return Boolean(row);
}

export async function userEmail(tx: Executor, userId: string): Promise<string | undefined> {
  const [row] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email;
}

export async function findUserIdByEmail(tx: Executor, email: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()));
  return row?.id;
}

// ---------------------------------------------------------------------------------------------
// Checkout sessions
// ---------------------------------------------------------------------------------------------

export async function insertCheckout(
  tx: Executor,
  values: typeof checkoutSessions.$inferInsert,
): Promise<void> {
  await tx.insert(checkoutSessions).values(values);
}

export async function setProviderSessionId(
  tx: Executor,
  checkoutId: string,
  providerSessionId: string,
): Promise<void> {
  await tx
    .update(checkoutSessions)
    .set({ providerSessionId })
    .where(eq(checkoutSessions.id, checkoutId));
}

/** One of the user's checkouts, by our id or the provider's session id; another user's is not found. */
export async function findUserCheckout(
  tx: Executor,
  userId: string,
  sessionId: string,
): Promise<CheckoutRow | undefined> {
  const [row] = await tx
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.userId, userId),
        or(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.providerSessionId, sessionId)),
      ),
    );
  return row;
}

export async function findCheckoutByProviderSession(
  tx: Executor,
  providerSessionId: string,
): Promise<CheckoutRow | undefined> {
  const [row] = await tx
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.providerSessionId, providerSessionId));
  return row;
}

export async function findCheckout(
  tx: Executor,
  checkoutId: string,
): Promise<CheckoutRow | undefined> {
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, checkoutId));
  return row;
}

/** Plan checkouts of the user that may have been paid without our hearing of it yet. */
export async function unfulfilledPlanCheckouts(
  tx: Executor,
  userId: string,
  since: Date,
): Promise<CheckoutRow[]> {
  return tx
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.userId, userId),
        inArray(checkoutSessions.kind, ['plan', 'yearly']),
        inArray(checkoutSessions.status, ['open', 'complete']),
        isNull(checkoutSessions.fulfilledAt),
        gt(checkoutSessions.createdAt, since),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(5);
}

export async function markCheckout(
  tx: Executor,
  checkoutId: string,
  values: Partial<Pick<CheckoutRow, 'status' | 'completedAt' | 'fulfilledAt'>>,
): Promise<void> {
  await tx.update(checkoutSessions).set(values).where(eq(checkoutSessions.id, checkoutId));
}

// ---------------------------------------------------------------------------------------------
// Webhook events
// ---------------------------------------------------------------------------------------------

/**
 * Records a delivery. Answers whether it still needs processing: false when an earlier delivery
 * of the same event was processed to the end.
 */
export async function recordEvent(
  tx: Executor,
  event: { id: string; provider: string; type: string; objectId?: string | undefined },
): Promise<boolean> {
  const [inserted] = await tx
    .insert(billingEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  if (inserted) return true;
  const [existing] = await tx
    .update(billingEvents)
    .set({ attempts: sql`${billingEvents.attempts} + 1` })
    .where(eq(billingEvents.id, event.id))
    .returning({ processedAt: billingEvents.processedAt });
  return !existing?.processedAt;
}

export async function markEventProcessed(tx: Executor, eventId: string): Promise<void> {
  await tx
    .update(billingEvents)
    .set({ processedAt: new Date() })
    .where(eq(billingEvents.id, eventId));
}
