import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import {
  authMessages,
  passwordResetMessages,
  signupMessages,
} from '../../../../common/messages/auth.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { describedBy, fieldHintId, FormField } from '../../../components/ui/form-field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { requestPasswordReset, resetPassword } from '../auth-api.ts';
import { isRefusedResetLink, validateNewPassword, validateResetEmail } from '../auth-form-rules.ts';
import { inlineLinkClasses } from '../components/auth-links.tsx';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { EmailInput } from '../components/credentials-fields.tsx';
import { sessionQueryKey } from '../../../lib/session.ts';

const text = passwordResetMessages;

/**
 * /reset-password. Without a token: ask for the email and send a link (the answer is the same
 * whether or not the address has an account). The emailed link passes through the server, which
 * checks the token and lands here as ?token=... (choose a new password) or ?error=INVALID_TOKEN.
 */
export function ResetPasswordPage() {
  usePageTitle(pageTitleMessages.resetPassword);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  // A link the server refused on arrival (?error=INVALID_TOKEN) or when the password was sent.
  const [refusedToken, setRefusedToken] = useState<string | null>(null);

  if (searchParams.has('error') || (token && token === refusedToken)) return <InvalidLink />;
  if (token) {
    return (
      <NewPasswordForm key={token} token={token} onLinkRefused={() => setRefusedToken(token)} />
    );
  }
  return <RequestLinkForm />;
}

function BackToLogin() {
  return (
    <Link
      to={routes.login}
      className={`inline-flex items-center gap-2 self-start text-sm ${inlineLinkClasses}`}
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {text.backToLogin}
    </Link>
  );
}

function RequestLinkForm() {
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const errorId = 'reset-request-error';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const address = email.trim();
    const problem = validateResetEmail(address);
    if (problem) {
      setError(problem);
      emailRef.current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await requestPasswordReset({ email: address });
      setSentTo(address);
    } catch (failure) {
      // Refusals (too many requests, a malformed address) are the server's words; anything
      // else is said plainly rather than pretending an email is on its way.
      setError(isApiError(failure) ? failure.message : commonMessages.unexpectedError);
    } finally {
      setSubmitting(false);
    }
  }

  if (sentTo) {
    return (
      <AuthPageShell title={text.sentTitle}>
        <div className="flex flex-col gap-6">
          <FormAlert tone="success">{text.sent}</FormAlert>
          <p className="text-sm leading-relaxed text-neutral-600">{text.sentHint}</p>
          <div className="flex flex-wrap items-center gap-3">
            <Button asChild size="lg">
              <Link to={routes.login}>{text.goToSignIn}</Link>
            </Button>
            <Button variant="outline" size="lg" onClick={() => setSentTo(null)}>
              <MailCheck aria-hidden="true" className="size-4" />
              {text.sendAgain}
            </Button>
          </div>
        </div>
      </AuthPageShell>
    );
  }

  return (
    <AuthPageShell title={text.title} subtitle={text.intro}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
        <FormField id="reset-email" label={authMessages.emailLabel}>
          <EmailInput
            ref={emailRef}
            id="reset-email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            invalid={Boolean(error)}
            aria-describedby={describedBy(error && errorId)}
          />
        </FormField>
        {error ? <FormAlert id={errorId}>{error}</FormAlert> : null}
        <Button type="submit" size="lg" className="mt-1 w-full" loading={submitting}>
          {submitting ? text.submitting : text.submit}
        </Button>
        <BackToLogin />
      </form>
    </AuthPageShell>
  );
}

function NewPasswordForm({ token, onLinkRefused }: { token: string; onLinkRefused: () => void }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<{
    message: string;
    field: 'password' | 'confirmation' | null;
  } | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const errorId = 'reset-error';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const problem = validateNewPassword(password, confirmation);
    if (problem) {
      setError(problem);
      (problem.field === 'password' ? passwordRef : confirmationRef).current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await resetPassword({ token, newPassword: password });
      // The server ended every session of the account; this tab's cached one is stale too.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      setDone(true);
    } catch (failure) {
      if (isRefusedResetLink(failure)) {
        onLinkRefused();
        return;
      }
      setError({
        message: isApiError(failure) ? failure.message : text.failed,
        field: null,
      });
    } finally {
      setSubmitting(false);
    }
  }

  if (done) {
    return (
      <AuthPageShell title={text.updatedTitle}>
        <div className="flex flex-col gap-6">
          <FormAlert tone="success">{text.updated}</FormAlert>
          <Button asChild size="lg" className="self-start">
            <Link to={routes.login}>{text.goToSignIn}</Link>
          </Button>
        </div>
      </AuthPageShell>
    );
  }

  return (
    <AuthPageShell title={text.newPasswordTitle} subtitle={text.newPasswordIntro}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
        <FormField
          id="new-password"
          label={text.newPasswordLabel}
          hint={signupMessages.passwordHint}
        >
          <PasswordInput
            ref={passwordRef}
            id="new-password"
            name="new-password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            invalid={error?.field === 'password'}
            aria-describedby={describedBy(
              fieldHintId('new-password'),
              error?.field === 'password' && errorId,
            )}
          />
        </FormField>
        <FormField id="confirm-password" label={text.confirmPasswordLabel}>
          <PasswordInput
            ref={confirmationRef}
            id="confirm-password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            invalid={error?.field === 'confirmation'}
            aria-describedby={describedBy(error?.field === 'confirmation' && errorId)}
          />
        </FormField>
        {error ? <FormAlert id={errorId}>{error.message}</FormAlert> : null}
        <Button type="submit" size="lg" className="mt-1 w-full" loading={submitting}>
          {submitting ? text.updating : text.update}
        </Button>
        <BackToLogin />
      </form>
    </AuthPageShell>
  );
}

function InvalidLink() {
  return (
    <AuthPageShell title={text.invalidLinkTitle}>
      <div className="flex flex-col gap-6">
        <FormAlert>{text.invalidLink}</FormAlert>
        <div className="flex flex-wrap items-center gap-3">
          <Button asChild size="lg">
            <Link to={routes.resetPassword}>{text.requestNewLink}</Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to={routes.login}>{text.backToLogin}</Link>
          </Button>
        </div>
      </div>
    </AuthPageShell>
  );
}
