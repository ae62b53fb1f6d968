import type { TryOnEngine } from '../../adapters/engine/tryon-engine.ts';
import { defineWorker, type JobWorker } from '../../jobs/job-queue.ts';
import type { PaidWorkDeps } from '../feature-deps.ts';
import type { Generation } from '../generation/generation.ts';
import { runTryOnJob, sweepTryOnsJob } from './jobs.ts';
import { createTryOnService } from './service.ts';

/** Every five minutes, try-ons without an outcome for too long are settled. */
const sweepCron = '*/5 * * * *';

/** Try-on wired together around the configured engine. */
export function createTryOn(
  deps: PaidWorkDeps & { generation: Pick<Generation, 'service'>; engine: TryOnEngine },
) {
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
    runPrepared: deps.runPrepared,
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
