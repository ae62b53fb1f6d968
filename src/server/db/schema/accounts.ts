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
});
