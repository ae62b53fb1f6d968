import type { FastifyBaseLogger } from 'fastify';
import type { TryOnEngine } from '../../adapters/engine/tryon-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { defineWorker, type JobQueue, type JobWorker } from '../../jobs/job-queue.ts';
import type { Billing } from '../billing/billing.ts';
import type { Costs } from '../costs/service.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Generation } from '../generation/generation.ts';
import { runTryOnJob, sweepTryOnsJob } from './jobs.ts';
import { createTryOnService } from './service.ts';

/** Every five minutes, try-ons without an outcome for too long are settled. */
const sweepCron = '*/5 * * * *';

/** Try-on wired together around the configured engine. */
export function createTryOn(deps: {
  config: Config;
  db: Database;
  unitOfWork: UnitOfWork;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  billing: Pick<Billing, 'credits'>;
  generation: Pick<Generation, 'service'>;
  engine: TryOnEngine;
  costs: Pick<Costs, 'record'>;
  logger: FastifyBaseLogger;
}) {
  const service = createTryOnService({
    db: deps.db,
    storage: deps.storage,
    queue: deps.queue,
    events: deps.events,
    engine: deps.engine,
    generationImageKey: (userId, id) => deps.generation.service.imageKeyOf(userId, id),
    credits: deps.billing.credits,
    costs: deps.costs,
    unitOfWork: deps.unitOfWork,
    publicUrl: deps.config.publicUrl,
    nsfwThreshold: deps.config.nsfwThreshold,
    logger: deps.logger,
  });
  const workers = [
    defineWorker(runTryOnJob, ({ tryOnId }, job) =>
      service.run(tryOnId, { isLastAttempt: job.isLastAttempt, signal: job.signal }),
    ),
    defineWorker(sweepTryOnsJob, async () => void (await service.sweep()), 1),
  ] as JobWorker<unknown>[];
  return {
    engine: deps.engine,
    service,
    workers,
    /** Declares the sweep's schedule (stored in the database; once per occurrence overall). */
    schedule: () => deps.queue.schedule(sweepTryOnsJob, sweepCron, {}),
  };
}

export type TryOnFeature = ReturnType<typeof createTryOn>;
