import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimiter } from './rate-limiter.ts';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

// A database outage would otherwise log one line per request.
const warnEveryMs = 60_000;

/**
 * `@fastify/rate-limit`'s store, backed by the shared limiter: the global per-IP limit and every
 * route's own limit (uploads, generations, try-ons) count in Postgres, so they hold across web
 * processes. The plugin still decides (max, window, headers, the refusal); the store only counts.
 * Each route with a limit of its own counts in a scope of its own (`http:POST /api/generations`),
 * as the plugin's in-memory store kept one map per route; the global limit is scope `http`.
 */
export function createHttpRateLimitStore(
  limiter: RateLimiter,
  logger: FastifyBaseLogger,
): FastifyRateLimitStoreCtor {
  let lastWarning = 0;

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly scope = 'http',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      limiter.hit(this.scope, key, timeWindow).then(
        ({ count, resetsInMs }) => callback(null, { current: count, ttl: resetsInMs }),
        (error: unknown) => {
          if (Date.now() - lastWarning > warnEveryMs) {
            lastWarning = Date.now();
            logger.warn({ err: error }, 'rate limit not counted (the request is let through)');
          }
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, the route itself under `routeInfo`.
      const route = (routeOptions as unknown as { routeInfo?: { method?: unknown; url?: unknown } })
        .routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new PostgresRateLimitStore(routeOptions, `http:${method} ${String(route?.url ?? '')}`);
    }
  }

  return PostgresRateLimitStore;
}
