import { createHash } from 'node:crypto';
import type { Database } from '../db/client.ts';
import {
  deleteBucket,
  deleteBucketsOlderThan,
  hitFixedWindow,
  hitStreak,
  readStreak,
} from './rate-limit-repository.ts';

export interface WindowRule {
  max: number;
  windowMs: number;
}

/** After `max` failures in a streak, wait baseDelayMs, doubling per further failure, up to maxDelayMs. */
export interface BackoffRule extends WindowRule {
  baseDelayMs: number;
  maxDelayMs: number;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const allowed: Verdict = { allowed: true };
const sweepEveryMs = 10 * 60_000;
// Longer than any window or delay, so a sweep never forgets a bucket that could still refuse.
const keepBucketsMs = 24 * 60 * 60_000;

/** The bucket's key: the scope in clear, the identifier (email, IP) as a hash. */
export function rateLimitKey(scope: string, identifier: string): string {
  return `${scope}:${createHash('sha256').update(identifier).digest('base64url').slice(0, 32)}`;
}

/**
 * The one store of every rate limit: the auth limits call it directly, the HTTP limits (the
 * global per-IP limit, uploads, generations, try-ons) through `createHttpRateLimitStore`.
 * Counters live in Postgres so that several web processes share them; each check is one
 * statement. Keys are hashed: the table holds no email address or IP in clear.
 */
export function createRateLimiter(db: Database, options: { enabled: boolean }) {
  let lastSweep = Date.now();

  function sweepNow() {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    // Housekeeping only: a failed sweep is retried at the next one.
    void deleteBucketsOlderThan(db, keepBucketsMs).catch(() => {});
  }

  /** Counts one hit in the identifier's current window: the count so far and when it closes. */
  async function hit(scope: string, identifier: string, windowMs: number) {
    sweepNow();
    return hitFixedWindow(db, rateLimitKey(scope, identifier), windowMs);
  }

  return {
    enabled: options.enabled,
    hit,

    /** Counts one attempt; refuses it when it is over the rule's maximum for the window. */
    async consume(scope: string, identifier: string, rule: WindowRule): Promise<Verdict> {
      if (!options.enabled) return allowed;
      const { count, resetsInMs } = await hit(scope, identifier, rule.windowMs);
      return count <= rule.max
        ? allowed
        : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(resetsInMs / 1000)) };
    },

    /** Whether a streak of failures still holds this identifier back; counts nothing. */
    async backoff(scope: string, identifier: string, rule: BackoffRule): Promise<Verdict> {
      if (!options.enabled) return allowed;
      const streak = await readStreak(db, rateLimitKey(scope, identifier));
      if (!streak || streak.count < rule.max || streak.sinceLastMs >= rule.windowMs) return allowed;
      const delayMs = Math.min(rule.baseDelayMs * 2 ** (streak.count - rule.max), rule.maxDelayMs);
      const remainingMs = delayMs - streak.sinceLastMs;
      return remainingMs > 0
        ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) }
        : allowed;
    },

    async recordFailure(scope: string, identifier: string, rule: BackoffRule): Promise<void> {
      if (!options.enabled) return;
      await hitStreak(db, rateLimitKey(scope, identifier), rule.windowMs);
    },

    async forget(scope: string, identifier: string): Promise<void> {
      if (!options.enabled) return;
      await deleteBucket(db, rateLimitKey(scope, identifier));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
