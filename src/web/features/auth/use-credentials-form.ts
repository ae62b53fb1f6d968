import { useCallback, useRef, useState } from 'react';
import {
  googleFailedMessage,
  type AuthField,
  type FormProblem,
  type GoogleIntent,
} from './auth-form-rules.ts';
import { useReturnedWithError } from './use-return-error.ts';

export interface CredentialsFormError {
  message: string;
  /** The field to mark invalid, or null for a problem with the whole form. */
  field: AuthField | null;
  /** Already registered: offer 'Sign in instead'. */
  offerSignIn?: boolean;
}

/**
 * What login and sign-up share: the email and password, the form's error (Google's own, when
 * the visitor came back from a Google attempt that failed) and the check before sending.
 */
export function useCredentialsForm(
  intent: GoogleIntent,
  validate: (email: string, password: string) => FormProblem | null,
) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const returnedWithError = useReturnedWithError();
  const [error, setError] = useState<CredentialsFormError | null>(() =>
    returnedWithError ? { message: googleFailedMessage(intent), field: null } : null,
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const showGoogleError = useCallback((message: string) => setError({ message, field: null }), []);

  /**
   * Before sending: false while a send runs, or when a field is not right (its problem is shown
   * and focus moves to it); otherwise the error is cleared and the form is marked as sending.
   */
  function startSubmit(): boolean {
    if (submitting) return false;
    const problem = validate(email, password);
    if (problem) {
      setError(problem);
      (problem.field === 'email' ? emailRef : passwordRef).current?.focus();
      return false;
    }
    setError(null);
    setSubmitting(true);
    return true;
  }

  return {
    email,
    setEmail,
    password,
    setPassword,
    submitting,
    setSubmitting,
    error,
    setError,
    emailRef,
    passwordRef,
    showGoogleError,
    startSubmit,
  };
}

export type CredentialsForm = ReturnType<typeof useCredentialsForm>;
