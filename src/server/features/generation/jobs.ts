import { z } from 'zod';
import { defineJobType } from '../../jobs/job-queue.ts';

/** One image: call the engine, store the result, complete or fail (and refund) once. */
export const generateImageJob = defineJobType(
  'generation.generate',
  z.object({ generationId: z.string() }),
  // Engines take up to a couple of minutes; a crashed worker's job comes back after expiry.
  { retryLimit: 3, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 600 },
);

/** Reconciles generations without news for too long (their workers died): collects or fails them. */
export const sweepGenerationsJob = defineJobType('generation.sweep', z.object({}), {
  retryLimit: 1,
  retryDelaySeconds: 60,
  expireInSeconds: 300,
});
