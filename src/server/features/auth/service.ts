import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type {
  AuthOptionsResponse,
  requestPasswordResetSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
  socialSignInRequestSchema,
} from '../../../common/api/auth.ts';
import {
  authMessages,
  googleMessages,
  passwordResetMessages,
  signupMessages,
} from '../../../common/messages/auth.ts';
import { rateLimits } from '../../../common/product/limits.ts';
import { routes } from '../../../common/product/routes.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/app-error.ts';
import type { Auth } from './auth.ts';
import { translateAuthError } from './auth-errors.ts';
import { isWeakPassword } from './password-rules.ts';
import type { RateLimiter, Verdict } from '../../rate-limits/rate-limiter.ts';

/** Refused by an abuse limit; the route adds `Retry-After`. */
export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('RATE_LIMITED', message);
  }
}

/** Who is asking: the IP (behind TRUST_PROXY when configured) and the request's headers. */
export interface Client {
  ip: string;
  headers: IncomingHttpHeaders;
}

/** What Better Auth answered, ready to send: status, headers to copy, cookies and JSON body. */
export interface AuthAnswer {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: unknown;
}

type Input<T extends z.ZodType> = z.output<T>;

// Headers that describe the browser's connection or body, not the request we rebuild.
const notForwarded = new Set([
  'connection',
  'content-length',
  'content-type',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'x-forwarded-for',
]);
// What Better Auth's answers may carry that the browser needs.
const copiedHeaders = ['location', 'cache-control'];

/**
 * The rules around Better Auth: which requests reach it (already validated by the routes), the
 * abuse limits in front of it, and what of its answers reaches the browser (our error shape and
 * messages; never a session token in a body).
 */
