import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
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
    const headers = headersOf({
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
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
);

/**
 * The headers Helmet sets for `options`, worked out once: they are the same for every answer.
 * (@fastify/helmet built Helmet's middleware again for each request, a twentieth of the CPU of
 * GET /api/me.)
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    // Helmet takes X-Powered-By away; Fastify never sets it.
    removeHeader() {},
  };
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  if (!headers['content-security-policy']) throw new Error('Helmet set no Content-Security-Policy');
  return headers;
}
