import { z } from 'zod';
import type { Mailer } from '../../adapters/email/mailer.ts';
import { defineJobType, defineWorker } from '../../jobs/job-queue.ts';

/** Mail goes out through the queue, so a slow or failing mail server never blocks a request. */
export const sendEmailJob = defineJobType(
  'email.send',
  z.object({
    to: z.email(),
    subject: z.string().min(1),
    text: z.string(),
    html: z.string().optional(),
  }),
  { retryLimit: 5, retryDelaySeconds: 10 },
);

export const emailWorker = (mailer: Mailer) =>
  defineWorker(sendEmailJob, (message) => mailer.send(message), 2);
