import { useCallback, useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
// Type-only: the schemas live with zod, which the landing bundle does not need.
import type { MeResponse, Profile, Subscription } from '../../../common/api/account.ts';
import { messages } from '../../../common/messages.ts';
import { routes } from '../../../common/product.ts';
import { notify } from '../../components/ui/toast.ts';
import { api, isApiError } from '../../lib/api-client.ts';
import { closeEventStream, registerEventHandler } from '../../lib/event-stream.ts';

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
  const session = query.data ?? null;
  const { refetch } = query;
  const refetchSession = useCallback(() => void refetch(), [refetch]);
  let status: SessionStatus;
  if (query.data !== undefined) status = session ? 'signed-in' : 'signed-out';
  else if (query.isError) status = 'error';
  else status = 'loading';

  return {
    status,
    session,
    user: session?.user ?? null,
    profile: session?.profile ?? null,
    subscription: session?.subscription ?? null,
    error: query.data === undefined ? query.error : null,
    refetch: refetchSession,
  };
}

/**
 * Events after which the session (profile, subscription, credits) is out of date. Registered by
 * the app once, at start.
 */
export const sessionEventTypes = [
  'subscription.updated',
  'credits.updated',
  'profile.updated',
  'model.updated',
] as const;

export function registerSessionEventHandlers(): () => void {
  const unregister = sessionEventTypes.map((type) =>
    registerEventHandler(type, (_event, queryClient) => {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    }),
  );
  return () => unregister.forEach((fn) => fn());
}

/**
 * Forgets everything cached for the user who was signed in and goes to /login. For every way a
 * session ends in this tab: Logout, and deleting the account (whose server call already ended
 * the session).
 */
export function useEndSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useCallback(async () => {
    // Closed first so no late event refills the cache with the previous user's data.
    closeEventStream();
    await queryClient.cancelQueries();
    // Signed out first, so guarded pages leave before their queries could refetch; then every
    // other cached record of this user goes.
    queryClient.setQueryData(sessionQueryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    queryClient.getMutationCache().clear();
    void navigate(routes.login, { replace: true });
  }, [navigate, queryClient]);
}

/**
 * Logout: asks the server to end every session of the user (the specification's sign-out has
 * global scope), then forgets the session here and goes to /login, also when the server call
 * failed (the user asked to leave; a stale cookie is then caught by the next session check).
 */
export function useSignOut(): { signOut: () => Promise<void>; isSigningOut: boolean } {
  const endSession = useEndSession();
  const [isSigningOut, setIsSigningOut] = useState(false);

  const signOut = useCallback(async () => {
    setIsSigningOut(true);
    // Before the request, so no event arriving meanwhile refetches the session being ended.
    closeEventStream();
    try {
      await api.post('/api/account/sign-out', {});
    } catch (error) {
      console.warn('Sign-out request failed', error);
      notify.error(messages.logout.failed);
    }
    await endSession();
    setIsSigningOut(false);
  }, [endSession]);

  return { signOut, isSigningOut };
}
