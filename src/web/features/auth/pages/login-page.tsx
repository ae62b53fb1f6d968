import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { loginMessages } from '../../../../common/messages/auth.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { signInWithEmail, useAuthOptions } from '../auth-api.ts';
import { signInErrorMessage, validateSignIn } from '../auth-form-rules.ts';
import { AuthChecking } from '../components/auth-checking.tsx';
import { AuthSwitchLink, inlineLinkClasses } from '../components/auth-links.tsx';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { CredentialsFields } from '../components/credentials-fields.tsx';
import { GoogleButton } from '../components/google-button.tsx';
import { LegalNotice } from '../components/legal-notice.tsx';
import { OrDivider } from '../components/or-divider.tsx';
import { clearPostLoginRedirect, takePostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { sessionQueryKey, useSession, type Session } from '../../../lib/session.ts';
import { useCredentialsForm } from '../use-credentials-form.ts';
import { useGoogleSignIn } from '../use-google-sign-in.ts';

const errorId = 'login-error';

/**
 * /login. Someone already signed in is sent on to the dashboard (replacing this entry, so Back
 * does not return here) and any remembered destination is dropped. After signing in here, the
 * visitor goes to the page they were sent away from, or to the dashboard.
 */
export function LoginPage() {
  usePageTitle(pageTitleMessages.login);
  const { status } = useSession();
  const authOptions = useAuthOptions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Set by a sign-in on this page; until then a signed-in session means "already signed in".
  const [destination, setDestination] = useState<string | null>(null);
  const form = useCredentialsForm('sign-in', validateSignIn);

  useEffect(() => {
    if (status !== 'signed-in') return;
    if (destination === null) clearPostLoginRedirect();
    void navigate(destination ?? routes.dashboard, { replace: true });
  }, [status, destination, navigate]);

  const google = useGoogleSignIn({
    intent: 'sign-in',
    callbackURL: routes.dashboard,
    errorCallbackURL: routes.login,
    onError: form.showGoogleError,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.startSubmit()) return;
    try {
      await signInWithEmail({ email: form.email.trim(), password: form.password });
    } catch (failure) {
      form.setError({ message: signInErrorMessage(failure), field: null });
      form.setSubmitting(false);
      return;
    }
    try {
      // Where to go is decided now; the effect above goes there once the session has arrived.
      setDestination(takePostLoginRedirect() ?? routes.dashboard);
      notify.success(loginMessages.success);
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      if (!queryClient.getQueryData<Session | null>(sessionQueryKey)) {
        throw new Error('Signed in, but the session could not be read');
      }
    } catch (failure) {
      console.error(failure);
      form.setError({ message: loginMessages.unexpectedError, field: null });
      form.setSubmitting(false);
    }
  }

  // Signed in by this page: the form stays (its button busy) until the next page replaces it.
  const leaving = status === 'signed-in' && destination !== null;
  if (!leaving && (status === 'loading' || status === 'signed-in' || !authOptions.ready)) {
    return <AuthChecking />;
  }

  const busy = form.submitting || google.busy;

  return (
    <AuthPageShell title={loginMessages.title} subtitle={loginMessages.subtitle} sidePanel>
      <div className="flex flex-col gap-6">
        {authOptions.google ? (
          <>
            <GoogleButton
              onClick={() => void google.start()}
              busy={google.busy}
              disabled={form.submitting}
            />
            <OrDivider />
          </>
        ) : null}

        <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
          <CredentialsFields
            idPrefix="login"
            form={form}
            errorId={errorId}
            passwordAutoComplete="current-password"
            passwordAside={
              <Link to={routes.resetPassword} className={`text-sm ${inlineLinkClasses}`}>
                {loginMessages.forgotPassword}
              </Link>
            }
          />
          {form.error ? <FormAlert id={errorId}>{form.error.message}</FormAlert> : null}
          <Button
            type="submit"
            size="lg"
            className="mt-1 w-full"
            loading={form.submitting}
            disabled={busy}
          >
            {form.submitting ? loginMessages.submitting : loginMessages.submit}
          </Button>
        </form>

        <AuthSwitchLink
          prompt={loginMessages.noAccount}
          to={routes.signup}
          label={loginMessages.signUpLink}
        />
        <LegalNotice />
      </div>
    </AuthPageShell>
  );
}
