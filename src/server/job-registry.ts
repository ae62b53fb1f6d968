import type { Mailer } from './adapters/email/mailer.ts';
import type { Billing } from './features/billing/billing.ts';
import { monthlyGrantJob, monthlyGrantWorker } from './features/billing/jobs.ts';
import { emailWorker, sendEmailJob } from './features/email/jobs.ts';
import {
  checkTrainingJob,
  deleteFilesJob,
  deleteWeightsJob,
  makePreviewsJob,
  startTrainingJob,
  sweepTrainingsJob,
  validatePhotoJob,
} from './features/studio/jobs.ts';
import type { Studio } from './features/studio/studio.ts';
import type { Generation } from './features/generation/generation.ts';
import { runTryOnJob, sweepTryOnsJob } from './features/tryon/jobs.ts';
import type { TryOnFeature } from './features/tryon/tryon.ts';
import { generateImageJob, sweepGenerationsJob } from './features/generation/jobs.ts';
import type { JobType, JobWorker } from './jobs/job-queue.ts';

/**
 * Every kind of job the app knows (each process creates their queues at start) and what a worker
 * consumes: wiring, so it lives beside `runtime.ts` and not in `jobs/`, which the features use.
 */
export const jobTypes: JobType<unknown>[] = [
  sendEmailJob,
  monthlyGrantJob,
  validatePhotoJob,
  startTrainingJob,
  checkTrainingJob,
  sweepTrainingsJob,
  deleteFilesJob,
  deleteWeightsJob,
  makePreviewsJob,
  generateImageJob,
  sweepGenerationsJob,
  runTryOnJob,
  sweepTryOnsJob,
] as JobType<unknown>[];

export interface WorkerDeps {
  mailer: Mailer;
  billing: Pick<Billing, 'fulfilment'>;
  studio: Pick<Studio, 'workers'>;
  generation: Pick<Generation, 'workers'>;
  tryOn: Pick<TryOnFeature, 'workers'>;
}

/** What a worker process consumes. */
export function createWorkers(deps: WorkerDeps): JobWorker<unknown>[] {
  return [
    emailWorker(deps.mailer),
    monthlyGrantWorker(deps.billing.fulfilment),
    ...deps.studio.workers,
    ...deps.generation.workers,
    ...deps.tryOn.workers,
  ];
}
