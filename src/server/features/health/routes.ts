import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client.ts';

/** `/healthz`: the process answers. `/readyz`: it can do work (database up, migrations applied). */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({ status: z.literal('unavailable'), reason: z.string() }),
        },
      },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      try {
        await database.ping();
        const pending = await database.migrationsPending();
        if (pending > 0)
          return reply
            .status(503)
            .send({ status: 'unavailable' as const, reason: `${pending} migrations pending` });
        return { status: 'ready' as const };
      } catch {
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, reason: 'database unreachable' });
      }
    },
  );
};
