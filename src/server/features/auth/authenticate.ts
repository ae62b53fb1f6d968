import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Auth } from './auth.ts';
import type { KnownSession, SessionCache } from './session-cache.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../../http/app-error.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}

/** The session a request came with: what a long-lived stream needs to notice that it ended. */
export interface RequestSession {
  id: string;
  token: string;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser?: SessionUser | null;
    authSession?: RequestSession;
  }
}

/**
 * The value of one cookie in a Cookie header, URL-decoded as Better Auth reads it. Every request
 * runs this, so it looks for `name=` where a cookie starts instead of splitting the header.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const wanted = `${name}=`;
  for (let at = header.indexOf(wanted); at >= 0; at = header.indexOf(wanted, at + 1)) {
    if (!startsCookie(header, at)) continue;
    const end = header.indexOf(';', at);
    let value = header.slice(at + wanted.length, end < 0 ? undefined : end).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Whether `at` is where a cookie's name starts: the header's start or after `;` and spaces. */
function startsCookie(header: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (header[before] === ' ' || header[before] === '\t')) before -= 1;
  return before < 0 || header[before] === ';';
}

/**
 * The session token of a signed session cookie (`token.signature`, HMAC-SHA256 with the auth
 * secret, as Better Auth signs it), or undefined when there is none or its signature is wrong.
 */
export function verifiedSessionToken(
  cookieHeader: string | undefined,
  cookieName: string,
  secret: string,
): string | undefined {
  return tokenOfSignedValue(cookieValue(cookieHeader, cookieName), secret);
}

/** The token of a signed cookie's value, or undefined when its signature is wrong. */
function tokenOfSignedValue(value: string | undefined, secret: string): string | undefined {
  const dot = value?.lastIndexOf('.') ?? -1;
  if (!value || dot < 1) return undefined;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected)
    ? token
    : undefined;
}

/**
 * Reads the session once per request; routes call `requireUser` and never see a token (only an
 * event stream takes its session, to notice when it ends).
 *
 * A signed cookie this process read the session of lately is answered from `cache`, which keeps
 * sessions by the cookie's whole signed value: a value found there had its signature checked
 * when it was kept. Any other cookie's signature is checked here with Node's crypto; a request
 * without a valid one is signed out without a database read, and a valid one is read through
 * Better Auth (which may extend the session) and kept.
 */
export function createAuthenticator(auth: Auth, cache?: SessionCache) {
  let settings: { name: string; secret: string } | undefined;
  const cookie = auth.$context.then(
    (context) =>
      (settings = { name: context.authCookies.sessionToken.name, secret: context.secret }),
  );

  async function read(
    request: FastifyRequest,
    signed: string,
    token: string,
  ): Promise<KnownSession | null> {
    const readAt = Date.now();
    const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    if (!found) return null;
    const { user, session } = found;
    const known: KnownSession = {
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        role: String(user.role ?? 'user'),
        createdAt: user.createdAt,
      },
      session: { id: session.id, token: session.token, expiresAt: new Date(session.expiresAt) },
    };
    if (session.token === token) cache?.set(signed, known, readAt);
    return known;
  }

  // Reads under way by signed cookie: a page's first requests arrive together with one cookie,
  // and each would otherwise read the same session before the first read is kept.
  const reading = new Map<string, Promise<KnownSession | null>>();

  function readOnce(request: FastifyRequest, signed: string, token: string) {
    let pending = reading.get(signed);
    if (!pending) {
      pending = read(request, signed, token).finally(() => reading.delete(signed));
      reading.set(signed, pending);
    }
    return pending;
  }

  /**
   * Who the cookie belongs to: from the cache unless `fresh`, else read and kept. A `fresh` read
   * is the request's own, never one that began before it. A cached answer comes without a
   * promise: every API request asks, and on this path promises were most of the cost (five
   * chained ones per request, each run through the async-context hooks).
   */
  function fromCookie(
    request: FastifyRequest,
    { name, secret }: { name: string; secret: string },
    fresh: boolean,
  ): SessionUser | null | Promise<SessionUser | null> {
    const signed = cookieValue(request.headers.cookie, name);
    const cached = signed && !fresh ? cache?.get(signed) : undefined;
    if (cached) return remember(request, cached);
    const token = tokenOfSignedValue(signed, secret);
    if (!token) return remember(request, null);
    return (fresh ? read(request, signed!, token) : readOnce(request, signed!, token)).then(
      (known) => remember(request, known),
    );
  }

  function remember(request: FastifyRequest, known: KnownSession | null): SessionUser | null {
    if (known) request.authSession = known.session;
    request.sessionUser = known?.user ?? null;
    return request.sessionUser;
  }

  /** Who the request comes from, asked once per request (see `fromCookie`). */
  function currentUser(request: FastifyRequest): SessionUser | null | Promise<SessionUser | null> {
    if (request.sessionUser !== undefined) return request.sessionUser;
    return settings
      ? fromCookie(request, settings, false)
      : cookie.then((loaded) => fromCookie(request, loaded, false));
  }

  /**
   * The user as the database has them now, past the cache: for the operator's routes, so that
   * taking the admin role away (`npm run admin -- revoke`, another process) applies at once.
   */
  const freshUser = async (request: FastifyRequest) =>
    fromCookie(request, settings ?? (await cookie), true);

  /** The signed-in user (without a promise when known, as `currentUser`), else 401. */
  function requireUser(request: FastifyRequest): SessionUser | Promise<SessionUser> {
    const user = currentUser(request);
    return user instanceof Promise ? user.then(signedIn) : signedIn(user);
  }

  function signedIn(user: SessionUser | null): SessionUser {
    if (!user) throw new AppError('UNAUTHORIZED', httpMessages.signInRequired);
    return user;
  }

  /** The user and the session they came with (an event stream is bound to that session). */
  async function requireSession(
    request: FastifyRequest,
  ): Promise<{ user: SessionUser; session: RequestSession }> {
    const user = await requireUser(request);
    if (!request.authSession) throw new AppError('UNAUTHORIZED', httpMessages.signInRequired);
    return { user, session: request.authSession };
  }

  return { currentUser, freshUser, requireUser, requireSession };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
