import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { timingSafeEqual } from 'node:crypto';
import type { DatabaseHandle } from '../../db/client.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { metrics } from '../../observability/metrics.ts';

/** `/healthz`: the process answers. `/readyz`: it can do work (database up, migrations applied). */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: DatabaseHandle;
  queue: JobQueue;
  metricsToken: string | undefined;
}> = async (app, { database, queue, metricsToken }) => {
  metrics.collectRuntimeMetrics();
  metrics.addGauge(
    'likeness_queue_depth',
    'Jobs waiting or running, by queue',
    ['queue'],
    async () =>
      Object.entries(await queue.depth()).map(([name, value]) => ({
        labels: { queue: name },
        value,
      })),
  );

  /**
   * Prometheus scrape endpoint: HTTP latency, job counts and durations, queue depth, engine
   * errors, and the runtime (event-loop lag, heap, GC, handles).
   */
  app.get(
    '/metrics',
    { schema: { tags: ['health'], hide: true }, config: { rateLimit: false } },
    async (request, reply) => {
      if (metricsToken) {
        const given = Buffer.from(String(request.headers.authorization ?? ''));
        const expected = Buffer.from(`Bearer ${metricsToken}`);
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          throw new AppError('NOT_FOUND', httpMessages.nothingHere);
      }
      return reply
        .header('cache-control', 'no-store')
        .type(metrics.contentType)
        .send(await metrics.render());
    },
  );

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
