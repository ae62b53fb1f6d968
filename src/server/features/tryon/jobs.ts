import { z } from 'zod';
import { defineJobType } from '../../jobs/job-queue.ts';

/** One try-on: start the engine, follow it to the end, store the result or fail and refund. */
export const runTryOnJob = defineJobType('tryon.run', z.object({ tryOnId: z.string() }), {
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 600,
});

/** Settles try-ons with no outcome for too long (their jobs died): asks the engine, else refunds. */
export const sweepTryOnsJob = defineJobType('tryon.sweep', z.object({}), {
  retryLimit: 1,
  retryDelaySeconds: 60,
  expireInSeconds: 300,
});
