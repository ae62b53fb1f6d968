import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Rate-limit counters (auth, uploads, generations, try-ons, the global per-IP limit), kept in
 * Postgres so every web process sees the same count. One row per key (the scope in clear, the
 * IP or email hashed: `sign-in:ip:<hash>`, `http:POST /api/generations:<hash>`); each hit is a
 * single atomic upsert, so concurrent requests on several processes can never both slip under a
 * limit. The table is UNLOGGED (migration 0010, which Drizzle's schema cannot express): no WAL
 * per hit, and a crash empties it, which only restarts the limits.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
