import type { GenerationEngine } from '../../adapters/engine/generation-engine.ts';
import { EngineError, type TrainingEngine } from '../../adapters/engine/training-engine.ts';
import { defineWorker, type JobWorker } from '../../jobs/job-queue.ts';
import type { PaidWorkDeps } from '../feature-deps.ts';
import {
  checkTrainingJob,
  deleteFilesJob,
  deleteWeightsJob,
  makePreviewsJob,
  startTrainingJob,
  sweepTrainingsJob,
  validatePhotoJob,
} from './jobs.ts';
import { createTrainingPreviews, type PreviewsDeps } from './previews.ts';
import { createStudioService } from './service.ts';
import { createTraining } from './training.ts';
import { createPhotoValidation, type FaceAnalyzer } from './validation.ts';

/** Every ten minutes, trainings without news for the timeout are settled (see the sweep). */
const sweepCron = '*/10 * * * *';

/** The studio's model creation wired together: service (routes), validation, training, jobs. */
export function createStudio(
  deps: PaidWorkDeps & {
    engine: TrainingEngine;
    /** What makes training previews (decision 039): the generation engine's `preview`. */
    previewEngine: Pick<GenerationEngine, 'name' | 'preview'>;
    /** The catalog's presets, through its service. */
    presets: PreviewsDeps['sources'];
    faces: FaceAnalyzer;
  },
) {
  const { config, db, unitOfWork, storage, queue, events, engine, faces, logger } = deps;
  const { credits } = deps.billing;
  const previews = createTrainingPreviews({
    db,
    storage,
    queue,
    events,
    engine: deps.previewEngine,
    sources: deps.presets,
    enabled: config.training.previews,
    costs: deps.costs,
    nsfwThreshold: config.nsfwThreshold,
    publicUrl: config.publicUrl,
    logger,
  });
  const service = createStudioService({
    db,
    storage,
    queue,
    events,
    engineName: engine.name,
    credits,
    unitOfWork,
    similarity: (a, b) => faces.similarity(a, b),
    cancelTraining: (model) => training.cancel(model),
    deletesWeights: engine.deleteWeights !== undefined,
    previews,
    logger,
  });
  const validation = createPhotoValidation({ db, storage, faces });
  const training = createTraining({
    db,
    storage,
    queue,
    engine,
    faces,
    credits,
    costs: deps.costs,
    unitOfWork,
    publishModel: service.publishModel,
    publicUrl: config.publicUrl,
    pollSeconds: config.training.pollSeconds,
    timeoutMinutes: config.training.timeoutMinutes,
    logger,
  });

  const workers: JobWorker<unknown>[] = [
    defineWorker(
      validatePhotoJob,
      async ({ photoId }, job) =>
        service.publishPhotoChanges(
          await validation.validate(photoId, { lastAttempt: job.isLastAttempt }),
        ),
      // One photo per analysis thread (decision 031): with none, the analysis is serialised on
      // the event loop anyway; one at a time keeps memory flat.
      Math.max(1, config.analysisThreads),
    ),
    defineWorker(startTrainingJob, ({ modelId, deferrals }, job) =>
      training.start(modelId, { lastAttempt: job.isLastAttempt, deferrals: deferrals ?? 0 }),
    ),
    defineWorker(checkTrainingJob, ({ modelId }) => training.check(modelId)),
    // One training's previews at a time: they share the person cut out of the best photo.
    defineWorker(
      makePreviewsJob,
      ({ modelId, photoKeys }, job) =>
        previews.make(modelId, photoKeys, { lastAttempt: job.isLastAttempt, signal: job.signal }),
      1,
    ),
    defineWorker(sweepTrainingsJob, async () => void (await training.sweep()), 1),
    defineWorker(deleteFilesJob, async ({ keys, prefixes }) => {
      for (const key of keys) await storage.delete(key);
      for (const prefix of prefixes) await storage.deletePrefix(prefix);
    }),
    defineWorker(deleteWeightsJob, async (trained, job) => {
      const at = { modelId: trained.modelId, engine: trained.engine };
      if (!engine.deleteWeights || engine.name !== trained.engine)
        return logger.warn(at, 'trained weights left at an engine this process does not run');
      try {
        await engine.deleteWeights(trained);
        logger.info(at, 'deleted the trained weights at the engine');
      } catch (error) {
        const transient = !(error instanceof EngineError) || error.transient;
        if (transient && !job.isLastAttempt) throw error;
        logger.error(
          { ...at, err: error },
          'the trained weights could not be deleted at the engine',
        );
      }
    }),
  ] as JobWorker<unknown>[];

  return {
    engine,
    service,
    training,
    previews,
    workers,
    /** Declares the sweep's schedule (stored in the database; once per occurrence overall). */
    schedule: () => queue.schedule(sweepTrainingsJob, sweepCron, {}),
  };
}

export type Studio = ReturnType<typeof createStudio>;
