import { useRef, useState, type FormEvent } from 'react';
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
import { signUpFailure, validateSignUp } from '../auth-form-rules.ts';
import { alertLinkClasses, AuthSwitchLink } from '../components/auth-links.tsx';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { CredentialsFields } from '../components/credentials-fields.tsx';
import { GoogleButton } from '../components/google-button.tsx';
import { LegalNotice } from '../components/legal-notice.tsx';
import { clearPostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { fetchSession, sessionQueryKey } from '../../../lib/session.ts';
import { useCredentialsForm } from '../use-credentials-form.ts';
import { useGoogleSignIn } from '../use-google-sign-in.ts';

const errorId = 'signup-error';

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
  const form = useCredentialsForm('sign-up', validateSignUp);
  const emailOptionRef = useRef<HTMLButtonElement>(null);

  const google = useGoogleSignIn({
    intent: 'sign-up',
    ...(yearlyOffer ? googleReturn.yearly : googleReturn.standard),
    onError: form.showGoogleError,
  });

  function showEmailForm() {
    form.setError(null);
    setView('email');
  }

  function backToOptions() {
    form.setError(null);
    setView('options');
    // Focus returns to where the visitor came from, not to the top of the page.
    requestAnimationFrame(() => emailOptionRef.current?.focus());
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.startSubmit()) return;
    try {
      // The specification's pre-check: someone already signed in in this browser is told so
      // rather than signed up a second time. If the check itself fails, sign-up decides.
      const existing = await fetchSession().catch(() => null);
      if (existing) {
        form.setError({ message: signupMessages.alreadySignedIn, field: null });
        form.setSubmitting(false);
        return;
      }
      await signUpWithEmail({ email: form.email.trim(), password: form.password });
    } catch (failure) {
      const { message, offerSignIn } = signUpFailure(failure);
      form.setError({ message, field: offerSignIn ? 'email' : null, offerSignIn });
      form.setSubmitting(false);
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

  const busy = form.submitting || google.busy;

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
            {form.error ? (
              <FormAlert id={errorId} className="mt-2">
                {form.error.message}
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
              form={form}
              errorId={errorId}
              passwordAutoComplete="new-password"
              passwordHint={signupMessages.passwordHint}
              autoFocus
            />
            {form.error ? (
              <FormAlert id={errorId}>
                {form.error.message}
                {form.error.offerSignIn ? (
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
              <Button type="submit" size="lg" className="w-full" loading={form.submitting}>
                {form.submitting
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
