// What the floors of bench/me.ts and bench/generation.ts share: the session cookie's signature
// checked with Node's crypto (the least a correct answer does before its statement), and a bare
// Fastify server with its pool, listening on a port of its own.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

/** NODE_ENV=production: Secure cookies, named with the __Secure- prefix. */
export const sessionCookieName = '__Secure-likeness.session_token=';

/** The session token of a validly signed cookie (HMAC-SHA256 with `secret`), else undefined. */
export function signedSessionToken(
  cookieHeader: string | undefined,
  secret: string,
): string | undefined {
  const raw = cookieHeader
    ?.split('; ')
    .find((part) => part.startsWith(sessionCookieName))
    ?.slice(sessionCookieName.length);
  const value = raw ? decodeURIComponent(raw) : '';
  const dot = value.lastIndexOf('.');
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  if (dot < 1 || signature.length !== 32 || !timingSafeEqual(signature, expected)) return undefined;
  return token;
}

/** Listens on a free port of 127.0.0.1; `close` ends the server, then its pool. */
export async function listenFloor(
  floor: FastifyInstance,
  pool: pg.Pool,
): Promise<{ url: string; close(): Promise<void> }> {
  const url = await floor.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    async close() {
      await floor.close();
      await pool.end();
    },
  };
}
