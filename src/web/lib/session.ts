import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile, Subscription } from '../../common/api/account.ts';
import { fetchSession, type Session, type SessionStatus } from './session-status.ts';

export { fetchSession, type Session, type SessionStatus };
export type SessionUser = Session['user'];
export type SessionProfile = Profile;
export type SessionSubscription = Subscription;

export const sessionQueryKey = ['session'] as const;

// The event stream invalidates the session when it changes, so it need not be refetched on
// every page that reads it.
const sessionStaleTimeMs = 5 * 60_000;

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: sessionStaleTimeMs,
  });
}

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
  const { data, isError } = query;
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
