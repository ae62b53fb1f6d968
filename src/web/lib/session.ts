import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the landing bundle does not need.
import type { MeResponse, Profile, Subscription } from '../../common/api/account.ts';
import { api, isApiError } from './api-client.ts';
import { useHydrationSafe } from './use-hydration-safe.ts';

/** What `GET /api/me` answers for a signed-in user. */
export type Session = MeResponse;
export type SessionUser = MeResponse['user'];
export type SessionProfile = Profile;
export type SessionSubscription = Subscription;

export const sessionQueryKey = ['session'] as const;

// The event stream invalidates the session when it changes, so it need not be refetched on
// every page that reads it.
const sessionStaleTimeMs = 5 * 60_000;

/** The session, or null when nobody is signed in: a 401 is an answer here, not an error. */
export async function fetchSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    return await api.get<Session>('/api/me', { signal });
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: sessionStaleTimeMs,
  });
}

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out' | 'error';

export interface SessionState {
  status: SessionStatus;
  session: Session | null;
  user: SessionUser | null;
  profile: SessionProfile | null;
  subscription: SessionSubscription | null;
  /** Set when the session could not be read (server down, timeout); not for "signed out". */
  error: Error | null;
  refetch: () => void;
}

/** Who is signed in, with their profile and subscription; one request shared by every caller. */
export function useSession(): SessionState {
  const query = useQuery(sessionQueryOptions());
  // Prerendered markup shows nobody signed in yet, whatever the cache knows (see the hook).
  const data = useHydrationSafe(query.data, undefined);
  const isError = useHydrationSafe(query.isError, false);
  const session = data ?? null;
  const { refetch } = query;
  const refetchSession = useCallback(() => void refetch(), [refetch]);
  let status: SessionStatus;
  if (data !== undefined) status = session ? 'signed-in' : 'signed-out';
  else if (isError) status = 'error';
  else status = 'loading';

  return {
    status,
    session,
    user: session?.user ?? null,
    profile: session?.profile ?? null,
    subscription: session?.subscription ?? null,
    error: data === undefined && isError ? query.error : null,
    refetch: refetchSession,
  };
}
