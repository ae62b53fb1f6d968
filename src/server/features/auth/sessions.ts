import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from './authenticate.ts';
import type { Auth } from './auth.ts';

interface CookieAttributes {
  path?: string;
  domain?: string;
  secure?: boolean;
  sameSite?: string | boolean;
  httpOnly?: boolean;
}

/** A Set-Cookie value that makes the browser drop the cookie (same name, path and flags). */
function expiredCookie(name: string, attributes: CookieAttributes): string {
  const parts = [`${name}=`, 'Max-Age=0', `Path=${attributes.path ?? '/'}`];
  if (attributes.domain) parts.push(`Domain=${attributes.domain}`);
  if (attributes.httpOnly !== false) parts.push('HttpOnly');
  if (typeof attributes.sameSite === 'string') {
    const value = attributes.sameSite.toLowerCase();
    parts.push(`SameSite=${value.charAt(0).toUpperCase()}${value.slice(1)}`);
  }
  // `__Secure-` cookies (production) are only accepted, even for removal, with Secure.
  if (attributes.secure || name.startsWith('__Secure-')) parts.push('Secure');
  return parts.join('; ');
}

/** Where a user's ended sessions are announced, so their open streams close (the event bus). */
export interface SessionEndings {
  endSessions(userId: string, sessions: 'all'): Promise<void>;
}

/**
 * Sessions beyond what Better Auth's endpoints do: the specification's sign-out has global
 * scope (every device of the user is signed out), and account deletion must end the session.
 * Sessions that Better Auth deletes announce themselves (see `createAuth`'s `onSessionEnded`);
 * an account's deletion removes its sessions by cascade, so it is announced here.
 */
export function createSessionService(
  auth: Auth,
  authenticator: Authenticator,
  events: SessionEndings,
) {
  /** Deletes every session of the user (all devices). */
  async function revokeAll(userId: string): Promise<void> {
    const context = await auth.$context;
    await context.internalAdapter.deleteUserSessions(userId);
  }

  /** Set-Cookie values that remove every session cookie Better Auth may have set. */
  async function expiredCookies(): Promise<string[]> {
    const { authCookies } = await auth.$context;
    return [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken].map(
      (cookie) => expiredCookie(cookie.name, cookie.attributes as CookieAttributes),
    );
  }

  /**
   * Signs the requester out everywhere. Answers the cookies to clear even when the session was
   * already gone (expired, revoked on another device), so the browser never keeps a dead one.
   */
  async function signOutEverywhere(request: FastifyRequest): Promise<string[]> {
    const user = await authenticator.currentUser(request);
    if (user) await revokeAll(user.id);
    return expiredCookies();
  }

  /** When the session with this token ends now, or null when it is gone or already over. */
  async function expiryOf(token: string): Promise<Date | null> {
    const context = await auth.$context;
    const found = await context.internalAdapter.findSession(token);
    const expiresAt = found ? new Date(found.session.expiresAt) : null;
    return expiresAt && expiresAt > new Date() ? expiresAt : null;
  }

  /** Every session of a deleted account has ended: streams anywhere close. */
  async function accountDeleted(userId: string): Promise<void> {
    await events.endSessions(userId, 'all');
  }

  return { revokeAll, expiredCookies, signOutEverywhere, expiryOf, accountDeleted };
}

export type SessionService = ReturnType<typeof createSessionService>;

/**
 * The specification's sign-out, global in scope (`POST /api/auth/sign-out` and
 * `/api/account/sign-out` alike): every session of the user ends, and the answer, 204 and never
 * cached, clears the cookie even when the session was already gone.
 */
export function signOutEverywhereRoute(sessions: Pick<SessionService, 'signOutEverywhere'>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const cookies = await sessions.signOutEverywhere(request);
    return reply
      .status(204)
      .header('set-cookie', cookies)
      .header('cache-control', 'no-store')
      .send();
  };
}
