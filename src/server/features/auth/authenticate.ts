import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Auth } from './auth.ts';
import { messages } from '../../../common/messages.ts';
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
 * Reads the session once per request; routes call `requireUser` and never see a token (only an
 * event stream takes its session, to notice when it ends).
 */
export function createAuthenticator(auth: Auth) {
  async function currentUser(request: FastifyRequest): Promise<SessionUser | null> {
    if (request.sessionUser !== undefined) return request.sessionUser;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    const user = session?.user;
    if (session)
      request.authSession = {
        id: session.session.id,
        token: session.session.token,
        expiresAt: new Date(session.session.expiresAt),
      };
    request.sessionUser = user
      ? {
          id: user.id,
          email: user.email,
          name: user.name,
          role: String(user.role ?? 'user'),
          createdAt: user.createdAt,
        }
      : null;
    return request.sessionUser;
  }

  async function requireUser(request: FastifyRequest): Promise<SessionUser> {
    const user = await currentUser(request);
    if (!user) throw new AppError('UNAUTHORIZED', messages.http.signInRequired);
    return user;
  }

  /** The user and the session they came with (an event stream is bound to that session). */
  async function requireSession(
    request: FastifyRequest,
  ): Promise<{ user: SessionUser; session: RequestSession }> {
    const user = await requireUser(request);
    if (!request.authSession) throw new AppError('UNAUTHORIZED', messages.http.signInRequired);
    return { user, session: request.authSession };
  }

  return { currentUser, requireUser, requireSession };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
