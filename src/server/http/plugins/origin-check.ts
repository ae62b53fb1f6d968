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
    app.addHook('onRequest', async (request) => {
      if (safeMethods.has(request.method) || request.routeOptions.config.skipOriginCheck) return;
      if (!request.url.startsWith('/api/')) return;
      const origin = request.headers.origin;
      const fetchSite = request.headers['sec-fetch-site'];
      if ((origin && !trustedOrigins.includes(origin)) || fetchSite === 'cross-site') {
        throw new AppError('FORBIDDEN', authMessages.crossSiteRefused);
      }
    });
  },
);
