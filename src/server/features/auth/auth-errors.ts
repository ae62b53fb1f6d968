import type { ErrorCode } from '../../../common/errors.ts';
import {
  authMessages,
  googleMessages,
  loginMessages,
  passwordResetMessages,
  signupMessages,
} from '../../../common/messages/auth.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { commonMessages } from '../../../common/messages/shell.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * Better Auth answers errors as `{ code, message }` in its own words. The web app gets our wire
 * shape and our messages instead, with codes it can act on: CONFLICT (already registered: offer
 * "Sign in instead"), VALIDATION_ERROR (short, long or weak password, bad email), UNAUTHORIZED
 * (wrong email or password), BAD_REQUEST (a reset link that is used up or expired).
 */
const translations: Record<string, [ErrorCode, string]> = {
  USER_ALREADY_EXISTS: ['CONFLICT', signupMessages.alreadyRegistered],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: ['CONFLICT', signupMessages.alreadyRegistered],
  PASSWORD_TOO_SHORT: ['VALIDATION_ERROR', signupMessages.passwordTooShort],
  PASSWORD_TOO_LONG: ['VALIDATION_ERROR', signupMessages.passwordTooLong],
  INVALID_EMAIL: ['VALIDATION_ERROR', authMessages.invalidEmail],
  INVALID_EMAIL_OR_PASSWORD: ['UNAUTHORIZED', loginMessages.invalidCredentials],
  INVALID_PASSWORD: ['UNAUTHORIZED', loginMessages.invalidCredentials],
  INVALID_TOKEN: ['BAD_REQUEST', passwordResetMessages.invalidLink],
  TOKEN_EXPIRED: ['BAD_REQUEST', passwordResetMessages.invalidLink],
  PROVIDER_NOT_FOUND: ['NOT_FOUND', googleMessages.unavailable],
  INVALID_ORIGIN: ['FORBIDDEN', authMessages.crossSiteRefused],
  MISSING_OR_NULL_ORIGIN: ['FORBIDDEN', authMessages.crossSiteRefused],
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: ['FORBIDDEN', authMessages.crossSiteRefused],
  INVALID_CALLBACK_URL: ['VALIDATION_ERROR', authMessages.invalidRedirect],
  INVALID_REDIRECT_URL: ['VALIDATION_ERROR', authMessages.invalidRedirect],
  INVALID_ERROR_CALLBACK_URL: ['VALIDATION_ERROR', authMessages.invalidRedirect],
  INVALID_NEW_USER_CALLBACK_URL: ['VALIDATION_ERROR', authMessages.invalidRedirect],
  // Better Auth answers 422/400 when its write fails (the database is down): our fault, not the user's.
  FAILED_TO_CREATE_USER: ['INTERNAL', httpMessages.serverError],
  FAILED_TO_CREATE_SESSION: ['INTERNAL', httpMessages.serverError],
};

function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return 'INTERNAL';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

/** Our error for a Better Auth error answer; `betterAuthCode` is what Better Auth called it. */
export function translateAuthError(status: number, body: unknown): AppError {
  const betterAuthCode =
    typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string'
      ? body.code
      : undefined;
  const known = betterAuthCode ? translations[betterAuthCode] : undefined;
  if (known) return new AppError(known[0], known[1]);
  return new AppError(codeForStatus(status), commonMessages.unexpectedError);
}
