import type { FastifyRequest } from 'fastify';
import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../../http/app-error.ts';
import type { Authenticator } from '../auth/authenticate.ts';

/**
 * The hook of every operator route: anyone but an admin gets the answer of an unknown address,
 * so the admin area cannot be found. The role is read fresh, never from the session cache.
 */
export function adminOnly(authenticator: Authenticator) {
  return async (request: FastifyRequest) => {
    const user = await authenticator.freshUser(request);
    if (user?.role !== 'admin') throw new AppError('NOT_FOUND', httpMessages.nothingHere);
  };
}
