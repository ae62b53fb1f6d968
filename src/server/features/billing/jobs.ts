import { z } from 'zod';
import { defineJobType, defineWorker } from '../../jobs/job-queue.ts';
import type { Fulfilment } from './fulfilment.ts';

/**
 * The yearly offer grants its credits monthly, but the provider only bills (and notifies) once a
 * year: this job wakes at each month boundary and re-syncs the user, which grants the month that
 * began (idempotently; a late or repeated run grants nothing twice).
 */
export const monthlyGrantJob = defineJobType(
  'billing.monthly-grant',
  z.object({ userId: z.string().min(1) }),
  { retryLimit: 10, retryDelaySeconds: 60, retryBackoff: true },
);

export const monthlyGrantWorker = (fulfilment: Fulfilment) =>
  defineWorker(monthlyGrantJob, ({ userId }) => fulfilment.resyncUser(userId), 1);
