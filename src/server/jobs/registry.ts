import type { Mailer } from '../adapters/email/mailer.ts';
import { emailWorker, sendEmailJob } from '../features/email/jobs.ts';
import type { JobType, JobWorker } from './job-queue.ts';

/** Every kind of job the app knows; each process creates their queues at start. */
export const jobTypes: JobType<unknown>[] = [sendEmailJob];

export interface WorkerDeps {
  mailer: Mailer;
}

/** What a worker process consumes. */
export function createWorkers(deps: WorkerDeps): JobWorker<unknown>[] {
  return [emailWorker(deps.mailer)];
}
