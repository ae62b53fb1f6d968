import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/** A garment put on a person photo (the specification's ai_tryon_results). */
export const tryOns = pgTable(
  'tryons',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    personKey: text('person_key').notNull(),
    garmentKey: text('garment_key').notNull(),
    /** processing, completed, failed, blocked */
    status: text('status').notNull().default('processing'),
    failureReason: text('failure_reason'),
    resultKey: text('result_key'),
    engine: text('engine').notNull(),
    engineReference: text('engine_reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('tryons_user_idx').on(table.userId, table.createdAt)],
);
