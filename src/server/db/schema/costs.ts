import { doublePrecision, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the operator paid a provider for each call: a picture, a likeness re-roll, an HD upscale,
 * a training preview, a training, a try-on (issue 17). No user: these are the operator's books,
 * and they outlive the pictures and accounts they were for.
 */
export const providerCosts = pgTable(
  'provider_costs',
  {
    id: text('id').primaryKey(),
    /** picture, reroll, upscale, preview, training, tryon (costKinds in features/costs). */
    kind: text('kind').notNull(),
    engine: text('engine').notNull(),
    /** The generation, model, preview or try-on it was for (no foreign key, see above). */
    reference: text('reference').notNull(),
    usd: doublePrecision('usd').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('provider_costs_time_idx').on(table.createdAt)],
);
