import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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
import {
  googleFailedMessage,
  signInErrorMessage,
  validateSignIn,
  type AuthField,
} from '../auth-form-rules.ts';
import { AuthChecking } from '../components/auth-checking.tsx';
import { AuthSwitchLink, inlineLinkClasses } from '../components/auth-links.tsx';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { CredentialsFields } from '../components/credentials-fields.tsx';
import { GoogleButton } from '../components/google-button.tsx';
import { LegalNotice } from '../components/legal-notice.tsx';
import { OrDivider } from '../components/or-divider.tsx';
import { clearPostLoginRedirect, takePostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { sessionQueryKey, useSession, type Session } from '../../../lib/session.ts';
import { useGoogleSignIn } from '../use-google-sign-in.ts';
import { useReturnedWithError } from '../use-return-error.ts';

const errorId = 'login-error';

interface FormError {
  message: string;
  field: AuthField | null;
}

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
  const returnedWithError = useReturnedWithError();

  // Set by a sign-in on this page; until then a signed-in session means "already signed in".
  const [destination, setDestination] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<FormError | null>(() =>
    returnedWithError ? { message: googleFailedMessage('sign-in'), field: null } : null,
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (status !== 'signed-in') return;
    if (destination === null) clearPostLoginRedirect();
    void navigate(destination ?? routes.dashboard, { replace: true });
  }, [status, destination, navigate]);

  const showGoogleError = useCallback((message: string) => setError({ message, field: null }), []);
  const google = useGoogleSignIn({
    intent: 'sign-in',
    callbackURL: routes.dashboard,
    errorCallbackURL: routes.login,
    onError: showGoogleError,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const problem = validateSignIn(email, password);
    if (problem) {
      setError(problem);
      (problem.field === 'email' ? emailRef : passwordRef).current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await signInWithEmail({ email: email.trim(), password });
    } catch (failure) {
      setError({ message: signInErrorMessage(failure), field: null });
      setSubmitting(false);
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
      setError({ message: loginMessages.unexpectedError, field: null });
      setSubmitting(false);
    }
  }

  // Signed in by this page: the form stays (its button busy) until the next page replaces it.
  const leaving = status === 'signed-in' && destination !== null;
  if (!leaving && (status === 'loading' || status === 'signed-in' || !authOptions.ready)) {
    return <AuthChecking />;
  }

  const busy = submitting || google.busy;

  return (
    <AuthPageShell title={loginMessages.title} subtitle={loginMessages.subtitle} sidePanel>
      <div className="flex flex-col gap-6">
        {authOptions.google ? (
          <>
            <GoogleButton
              onClick={() => void google.start()}
              busy={google.busy}
              disabled={submitting}
            />
            <OrDivider />
          </>
        ) : null}

        <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
          <CredentialsFields
            idPrefix="login"
            email={email}
            password={password}
            onEmailChange={setEmail}
            onPasswordChange={setPassword}
            invalidField={error?.field ?? null}
            errorId={error ? errorId : undefined}
            passwordAutoComplete="current-password"
            passwordAside={
              <Link to={routes.resetPassword} className={`text-sm ${inlineLinkClasses}`}>
                {loginMessages.forgotPassword}
              </Link>
            }
            emailRef={emailRef}
            passwordRef={passwordRef}
          />
          {error ? <FormAlert id={errorId}>{error.message}</FormAlert> : null}
          <Button
            type="submit"
            size="lg"
            className="mt-1 w-full"
            loading={submitting}
            disabled={busy}
          >
            {submitting ? loginMessages.submitting : loginMessages.submit}
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
