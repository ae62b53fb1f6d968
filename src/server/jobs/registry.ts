import type { Mailer } from '../adapters/email/mailer.ts';
import type { Billing } from '../features/billing/billing.ts';
import { monthlyGrantJob, monthlyGrantWorker } from '../features/billing/jobs.ts';
import { emailWorker, sendEmailJob } from '../features/email/jobs.ts';
import type { JobType, JobWorker } from './job-queue.ts';

/** Every kind of job the app knows; each process creates their queues at start. */
export const jobTypes: JobType<unknown>[] = [sendEmailJob, monthlyGrantJob];

export interface WorkerDeps {
  mailer: Mailer;
  billing: Pick<Billing, 'fulfilment'>;
}

/** What a worker process consumes. */
export function createWorkers(deps: WorkerDeps): JobWorker<unknown>[] {
  return [emailWorker(deps.mailer), monthlyGrantWorker(deps.billing.fulfilment)];
}
