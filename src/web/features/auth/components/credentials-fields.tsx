import type { ReactNode } from 'react';
import { authMessages } from '../../../../common/messages/auth.ts';
import { describedBy, fieldHintId, FormField } from '../../../components/ui/form-field.tsx';
import { Input, type InputProps } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import type { CredentialsForm } from '../use-credentials-form.ts';

export interface CredentialsFieldsProps {
  /** Makes the field ids unique on the page. */
  idPrefix: string;
  /** The form's state; the field its error is about is marked invalid and described by it. */
  form: CredentialsForm;
  /** The id of the form's error message (shown while the form has an error). */
  errorId: string;
  /** Login fills in a saved password; sign-up asks the password manager for a new one. */
  passwordAutoComplete: 'current-password' | 'new-password';
  passwordHint?: string;
  /** Beside the password label ("Forgot password"). */
  passwordAside?: ReactNode;
  autoFocus?: boolean;
}

/** An email address field's input, as every auth form asks for one. */
export function EmailInput(props: Omit<InputProps, 'name' | 'type'>) {
  return (
    <Input
      name="email"
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      placeholder={authMessages.emailPlaceholder}
      {...props}
    />
  );
}

/** Email and password, as login and sign-up both ask for them. */
export function CredentialsFields({
  idPrefix,
  form,
  errorId: formErrorId,
  passwordAutoComplete,
  passwordHint,
  passwordAside,
  autoFocus = false,
}: CredentialsFieldsProps) {
  const invalidField = form.error?.field ?? null;
  const errorId = form.error ? formErrorId : undefined;
  const emailId = `${idPrefix}-email`;
  const passwordId = `${idPrefix}-password`;
  return (
    <>
      <FormField id={emailId} label={authMessages.emailLabel}>
        <EmailInput
          ref={form.emailRef}
          id={emailId}
          // A page whose only purpose is this form: the visitor came here to type into it.
          autoFocus={autoFocus}
          value={form.email}
          onChange={(event) => form.setEmail(event.target.value)}
          invalid={invalidField === 'email'}
          aria-describedby={describedBy(invalidField === 'email' && errorId)}
        />
      </FormField>
      <FormField
        id={passwordId}
        label={authMessages.passwordLabel}
        labelAside={passwordAside}
        hint={passwordHint}
      >
        <PasswordInput
          ref={form.passwordRef}
          id={passwordId}
          name="password"
          autoComplete={passwordAutoComplete}
          value={form.password}
          onChange={(event) => form.setPassword(event.target.value)}
          invalid={invalidField === 'password'}
          aria-describedby={describedBy(
            passwordHint && fieldHintId(passwordId),
            invalidField === 'password' && errorId,
          )}
        />
      </FormField>
    </>
  );
}
