import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { costsQuerySchema, costsResponseSchema } from '../../../common/api/costs.ts';
import { errorResponseSchema } from '../../../common/errors.ts';
import { adminOnly } from '../admin/guard.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { Costs } from './service.ts';

/** The operator's view of provider costs, under /api/admin (404 to anyone but an admin). */
export const costRoutes: FastifyPluginAsyncZod<{
  costs: Costs;
  authenticator: Authenticator;
}> = async (app, { costs, authenticator }) => {
  app.addHook('onRequest', adminOnly(authenticator));
  app.get(
    '/api/admin/costs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Provider costs of the last days, by kind and engine and per picture',
        querystring: costsQuerySchema,
        response: { 200: costsResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return costs.summary(request.query.days);
    },
  );
};
