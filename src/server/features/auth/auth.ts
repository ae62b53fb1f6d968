import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { passwordMinLength } from '../../../common/product.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema/auth.ts';

export interface AuthOptions {
  config: Config;
  db: Database;
  sendResetPassword?: (email: string, url: string) => Promise<void>;
}

/**
 * Better Auth owns passwords, sessions and Google sign-in; sessions live in our database and
 * reach the browser only as an httpOnly cookie.
 */
export function createAuth({ config, db, sendResetPassword }: AuthOptions) {
  return betterAuth({
    appName: 'Likeness',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, { provider: 'pg', schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordMinLength,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      ...(sendResetPassword
        ? {
            sendResetPassword: ({ user, url }: { user: { email: string }; url: string }) =>
              sendResetPassword(user.email, url),
          }
        : {}),
    },
    socialProviders: config.google
      ? {
          google: {
            clientId: config.google.clientId,
            clientSecret: config.google.clientSecret,
            accessType: 'offline',
            prompt: 'select_account consent',
          },
        }
      : {},
    user: {
      additionalFields: { role: { type: 'string', defaultValue: 'user', input: false } },
    },
    advanced: {
      cookiePrefix: 'likeness',
      useSecureCookies: config.env === 'production',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    // Our own limiter (per IP and per email) guards these routes; see the auth routes.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
