import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type FastifyPluginAsyncZod,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authOptionsResponseSchema,
  authUserResponseSchema,
  requestPasswordResetSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
  socialSignInRequestSchema,
} from '../../../common/api/auth.ts';
import { authMessages } from '../../../common/messages/auth.ts';
import { AppError } from '../../http/app-error.ts';
import { type AuthAnswer, type AuthService, type Client, RateLimitedError } from './service.ts';
import { type SessionService, signOutEverywhereRoute } from './sessions.ts';

const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  headers: request.headers,
});

function send(reply: FastifyReply, answer: AuthAnswer) {
  reply.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  if (answer.cookies.length) reply.header('set-cookie', answer.cookies);
  // Answers that set or read a session are never cached by a browser or proxy.
  reply.header('cache-control', 'no-store');
  return answer.body === null ? reply.send() : reply.send(answer.body);
}

const passwordResetAnswerSchema = z.object({ status: z.literal(true), message: z.string() });

/**
 * `/api/auth/*`: only the Better Auth endpoints the web app uses are reachable, each validated
 * here with the shared schemas (so every refusal is one of our messages), rate-limited and
 * translated by the service. Better Auth's other endpoints (account linking, token reads,
 * session lists...) are not exposed at all.
 */
export const authRoutes: FastifyPluginAsyncZod<{
  service: AuthService;
  sessions: SessionService;
}> = async (app, { service, sessions }) => {
  app.setErrorHandler((error: FastifyError | AppError, _request, reply) => {
    if (error instanceof RateLimitedError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
    // The first problem, in the schema's own words (our messages), without a field prefix.
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.instancePath ? first.message : undefined;
      throw new AppError('VALIDATION_ERROR', message ?? authMessages.invalidRequest);
    }
    throw error;
  });

  app.get(
    '/api/auth-options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Which sign-in methods are available (Google only when configured)',
        response: { 200: authOptionsResponseSchema },
      },
    },
    () => service.options(),
  );

  app.post(
    '/api/auth/sign-up/email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account with email and password; signs in (session cookie)',
        body: signUpRequestSchema,
        response: { 200: authUserResponseSchema },
      },
    },
    async (request, reply) => send(reply, await service.signUp(request.body, clientOf(request))),
  );

  app.post(
    '/api/auth/sign-in/email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password (session cookie)',
        body: signInRequestSchema,
        response: { 200: authUserResponseSchema },
      },
    },
    async (request, reply) => send(reply, await service.signIn(request.body, clientOf(request))),
  );

  app.post(
    '/api/auth/sign-in/social',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start Google sign-in or sign-up; answers the Google URL to navigate to',
        body: socialSignInRequestSchema,
        response: { 200: z.object({ url: z.string(), redirect: z.boolean() }) },
      },
    },
    async (request, reply) =>
      send(reply, await service.socialSignIn(request.body, clientOf(request))),
  );

  app.get(
    '/api/auth/callback/:providerId',
    {
      schema: {
        tags: ['auth'],
        summary: "Google's redirect back; redirects to the callback or error page",
        params: z.object({ providerId: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const queryAt = request.url.indexOf('?');
      const search = queryAt >= 0 ? request.url.slice(queryAt) : '';
      return send(
        reply,
        await service.oauthCallback(request.params.providerId, search, clientOf(request)),
      );
    },
  );

  // The specification's sign-out has global scope: this ends every session of the user, not
  // only this browser's (the same as POST /api/account/sign-out).
  app.post(
    '/api/auth/sign-out',
    { schema: { tags: ['auth'], summary: 'Sign out on every device; clears the cookie' } },
    signOutEverywhereRoute(sessions),
  );

  app.post(
    '/api/auth/request-password-reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Email a reset link; the same answer whether or not the account exists',
        body: requestPasswordResetSchema,
        response: { 200: passwordResetAnswerSchema },
      },
    },
    async (request, reply) =>
      send(reply, await service.requestPasswordReset(request.body, clientOf(request))),
  );

  app.get(
    '/api/auth/reset-password/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'The emailed link: redirects to /reset-password?token=... or ?error=INVALID_TOKEN',
        params: z.object({ token: z.string().max(256) }),
      },
    },
    async (request, reply) =>
      send(reply, await service.openResetLink(request.params.token, clientOf(request))),
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the token from the link; signs out everywhere',
        body: resetPasswordRequestSchema,
        response: { 200: z.object({ status: z.literal(true) }) },
      },
    },
    async (request, reply) =>
      send(reply, await service.resetPassword(request.body, clientOf(request))),
  );
};
