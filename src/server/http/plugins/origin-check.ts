import type { FastifyRequest } from 'fastify';
import { authMessages } from '../../../common/messages/auth.ts';
import { AppError } from '../app-error.ts';
import { appWide } from './app-wide.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Webhooks come from providers, not browsers: they prove themselves by signature instead. */
    skipOriginCheck?: boolean;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Browsers send Origin on every cross-site write: a state-changing `/api/` request from a site
 * we do not trust (or marked `Sec-Fetch-Site: cross-site`) is refused.
 */
export const originCheck = appWide(
  'origin-check',
  async (app, { trustedOrigins }: { trustedOrigins: readonly string[] }) => {
    // Callback hooks, here and in the other app-wide plugins: every request runs them, and an
    // async hook costs a promise and its microtask each time (issue 18).
    app.addHook('onRequest', (request, _reply, done) => {
      done(
        crossSiteWrite(request)
          ? new AppError('FORBIDDEN', authMessages.crossSiteRefused)
          : undefined,
      );
    });

    function crossSiteWrite(request: FastifyRequest): boolean {
      if (safeMethods.has(request.method) || request.routeOptions.config.skipOriginCheck)
        return false;
      if (!request.url.startsWith('/api/')) return false;
      const origin = request.headers.origin;
      const fetchSite = request.headers['sec-fetch-site'];
      return Boolean(origin && !trustedOrigins.includes(origin)) || fetchSite === 'cross-site';
    }
  },
);
