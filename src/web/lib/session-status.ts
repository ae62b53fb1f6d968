import { createContext, useContext } from 'react';
// Type-only: the schemas live with zod, which the landing bundle does not need.
import type { MeResponse } from '../../common/api/account.ts';
import { api, isApiError } from './api-client.ts';

/** What `GET /api/me` answers for a signed-in user. */
export type Session = MeResponse;

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out' | 'error';

/** The session, or null when nobody is signed in: a 401 is an answer here, not an error. */
export async function fetchSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    return await api.get<Session>('/api/me', { signal });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

const SessionStatusContext = createContext<SessionStatus>('loading');

/**
 * Whether someone is signed in, for the parts the landing page shares with the app (the public
 * top bar, the calls to action): the app gives it from its data cache (providers.tsx), the
 * landing page's own entry from its one request (decision 061).
 */
export const SessionStatusProvider = SessionStatusContext.Provider;

export function useSessionStatus(): SessionStatus {
  return useContext(SessionStatusContext);
}
