import helmet from '@fastify/helmet';
import { appWide } from './app-wide.ts';

export interface SecurityHeadersOptions {
  /** Origins other than ours that pages load files from (a bucket's presigned URLs). */
  fileOrigins: readonly string[];
  production: boolean;
}

/** A strict Content-Security-Policy ('self' and the file origins) and Helmet's usual headers. */
export const securityHeaders = appWide(
  'security-headers',
  async (app, { fileOrigins, production }: SecurityHeadersOptions) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...fileOrigins],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...fileOrigins],
          mediaSrc: ["'self'", 'blob:', ...fileOrigins],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(production ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: production,
    });
  },
);
