import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** One row per user, created on first read with the specification's defaults. */
export const profiles = pgTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  trainingInProgress: boolean('training_in_progress').notNull().default(false),
  selectedTrainingModelId: text('selected_training_model_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The balance in `credits` only changes together with a ledger row (billing feature), through a
 * conditional update, so it can never go negative.
 */
export const subscriptions = pgTable('subscriptions', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  active: boolean('active').notNull().default(false),
  tier: text('tier').notNull().default('none'),
  credits: integer('credits').notNull().default(0),
  monthlyFreeTrainingsLeft: integer('monthly_free_trainings_left').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // What the payment provider says (billing feature keeps it in sync; the provider is the truth).
  /** Our price id (price_basic, ..., price_yearly_premium) of the current subscription. */
  priceId: text('price_id'),
  /** The provider's subscription status ('active', 'past_due', 'canceled', ...); 'none' before any. */
  status: text('status').notNull().default('none'),
  providerCustomerId: text('provider_customer_id'),
  providerSubscriptionId: text('provider_subscription_id'),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /**
   * The paid invoice whose plan credits were granted last, the start of the period it paid for
   * and the plan credits granted for that period so far: the yearly offer's monthly grants and
   * an upgrade's top-up are counted from these.
   */
  grantInvoiceId: text('grant_invoice_id'),
  grantPeriodStart: timestamp('grant_period_start', { withTimezone: true }),
  grantPeriodCredits: integer('grant_period_credits').notNull().default(0),
});
