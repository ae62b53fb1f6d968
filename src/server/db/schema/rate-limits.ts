import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Abuse-limit counters, kept in Postgres so every web process sees the same count. One row per
 * key (e.g. `sign-in:ip:203.0.113.7`); each hit is a single atomic upsert, so concurrent
 * requests on several processes can never both slip under a limit.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
