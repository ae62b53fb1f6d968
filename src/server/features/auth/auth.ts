import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyBaseLogger } from 'fastify';
import { auth as authLimits } from '../../../common/product/auth.ts';
import { routes } from '../../../common/product/routes.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema/auth.ts';
import { googleProvider } from './google.ts';

export interface AuthOptions {
  config: Config;
  db: Database;
  logger?: FastifyBaseLogger;
  /** Sends the reset email; `url` opens the web app's reset page once its token is checked. */
  sendResetPassword?: (email: string, url: string) => Promise<void>;
  /**
   * Called for each session Better Auth deletes (sign-out, password reset, expiry), after its
   * transaction, so open event streams of that session close in every process.
   */
  onSessionEnded?: (session: { id: string; userId: string }) => Promise<void>;
  /** Called once a user is created (email sign-up or a first Google sign-in). */
  onUserCreated?: (userId: string) => Promise<void>;
}

/**
 * The link in a reset email. Better Auth's `GET /reset-password/:token` checks the token and
 * redirects to our page as `/reset-password?token=...` (or `?error=INVALID_TOKEN` when it is used
 * up or expired). The page is fixed here, not taken from the request, so a reset email can never
 * lead anywhere else.
 */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(routes.resetPassword)}`;
}

/**
 * Better Auth owns passwords, sessions and Google sign-in; sessions live in our database and
 * reach the browser only as an httpOnly cookie. The browser reaches it only through the auth
 * routes, which validate, rate-limit and translate what goes in and out.
 */
export function createAuth({
  config,
  db,
  logger,
  sendResetPassword,
  onSessionEnded,
  onUserCreated,
}: AuthOptions) {
  return betterAuth({
    appName: 'Likeness',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, { provider: 'pg', schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: authLimits.passwordMinLength,
      maxPasswordLength: authLimits.passwordMaxLength,
      resetPasswordTokenExpiresIn: authLimits.passwordResetTokenTtlSeconds,
      // A reset ends every session: whoever knew the old password is signed out everywhere.
      revokeSessionsOnPasswordReset: true,
      ...(sendResetPassword
        ? {
            sendResetPassword: ({ user, token }: { user: { email: string }; token: string }) =>
              sendResetPassword(user.email, passwordResetLink(config.publicUrl, token)),
          }
        : {}),
    },
    account: {
      // Offline access leaves Google refresh tokens with us; they are kept encrypted.
      encryptOAuthTokens: true,
    },
    plugins: config.google ? [genericOAuth({ config: [googleProvider(config.google)] })] : [],
    user: {
      additionalFields: { role: { type: 'string', defaultValue: 'user', input: false } },
    },
    // A failed Google sign-in comes back to the login page with `?error=<code>` unless the
    // web app named another page (errorCallbackURL).
    onAPIError: { errorURL: routes.login },
    advanced: {
      cookiePrefix: 'likeness',
      useSecureCookies: config.env === 'production',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // The reset email is queued after the answer, so a known and an unknown address take the
      // same time to answer (Better Auth logs a failure; it never reaches the visitor).
      backgroundTasks: { handler: () => {} },
    },
    // No cookie cache: every request reads the session row, so a revoked session ends at once.
    session: { cookieCache: { enabled: false } },
    databaseHooks: {
      // The account's own rows, so that /api/me reads them in one round trip. A failure here
      // leaves the account usable: /api/me makes them on first read.
      ...(onUserCreated && {
        user: {
          create: {
            after: async (created) => {
              await onUserCreated(created.id).catch((error: unknown) =>
                logger?.error({ err: error }, 'the rows of a new account were not made'),
              );
            },
          },
        },
      }),
      ...(onSessionEnded && {
        session: {
          delete: {
            // A failed announcement must not undo the sign-out; the stream's own expiry and
            // resync checks still end it.
            after: async (session) => {
              await onSessionEnded({ id: session.id, userId: session.userId }).catch(
                (error: unknown) =>
                  logger?.error({ err: error }, 'the end of a session was not announced'),
              );
            },
          },
        },
      }),
    },
    // Our own limiter (per IP and per email, in Postgres) guards these routes; see service.ts.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        if (!logger) return;
        const details = args.length ? { details: args } : {};
        if (level === 'error') logger.error(details, `auth: ${message}`);
        else if (level === 'warn') logger.warn(details, `auth: ${message}`);
        else logger.info(details, `auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
