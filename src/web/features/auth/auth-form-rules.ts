import {
  authMessages,
  googleMessages,
  loginMessages,
  passwordResetMessages,
  signupMessages,
} from '../../../common/messages/auth.ts';
import { auth as authLimits } from '../../../common/product/auth.ts';
import { isApiError } from '../../lib/api-client.ts';

/**
 * What the auth forms check before sending, and how they word what the server answered. Kept
 * apart from the pages so the order of the checks and the wording are tested on their own.
 */

export type AuthField = 'email' | 'password';

export interface FormProblem {
  message: string;
  /** The field to mark invalid and move focus to. */
  field: AuthField;
}

// Deliberately loose (something@something.tld): the server has the final say, this only saves
// a round trip for an obvious typo.
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function missingField(email: string, password: string): FormProblem | null {
  if (email.trim() && password) return null;
  return { message: loginMessages.missingFields, field: email.trim() ? 'password' : 'email' };
}

/** Login: both fields are required ('Please enter both email and password'). */
export function validateSignIn(email: string, password: string): FormProblem | null {
  return missingField(email, password);
}

/** Sign-up, in the specification's order: both fields, then the password's length. */
export function validateSignUp(email: string, password: string): FormProblem | null {
  const missing = missingField(email, password);
  if (missing) return missing;
  if (password.length < authLimits.passwordMinLength)
    return { message: signupMessages.passwordTooShort, field: 'password' };
  if (password.length > authLimits.passwordMaxLength)
    return { message: signupMessages.passwordTooLong, field: 'password' };
  if (!emailShape.test(email.trim())) return { message: authMessages.invalidEmail, field: 'email' };
  return null;
}

/** The reset page's email: present and plausibly an address. */
export function validateResetEmail(email: string): string | null {
  if (!email.trim()) return passwordResetMessages.emailMissing;
  if (!emailShape.test(email.trim())) return authMessages.invalidEmail;
  return null;
}

/** A new password on the reset page: present, long enough, typed the same twice. */
export function validateNewPassword(
  password: string,
  confirmation: string,
): { message: string; field: 'password' | 'confirmation' } | null {
  if (!password) return { message: passwordResetMessages.passwordMissing, field: 'password' };
  if (password.length < authLimits.passwordMinLength)
    return { message: signupMessages.passwordTooShort, field: 'password' };
  if (password.length > authLimits.passwordMaxLength)
    return { message: signupMessages.passwordTooLong, field: 'password' };
  if (password !== confirmation)
    return { message: passwordResetMessages.passwordsDoNotMatch, field: 'confirmation' };
  return null;
}

/** Login failures: the server's own words (ours, translated), else the specification's. */
export function signInErrorMessage(error: unknown): string {
  if (isApiError(error)) return error.message || loginMessages.failed;
  return loginMessages.unexpectedError;
}

export interface SignUpFailure {
  message: string;
  /** Already registered: the message comes with a 'Sign in instead' link. */
  offerSignIn: boolean;
}

/** The reset endpoint's refusal of a used-up or expired link (ours, or Better Auth's own). */
export function isRefusedResetLink(error: unknown): boolean {
  return (
    isApiError(error) && ['BAD_REQUEST', 'INVALID_TOKEN', 'TOKEN_EXPIRED'].includes(error.code)
  );
}

const alreadyRegisteredWords = /already registered|already in use|already exists/i;
const weakPasswordWords = /weak|too common|compromised|pwned/i;

/** Sign-up failures, recognised as the specification lists them. */
export function signUpFailure(error: unknown): SignUpFailure {
  if (!isApiError(error)) return { message: signupMessages.failed, offerSignIn: false };
  if (
    error.code === 'CONFLICT' ||
    error.code.startsWith('USER_ALREADY_EXISTS') ||
    alreadyRegisteredWords.test(error.message)
  ) {
    return { message: signupMessages.alreadyRegistered, offerSignIn: true };
  }
  if (error.code === 'WEAK_PASSWORD' || weakPasswordWords.test(error.message)) {
    return { message: signupMessages.weakPassword, offerSignIn: false };
  }
  return { message: error.message || signupMessages.failed, offerSignIn: false };
}

export type GoogleIntent = 'sign-in' | 'sign-up';

/**
 * Google failures: the server refused to start (an answer) or something went wrong on the way
 * (no answer at all), each in the specification's words for login and for sign-up.
 */
export function googleErrorMessage(intent: GoogleIntent, error: unknown): string {
  if (isApiError(error) && error.status > 0) return googleFailedMessage(intent);
  return intent === 'sign-in' ? googleMessages.signInError : googleMessages.signUpError;
}

/**
 * Google sign-in did not work out: no address to go to, or Google sent the visitor back with
 * `?error=...`. In the page's words.
 */
export function googleFailedMessage(intent: GoogleIntent): string {
  return intent === 'sign-in' ? googleMessages.signInFailed : googleMessages.signUpFailed;
}