export function createAuthService({
  auth,
  config,
  limiter,
  logger,
}: {
  auth: Auth;
  config: Config;
  limiter: RateLimiter;
  logger?: FastifyBaseLogger;
}) {
  async function forward(
    method: 'GET' | 'POST',
    path: string,
    client: Client,
    body?: unknown,
  ): Promise<Response> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(client.headers)) {
      if (value === undefined || notForwarded.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // Better Auth records the session's IP from this header: the one Fastify resolved, never
    // one the browser made up.
    headers.set('x-forwarded-for', client.ip);
    if (body !== undefined) headers.set('content-type', 'application/json');
    return auth.handler(
      new Request(new URL(`/api/auth${path}`, config.publicUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  }

  async function answer(response: Response): Promise<AuthAnswer> {
    const text = await response.text();
    let body: unknown = null;
    if (text && response.headers.get('content-type')?.includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (response.status >= 400) {
      const error = translateAuthError(response.status, body);
      if (error.statusCode >= 500) logger?.error({ status: response.status, body }, 'auth failed');
      throw error;
    }
    const headers: Record<string, string> = {};
    for (const name of copiedHeaders) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    return {
      status: response.status,
      headers,
      cookies: response.headers.getSetCookie(),
      body: withoutTokens(body),
    };
  }

  async function emailRegistered(email: string): Promise<boolean> {
    const context = await auth.$context;
    return (await context.internalAdapter.findUserByEmail(email)) !== null;
  }

  function refuse(verdict: Verdict, message: (seconds: number) => string): void {
    if (!verdict.allowed)
      throw new RateLimitedError(verdict.retryAfterSeconds, message(verdict.retryAfterSeconds));
  }

  /** One rule counted per IP and per email; the IP is counted first and alone when refused. */
  async function limitByIpAndEmail(
    scope: string,
    client: Client,
    email: string,
    rule: { max: number; windowMs: number },
  ) {
    refuse(await limiter.consume(`${scope}:ip`, client.ip, rule), authMessages.rateLimited);
    refuse(await limiter.consume(`${scope}:email`, email, rule), authMessages.rateLimited);
  }

  return {
    options(): AuthOptionsResponse {
      return { google: Boolean(config.google) };
    },

    async signUp(input: Input<typeof signUpRequestSchema>, client: Client) {
      if (isWeakPassword(input.password, input.email))
        throw new AppError('VALIDATION_ERROR', signupMessages.weakPassword);
      await limitByIpAndEmail('sign-up', client, input.email, rateLimits.signUp);
      const name = input.name || input.email.split('@')[0] || input.email;
      const response = await forward('POST', '/sign-up/email', client, {
        email: input.email,
        password: input.password,
        name,
      });
      // Better Auth checks the address, then inserts: a concurrent sign-up with the same address
      // wins the unique index in between and this one fails as a server error (or its 422 for a
      // failed write). The address is taken all the same, so it gets the sequential duplicate's
      // answer.
      const writeFailed = response.status >= 500 || response.status === 422;
      if (writeFailed && (await emailRegistered(input.email)))
        throw new AppError('CONFLICT', signupMessages.alreadyRegistered);
      return answer(response);
    },

    async signIn(input: Input<typeof signInRequestSchema>, client: Client) {
      await limitByIpAndEmail('sign-in', client, input.email, rateLimits.signIn);
      // Repeated failures for one email make it wait, longer after each further failure.
      refuse(
        await limiter.backoff('sign-in-failures', input.email, rateLimits.signInFailures),
        authMessages.signInLocked,
      );
      const response = await forward('POST', '/sign-in/email', client, input);
      if (response.status === 401) {
        await limiter.recordFailure('sign-in-failures', input.email, rateLimits.signInFailures);
      } else if (response.ok) {
        await limiter.forget('sign-in-failures', input.email);
      }
      return answer(response);
    },

    async socialSignIn(input: Input<typeof socialSignInRequestSchema>, client: Client) {
      if (!config.google) throw new AppError('NOT_FOUND', googleMessages.unavailable);
      refuse(
        await limiter.consume('sign-in:ip', client.ip, rateLimits.signIn),
        authMessages.rateLimited,
      );
      return answer(await forward('POST', '/sign-in/social', client, input));
    },

    /** Google's redirect back: Better Auth checks state and PKCE, then redirects the browser. */
    async oauthCallback(providerId: string, search: string, client: Client) {
      return answer(
        await forward('GET', `/callback/${encodeURIComponent(providerId)}${search}`, client),
      );
    },

    async requestPasswordReset(input: Input<typeof requestPasswordResetSchema>, client: Client) {
      await limitByIpAndEmail('password-reset', client, input.email, rateLimits.passwordReset);
      const result = await answer(
        await forward('POST', '/request-password-reset', client, { email: input.email }),
      );
      // The same words whether or not the address has an account.
      return { ...result, body: { status: true, message: passwordResetMessages.sent } };
    },

    /** The emailed link: checks the token and redirects to the reset page with it (or an error). */
    async openResetLink(token: string, client: Client) {
      const callbackURL = encodeURIComponent(routes.resetPassword);
      return answer(
        await forward(
          'GET',
          `/reset-password/${encodeURIComponent(token)}?callbackURL=${callbackURL}`,
          client,
        ),
      );
    },

    async resetPassword(input: Input<typeof resetPasswordRequestSchema>, client: Client) {
      if (isWeakPassword(input.newPassword))
        throw new AppError('VALIDATION_ERROR', signupMessages.weakPassword);
      // Tokens are long and random; this only keeps one address from hammering the endpoint.
      refuse(
        await limiter.consume('reset-password:ip', client.ip, rateLimits.passwordReset),
        authMessages.rateLimited,
      );
      return answer(await forward('POST', '/reset-password', client, input));
    },
  };
}

/** Session tokens live in the httpOnly cookie only; page scripts never see one. */
function withoutTokens(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { token: _token, ...rest } = body as Record<string, unknown>;
  return rest;
}

export type AuthService = ReturnType<typeof createAuthService>;
