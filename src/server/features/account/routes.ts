import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteAccountRequestSchema, meResponseSchema } from '../../../common/api/account.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { type SessionService, signOutEverywhereRoute } from '../auth/sessions.ts';
import type { AccountService } from './service.ts';

export const accountRoutes: FastifyPluginAsyncZod<{
  account: AccountService;
  authenticator: Authenticator;
  sessions: SessionService;
}> = async (app, { account, authenticator, sessions }) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in user, profile and subscription',
        response: { 200: meResponseSchema },
      },
    },
    async (request) => account.me(await authenticator.requireUser(request)),
  );

  // Global scope, as the specification's sign-out: every session of the user ends. Answers 204
  // and clears the cookie even when the session was already gone.
  app.post(
    '/api/account/sign-out',
    { schema: { tags: ['account'], summary: 'Sign out on every device; clears the cookie' } },
    signOutEverywhereRoute(sessions),
  );

  app.delete(
    '/api/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete the account, its rows and its files; ends the session',
        body: deleteAccountRequestSchema,
      },
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      await account.deleteAccount(user.id);
      await sessions.accountDeleted(user.id);
      return reply
        .status(204)
        .header('set-cookie', await sessions.expiredCookies())
        .header('cache-control', 'no-store')
        .send();
    },
  );
};
