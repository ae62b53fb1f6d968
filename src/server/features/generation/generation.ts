import type { GenerationEngine } from '../../adapters/engine/generation-engine.ts';
import { defineWorker, type JobWorker } from '../../jobs/job-queue.ts';
import type { createCatalogService } from '../catalog/service.ts';
import type { PaidWorkDeps } from '../feature-deps.ts';
import type { Studio } from '../studio/studio.ts';
import type { FaceAnalyzer } from '../studio/validation.ts';
import { generateImageJob, sweepGenerationsJob } from './jobs.ts';
import { createGenerationService } from './service.ts';
import { createGenerationWorker } from './worker.ts';

/** Every five minutes, generations without news for too long are reconciled with the engine. */
const sweepCron = '*/5 * * * *';

/** Generation wired together: service (routes) and workers, around the configured engine. */
export function createGeneration(
  deps: PaidWorkDeps & {
    catalog: ReturnType<typeof createCatalogService>;
    studio: Pick<Studio, 'service'>;
    engine: GenerationEngine;
    faces: FaceAnalyzer;
  },
) {
  const { config, db, unitOfWork, storage, queue, events, catalog, engine, logger } = deps;
  const { credits } = deps.billing;
  const service = createGenerationService({
    db,
    storage,
    queue,
    events,
    sources: {
      enginePresets: (ids) => catalog.enginePresets(ids),
      ownModel: (userId, modelId) => deps.studio.service.ownModel(userId, modelId),
    },
    engineName: engine.name,
    makesPreviews: engine.makesPreviews,
    credits,
    runPrepared: deps.runPrepared,
    acceptsAtOnce: Math.max(1, Math.floor(config.database.poolSize / 2)),
    unitOfWork,
    logger,
  });
  const worker = createGenerationWorker({
    db,
    storage,
    events,
    engine,
    faces: deps.faces,
    sources: {
      modelById: (id) => deps.studio.service.modelById(id),
      enginePreset: (id) => catalog.enginePreset(id),
    },
    credits,
    costs: deps.costs,
    unitOfWork,
    staleAfterMinutes: config.generation.staleAfterMinutes,
    nsfwThreshold: config.nsfwThreshold,
    likenessRerolls: config.generation.likenessRerolls,
    publicUrl: config.publicUrl,
    logger,
  });
  deps.studio.service.addModelDeletionParticipant((tx, modelId) =>
    service.beforeModelDeleted(tx, modelId),
  );
  const workers = [
    // The engine's concurrency limit in this process (each worker process has its own).
    defineWorker(
      generateImageJob,
      ({ generationId }, job) =>
        worker.generate(generationId, { isLastAttempt: job.isLastAttempt, signal: job.signal }),
      config.generation.concurrency,
    ),
    defineWorker(sweepGenerationsJob, async () => void (await worker.sweep()), 1),
  ] as JobWorker<unknown>[];

  return {
    service,
    worker,
    workers,
    /** Declares the sweep's schedule (stored in the database; once per occurrence overall). */
    schedule: () => queue.schedule(sweepGenerationsJob, sweepCron, {}),
  };
}

export type Generation = ReturnType<typeof createGeneration>;
