import type { ReactNode, Ref } from 'react';
import { authMessages } from '../../../../common/messages/auth.ts';
import { describedBy, fieldHintId, FormField } from '../../../components/ui/form-field.tsx';
import { Input, type InputProps } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import type { AuthField } from '../auth-form-rules.ts';

export interface CredentialsFieldsProps {
  /** Makes the field ids unique on the page. */
  idPrefix: string;
  email: string;
  password: string;
  onEmailChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
  /** The field the form's error is about: marked invalid and described by the error. */
  invalidField: AuthField | null;
  /** The id of the form's error message, while one is shown. */
  errorId: string | undefined;
  /** Login fills in a saved password; sign-up asks the password manager for a new one. */
  passwordAutoComplete: 'current-password' | 'new-password';
  passwordHint?: string;
  /** Beside the password label ("Forgot password"). */
  passwordAside?: ReactNode;
  emailRef: Ref<HTMLInputElement>;
  passwordRef: Ref<HTMLInputElement>;
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
  email,
  password,
  onEmailChange,
  onPasswordChange,
  invalidField,
  errorId,
  passwordAutoComplete,
  passwordHint,
  passwordAside,
  emailRef,
  passwordRef,
  autoFocus = false,
}: CredentialsFieldsProps) {
  const emailId = `${idPrefix}-email`;
  const passwordId = `${idPrefix}-password`;
  return (
    <>
      <FormField id={emailId} label={authMessages.emailLabel}>
        <EmailInput
          ref={emailRef}
          id={emailId}
          // A page whose only purpose is this form: the visitor came here to type into it.
          autoFocus={autoFocus}
          value={email}
          onChange={(event) => onEmailChange(event.target.value)}
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
          ref={passwordRef}
          id={passwordId}
          name="password"
          autoComplete={passwordAutoComplete}
          value={password}
          onChange={(event) => onPasswordChange(event.target.value)}
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
