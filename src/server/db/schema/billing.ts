import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

// The billing tables keep `user_id` without a foreign key on purpose: bookkeeping law requires
// payment and credit records to outlive a deleted account, so they must not cascade with it.
// The user row, photos and everything personal still go; these rows keep only the opaque id.

/**
 * Every change of a user's credits (and monthly free trainings), append-only. The balance in
 * `subscriptions.credits` changes only in the same transaction as its row here, and
 * (reason, reference) is unique, so a grant, spend or refund happens at most once.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id').notNull(),
    delta: integer('delta').notNull(),
    freeTrainingsDelta: integer('free_trainings_delta').notNull().default(0),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    reference: text('reference').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('credit_ledger_reason_reference_unique').on(table.reason, table.reference),
    index('credit_ledger_user_id_idx').on(table.userId, table.id),
    index('credit_ledger_reference_idx').on(table.reference),
  ],
);

/**
 * A checkout we started: what is bought is decided here (from product/plans.ts and product/credit-packs.ts), never by the browser.
 * With BILLING=local this row is the whole checkout; with Stripe it points at Stripe's session.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    provider: text('provider').notNull(),
    /** plan | yearly | pack */
    kind: text('kind').notNull(),
    /** Our price id (plan, yearly) or pack id. */
    productId: text('product_id').notNull(),
    /** Credits it grants: a pack's credits or the plan's monthly credits. */
    credits: integer('credits').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    providerSessionId: text('provider_session_id').unique(),
    /** open | complete | expired | cancelled */
    status: text('status').notNull().default('open'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
  },
  (table) => [index('checkout_sessions_user_id_idx').on(table.userId, table.createdAt)],
);

/** Provider webhook events by their id: each is processed once, however often it is delivered. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  objectId: text('object_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(1),
});

/**
 * The built-in test-mode provider's own subscriptions (BILLING=local): what Stripe would hold.
 * `clock_at` is the subscription's simulated "now", moved forward by the test clock.
 */
export const localBillingSubscriptions = pgTable(
  'local_billing_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    customerId: text('customer_id').notNull(),
    priceId: text('price_id').notNull(),
    status: text('status').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    latestInvoiceId: text('latest_invoice_id'),
    clockAt: timestamp('clock_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [index('local_billing_subscriptions_customer_id_idx').on(table.customerId)],
);

/** The test-mode provider's invoices: one per period, paid at once (there is no card to fail). */
export const localBillingInvoices = pgTable(
  'local_billing_invoices',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    priceId: text('price_id').notNull(),
    /** subscription_create | subscription_cycle, as Stripe's billing_reason */
    billingReason: text('billing_reason').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('local_billing_invoices_subscription_id_idx').on(table.subscriptionId)],
);
