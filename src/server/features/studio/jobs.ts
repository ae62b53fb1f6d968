import { z } from 'zod';
import { defineJobType } from '../../jobs/job-queue.ts';

/** One photo's checks (decode, face, sharpness, same person). */
export const validatePhotoJob = defineJobType(
  'studio.validate-photo',
  z.object({ photoId: z.string() }),
  { retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 120 },
);

/**
 * Zips a new model's photos and hands them to the engine. `deferrals`: how many times the engine
 * already asked us (429 with Retry-After) to come back later.
 */
export const startTrainingJob = defineJobType(
  'studio.start-training',
  z.object({ modelId: z.string(), deferrals: z.number().int().min(0).optional() }),
  { retryLimit: 4, retryDelaySeconds: 10, expireInSeconds: 900 },
);

/**
 * Asks the engine about a training with no news (a lost webhook); re-sends itself until the
 * training ends or times out, so no training stays "training" for ever.
 */
export const checkTrainingJob = defineJobType(
  'studio.check-training',
  z.object({ modelId: z.string() }),
  { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 300 },
);

/** Settles trainings without news for the timeout, whatever left them so (see `Training.sweep`). */
export const sweepTrainingsJob = defineJobType('studio.sweep-trainings', z.object({}), {
  retryLimit: 1,
  retryDelaySeconds: 60,
  expireInSeconds: 300,
});

/** Removes files whose rows are gone (privacy after training, deleted models). */
export const deleteFilesJob = defineJobType(
  'studio.delete-files',
  z.object({ keys: z.array(z.string()), prefixes: z.array(z.string()) }),
  { retryLimit: 5, retryDelaySeconds: 30 },
);

/**
 * Deletes a deleted model's trained weights at the engine that trained them (docs/providers.md);
 * retried with backoff (Replicate deletes a model's versions "within a few minutes"), then given
 * up on with an error in the log. The user's deletion never waits for it.
 */
export const deleteWeightsJob = defineJobType(
  'studio.delete-weights',
  z.object({
    engine: z.string(),
    modelId: z.string(),
    reference: z.string().nullable(),
    weights: z.string().nullable(),
  }),
  { retryLimit: 6, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: 300 },
);

/**
 * Makes a new model's training previews (decision 039), one after the other. `photoKeys`: its
 * validated photos, best first, named here because training may delete their rows before this
 * runs (the files wait for it: `Training.finish`).
 */
export const makePreviewsJob = defineJobType(
  'studio.make-previews',
  z.object({ modelId: z.string(), photoKeys: z.array(z.string()) }),
  { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 300 },
);
