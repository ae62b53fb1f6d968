import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { httpMessages } from '../../../common/messages/http.ts';
import { createHttpRateLimitStore } from '../../rate-limits/http-rate-limit-store.ts';
import type { RateLimiter } from '../../rate-limits/rate-limiter.ts';
import { AppError } from '../app-error.ts';
import { appWide } from './app-wide.ts';

export interface RateLimitOptions {
  limiter: RateLimiter;
  logger: FastifyBaseLogger;
  enabled: boolean;
  perMinute: number;
}

/**
 * The global per-IP limit, and the store the routes' own limits (uploads, generations,
 * try-ons) count in: the one rate limiter, in Postgres, so limits hold across web processes
 * (decision 028).
 */
export const rateLimits = appWide(
  'rate-limits',
  async (app, { limiter, logger, enabled, perMinute }: RateLimitOptions) => {
    await app.register(rateLimit, {
      global: enabled,
      max: perMinute,
      timeWindow: '1 minute',
      store: createHttpRateLimitStore(limiter, logger),
      // A limit that cannot be counted (database down) lets the request through; the request
      // itself then fails or succeeds on its own.
      skipOnError: true,
      errorResponseBuilder: () => new AppError('RATE_LIMITED', httpMessages.tooManyRequests),
    });
  },
);
