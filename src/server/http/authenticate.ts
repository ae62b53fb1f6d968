import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Auth } from '../features/auth/auth.ts';
import { messages } from '../../common/messages.ts';
import { AppError } from './app-error.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser?: SessionUser | null;
  }
}

/** Reads the session once per request; routes call `requireUser` and never see a token. */
export function createAuthenticator(auth: Auth) {
  async function currentUser(request: FastifyRequest): Promise<SessionUser | null> {
    if (request.sessionUser !== undefined) return request.sessionUser;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    const user = session?.user;
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

  return { currentUser, requireUser };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
