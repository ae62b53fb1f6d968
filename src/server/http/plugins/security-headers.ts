import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { appWide } from './app-wide.ts';

export interface SecurityHeadersOptions {
  /** Origins other than ours that pages load files from (a bucket's presigned URLs). */
  fileOrigins: readonly string[];
  production: boolean;
}

/**
 * Pages get a strict Content-Security-Policy ('self' and the file origins) and Helmet's usual
 * headers. API answers get the set OWASP's REST Security Cheat Sheet gives for JSON: they are
 * never rendered as a page, so a policy that allows nothing and nothing framing them, without
 * the page-only headers (cross-origin opener, DNS prefetching, IE's download and XSS filter
 * switches, Flash's cross-domain policies, origin-keyed agent clusters). That is 600 bytes fewer
 * on every API answer, which the busiest routes send thousands of times a second (decision 064).
 * The API's documentation (`/api/docs`) is a page.
 */
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
    const apiHeaders: Record<string, string> = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    };
    const hsts = headers['strict-transport-security'];
    if (hsts) apiHeaders['strict-transport-security'] = hsts;
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiAnswer(request.url) ? apiHeaders : headers);
      done();
    });
  },
);

function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

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
