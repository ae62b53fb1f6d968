import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimitBuckets } from '../db/schema/index.ts';

/**
 * The SQL behind every rate limit (auth, uploads, generations, try-ons, the global per-IP limit).
 * Every counting statement is one upsert (`INSERT ... ON CONFLICT DO UPDATE ... RETURNING`), so
 * concurrent requests on any number of processes each get a distinct count. Times come from the
 * database clock, which all processes share.
 */

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A fixed window: the first hit opens it, later hits count in it, and the first hit after it has
 * closed opens a new one. Answers the count including this hit and the milliseconds until the
 * window closes (always more than 0).
 */
export async function hitFixedWindow(
  db: Executor,
  key: string,
  windowMs: number,
): Promise<{ count: number; resetsInMs: number }> {
  const window = sql`(${windowMs}::int * interval '1 millisecond')`;
  const result = await db.execute(sql`
    insert into rate_limit_buckets as bucket (key, window_start, count)
    values (${key}, now(), 1)
    on conflict (key) do update set
      window_start = case when bucket.window_start <= now() - ${window}
        then now() else bucket.window_start end,
      count = case when bucket.window_start <= now() - ${window}
        then 1 else bucket.count + 1 end
    returning count,
      ceil(extract(epoch from (window_start + ${window} - now())) * 1000)::int as resets_in_ms`);
  const [row] = rowsOf<{ count: number; resets_in_ms: number }>(result);
  if (!row) throw new Error(`rate limit upsert for ${key} returned nothing`);
  return { count: Number(row.count), resetsInMs: Math.max(1, Number(row.resets_in_ms)) };
}

/**
 * A streak: `window_start` is the time of the latest hit, and the count starts again at 1 when
 * the previous hit is older than the window. Used for failed sign-ins, where each failure keeps
 * the streak (and its growing delay) alive.
 */
export async function hitStreak(db: Executor, key: string, windowMs: number): Promise<number> {
  const window = sql`(${windowMs}::int * interval '1 millisecond')`;
  const result = await db.execute(sql`
    insert into rate_limit_buckets as bucket (key, window_start, count)
    values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when bucket.window_start <= now() - ${window}
        then 1 else bucket.count + 1 end,
      window_start = now()
    returning count`);
  const [row] = rowsOf<{ count: number }>(result);
  if (!row) throw new Error(`rate limit upsert for ${key} returned nothing`);
  return Number(row.count);
}

/** A streak's count and how long ago its latest hit was, without counting a hit. */
export async function readStreak(
  db: Executor,
  key: string,
): Promise<{ count: number; sinceLastMs: number } | undefined> {
  const result = await db.execute(sql`
    select count,
      (extract(epoch from (now() - window_start)) * 1000)::bigint as since_last_ms
    from rate_limit_buckets where key = ${key}`);
  const [row] = rowsOf<{ count: number; since_last_ms: string | number }>(result);
  return row ? { count: Number(row.count), sinceLastMs: Number(row.since_last_ms) } : undefined;
}

export async function deleteBucket(db: Executor, key: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/** Buckets idle for longer than any window can no longer refuse anyone. */
export async function deleteBucketsOlderThan(db: Executor, ageMs: number): Promise<void> {
  await db.execute(sql`
    delete from rate_limit_buckets
    where window_start < now() - (${ageMs}::bigint * interval '1 millisecond')`);
}
