import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meResponseSchema } from '../../../common/api/account.ts';
import type { Authenticator } from '../../http/authenticate.ts';
import type { AccountService } from './service.ts';

export const accountRoutes: FastifyPluginAsyncZod<{
  account: AccountService;
  authenticator: Authenticator;
}> = async (app, { account, authenticator }) => {
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
};
