import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logoutMessages } from '../../common/messages/auth.ts';
import { routes } from '../../common/product/routes.ts';
import { notify } from '../components/ui/toast.ts';
import { api } from './api-client.ts';
import { closeEventStream } from './event-stream.ts';
import { sessionQueryKey } from './session.ts';

// Ending a session, apart from session.ts (which every page reads, the landing included) so
// that only the signed-in pages download it.

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
      notify.error(logoutMessages.failed);
    }
    await endSession();
    setIsSigningOut(false);
  }, [endSession]);

  return { signOut, isSigningOut };
}
