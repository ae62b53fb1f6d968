import { z } from 'zod';
import {
  authMessages,
  googleMessages,
  loginMessages,
  passwordResetMessages,
  signupMessages,
} from '../messages/auth.ts';
import { auth as authLimits } from '../product/auth.ts';
import { routes } from '../product/routes.ts';

/**
 * The bodies the web app sends to `/api/auth/*`. The server validates them with these schemas
 * before Better Auth sees them, so every refusal carries one of our messages; the browser may
 * use the same schemas to check a form before sending it.
 */

/** `GET /api/auth-options`: which sign-in buttons the pages show. */
export const authOptionsResponseSchema = z.object({ google: z.boolean() });
export type AuthOptionsResponse = z.infer<typeof authOptionsResponseSchema>;

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;
const probeOrigin = 'https://relative.invalid';

/**
 * True for a path on this site ('/dashboard', '/payment-success?offer=yearly'); false for
 * anything a browser could resolve to another site ('//evil.example', '/\\evil.example',
 * 'https://...', encoded slashes).
 */
export function isSafeRelativePath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  if (controlCharacters.test(value)) return false;
  const pathEnd = value.search(/[?#]/);
  if (/%2f|%5c/i.test(pathEnd === -1 ? value : value.slice(0, pathEnd))) return false;
  try {
    return new URL(value, probeOrigin).origin === probeOrigin;
  } catch {
    return false;
  }
}

export const relativePathSchema = z
  .string(authMessages.invalidRedirect)
  .max(2048, authMessages.invalidRedirect)
  .refine(isSafeRelativePath, authMessages.invalidRedirect);

const emailSchema = z
  .string({ error: loginMessages.missingFields })
  .trim()
  .toLowerCase()
  .min(1, loginMessages.missingFields)
  .max(254, authMessages.invalidEmail)
  .pipe(z.email({ error: authMessages.invalidEmail }));

/** A password being chosen (sign-up, reset): the length rules of the specification. */
const newPasswordSchema = z
  .string({ error: loginMessages.missingFields })
  .min(1, loginMessages.missingFields)
  .min(authLimits.passwordMinLength, signupMessages.passwordTooShort)
  .max(authLimits.passwordMaxLength, signupMessages.passwordTooLong);

/** `POST /api/auth/sign-up/email`. `name` defaults to the part of the email before the @. */
export const signUpRequestSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: z
    .string(authMessages.invalidRequest)
    .trim()
    .max(100, authMessages.invalidRequest)
    .optional(),
});
export type SignUpRequest = z.input<typeof signUpRequestSchema>;

/** `POST /api/auth/sign-in/email`. */
export const signInRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: loginMessages.missingFields })
    .min(1, loginMessages.missingFields)
    .max(authLimits.passwordMaxLength, loginMessages.invalidCredentials),
  rememberMe: z.boolean(authMessages.invalidRequest).optional(),
});
export type SignInRequest = z.input<typeof signInRequestSchema>;

/**
 * `POST /api/auth/sign-in/social`: answers `{ url, redirect: true }`; the browser navigates to
 * `url` (Google), which comes back to `callbackURL` signed in, or to `errorCallbackURL` with
 * `?error=<code>`. Both must be paths on this site.
 */
export const socialSignInRequestSchema = z.object({
  provider: z.literal('google', googleMessages.unavailable),
  callbackURL: relativePathSchema.default(routes.dashboard),
  errorCallbackURL: relativePathSchema.default(routes.login),
  newUserCallbackURL: relativePathSchema.optional(),
});
export type SocialSignInRequest = z.input<typeof socialSignInRequestSchema>;

/** `POST /api/auth/request-password-reset`: the same answer whether or not the email exists. */
export const requestPasswordResetSchema = z.object({ email: emailSchema });
export type RequestPasswordResetRequest = z.input<typeof requestPasswordResetSchema>;

/** `POST /api/auth/reset-password`, with the token the reset page found in its URL. */
export const resetPasswordRequestSchema = z.object({
  token: z
    .string({ error: passwordResetMessages.invalidLink })
    .min(1, passwordResetMessages.invalidLink)
    .max(256, passwordResetMessages.invalidLink),
  newPassword: newPasswordSchema,
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** What sign-up and sign-in answer on success (the session itself is only in the cookie). */
export const authUserResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    emailVerified: z.boolean(),
    image: z.string().nullable().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
});
export type AuthUserResponse = z.infer<typeof authUserResponseSchema>;
