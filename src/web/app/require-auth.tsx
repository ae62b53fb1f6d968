import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { commonMessages } from '../../common/messages/shell.ts';
import { routes } from '../../common/product/routes.ts';
import { Button } from '../components/ui/button.tsx';
import { rememberPostLoginRedirect } from '../lib/post-login-redirect.ts';
import { useSession } from '../lib/session.ts';
import { AuthChecking } from '../features/auth/components/auth-checking.tsx';

/**
 * Guards the signed-in routes. While the session loads it says so; a visitor who is not signed
 * in is sent to /login (replacing the history entry, so Back does not bounce) and the page they
 * asked for is remembered for after sign-in.
 */
export function RequireAuth() {
  const { status, refetch } = useSession();
  // Whether this guard has seen a signed-in user. If the session then ends (Logout, or it
  // expired), the page being left is not where they asked to go, so it is not remembered.
  const hadSession = useRef(false);
  useEffect(() => {
    if (status === 'signed-in') hadSession.current = true;
  }, [status]);

  if (status === 'loading') return <AuthChecking fullScreen />;
  if (status === 'error') return <AuthCheckFailed onRetry={refetch} />;
  if (status === 'signed-out') return <RedirectToLogin rememberedGuard={hadSession} />;
  return <Outlet />;
}

function RedirectToLogin({ rememberedGuard }: { rememberedGuard: { current: boolean } }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!rememberedGuard.current) rememberPostLoginRedirect(`${pathname}${search}`);
    void navigate(routes.login, { replace: true });
  }, [navigate, pathname, search, rememberedGuard]);
  return <AuthChecking fullScreen />;
}

function AuthCheckFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex min-h-dvh flex-col items-center justify-center gap-5 px-5 text-center"
    >
      <h1 className="text-2xl font-semibold text-neutral-950">
        {commonMessages.somethingWentWrong}
      </h1>
      <p className="max-w-sm text-neutral-600">{commonMessages.networkError}</p>
      <Button onClick={onRetry}>{commonMessages.tryAgain}</Button>
    </div>
  );
}
