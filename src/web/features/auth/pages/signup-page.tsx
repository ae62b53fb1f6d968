import { useCallback, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Mail, Sparkles } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { signupMessages } from '../../../../common/messages/auth.ts';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes, signupOffer } from '../../../../common/product/routes.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { redirectTo, startYearlyCheckout } from '../../billing/billing-api.ts';
import { signUpWithEmail, useAuthOptions } from '../auth-api.ts';
import {
  googleFailedMessage,
  signUpFailure,
  validateSignUp,
  type AuthField,
} from '../auth-form-rules.ts';
import { alertLinkClasses, AuthSwitchLink } from '../components/auth-links.tsx';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { CredentialsFields } from '../components/credentials-fields.tsx';
import { GoogleButton } from '../components/google-button.tsx';
import { LegalNotice } from '../components/legal-notice.tsx';
import { clearPostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { fetchSession, sessionQueryKey } from '../../../lib/session.ts';
import { useGoogleSignIn } from '../use-google-sign-in.ts';
import { useReturnedWithError } from '../use-return-error.ts';

const errorId = 'signup-error';

interface FormError {
  message: string;
  field: AuthField | null;
  /** Already registered: offer 'Sign in instead'. */
  offerSignIn?: boolean;
}

/** Where a Google sign-up comes back to, by variant (the yearly offer continues to payment). */
const googleReturn = {
  standard: { callbackURL: routes.dashboard, errorCallbackURL: routes.signup },
  yearly: {
    callbackURL: `${routes.paymentSuccess}?offer=${signupOffer.yearly}`,
    errorCallbackURL: `${routes.signup}?offer=${signupOffer.yearly}`,
  },
} as const;

/**
 * /signup, and /signup?offer=yearly for the quiz funnel's yearly offer: first the ways to sign
 * up (Google when the server offers it, and email), then the email form, with Back to return.
 */
export function SignupPage() {
  usePageTitle(pageTitleMessages.signup);
  const [searchParams] = useSearchParams();
  const yearlyOffer = searchParams.get('offer') === signupOffer.yearly;
  const authOptions = useAuthOptions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const [view, setView] = useState<'options' | 'email'>('options');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const returnedWithError = useReturnedWithError();
  const [error, setError] = useState<FormError | null>(() =>
    returnedWithError ? { message: googleFailedMessage('sign-up'), field: null } : null,
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailOptionRef = useRef<HTMLButtonElement>(null);

  const showGoogleError = useCallback((message: string) => setError({ message, field: null }), []);
  const google = useGoogleSignIn({
    intent: 'sign-up',
    ...(yearlyOffer ? googleReturn.yearly : googleReturn.standard),
    onError: showGoogleError,
  });

  function showEmailForm() {
    setError(null);
    setView('email');
  }

  function backToOptions() {
    setError(null);
    setView('options');
    // Focus returns to where the visitor came from, not to the top of the page.
    requestAnimationFrame(() => emailOptionRef.current?.focus());
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const problem = validateSignUp(email, password);
    if (problem) {
      setError(problem);
      (problem.field === 'email' ? emailRef : passwordRef).current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      // The specification's pre-check: someone already signed in in this browser is told so
      // rather than signed up a second time. If the check itself fails, sign-up decides.
      const existing = await fetchSession().catch(() => null);
      if (existing) {
        setError({ message: signupMessages.alreadySignedIn, field: null });
        setSubmitting(false);
        return;
      }
      await signUpWithEmail({ email: email.trim(), password });
    } catch (failure) {
      const { message, offerSignIn } = signUpFailure(failure);
      setError({ message, field: offerSignIn ? 'email' : null, offerSignIn });
      setSubmitting(false);
      return;
    }
    // Signed up and signed in. The yearly offer continues to its checkout; the stored return path
    // (the quiz results) is kept for the payment success page to take once the plan is active.
    if (!yearlyOffer) clearPostLoginRedirect();
    await queryClient.refetchQueries({ queryKey: sessionQueryKey }).catch(() => undefined);
    if (yearlyOffer) {
      try {
        const answer = await startYearlyCheckout();
        if (!answer?.url) throw new Error(billingMessages.noCheckoutUrl);
        // Stays 'Creating account...' while the browser leaves for the checkout.
        redirectTo(answer.url);
        return;
      } catch (failure) {
        console.warn('Yearly checkout failed', failure);
        notify.error(signupMessages.paymentRedirectFailedTitle, {
          description: signupMessages.paymentRedirectFailedDescription,
        });
      }
    }
    void navigate(routes.dashboard, { replace: true });
  }

  const busy = submitting || google.busy;

  return (
    <AuthPageShell
      title={signupMessages.title}
      subtitle={yearlyOffer ? signupMessages.offerSubtitle : signupMessages.subtitle}
      eyebrow={
        yearlyOffer ? (
          <Badge variant="accent" size="md">
            <Sparkles aria-hidden="true" />
            {signupMessages.offerBadge}
          </Badge>
        ) : null
      }
      sidePanel
    >
      <div className="flex flex-col gap-6">
        {view === 'options' ? (
          <div className="flex flex-col gap-3" aria-busy={!authOptions.ready || undefined}>
            <p className="text-sm font-medium text-neutral-700">{signupMessages.chooseMethod}</p>
            {!authOptions.ready ? (
              // The two buttons' room, so nothing moves when the options arrive.
              <>
                <Skeleton shape="pill" className="h-12 w-full" />
                <Skeleton shape="pill" className="h-12 w-full" />
              </>
            ) : (
              <>
                {authOptions.google ? (
                  <GoogleButton onClick={() => void google.start()} busy={google.busy} />
                ) : null}
                <Button
                  ref={emailOptionRef}
                  variant={authOptions.google ? 'outline' : 'primary'}
                  size="lg"
                  className="w-full"
                  disabled={google.busy}
                  onClick={showEmailForm}
                >
                  <Mail aria-hidden="true" className="size-5" />
                  {signupMessages.continueWithEmail}
                </Button>
              </>
            )}
            {error ? (
              <FormAlert id={errorId} className="mt-2">
                {error.message}
              </FormAlert>
            ) : null}
          </div>
        ) : (
          <form
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            className="flex flex-col gap-5"
            aria-label={signupMessages.continueWithEmail}
          >
            <CredentialsFields
              idPrefix="signup"
              email={email}
              password={password}
              onEmailChange={setEmail}
              onPasswordChange={setPassword}
              invalidField={error?.field ?? null}
              errorId={error ? errorId : undefined}
              passwordAutoComplete="new-password"
              passwordHint={signupMessages.passwordHint}
              emailRef={emailRef}
              passwordRef={passwordRef}
              autoFocus
            />
            {error ? (
              <FormAlert id={errorId}>
                {error.message}
                {error.offerSignIn ? (
                  <>
                    {' '}
                    <Link to={routes.login} className={alertLinkClasses}>
                      {signupMessages.signInInstead}
                    </Link>
                  </>
                ) : null}
              </FormAlert>
            ) : null}
            <div className="mt-1 flex flex-col gap-3">
              <Button type="submit" size="lg" className="w-full" loading={submitting}>
                {submitting
                  ? signupMessages.submitting
                  : yearlyOffer
                    ? signupMessages.submitOffer
                    : signupMessages.submit}
              </Button>
              <Button
                variant="ghost"
                size="lg"
                className="w-full"
                disabled={busy}
                onClick={backToOptions}
              >
                <ArrowLeft aria-hidden="true" className="size-4" />
                {signupMessages.back}
              </Button>
            </div>
          </form>
        )}

        <AuthSwitchLink
          prompt={signupMessages.haveAccount}
          to={routes.login}
          label={signupMessages.signInLink}
        />
        <LegalNotice />
      </div>
    </AuthPageShell>
  );
}
