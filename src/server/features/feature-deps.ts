import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { RunPrepared } from '../db/statement.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Billing } from './billing/billing.ts';
import type { Costs } from './costs/service.ts';
import type { EventBus } from './events/event-bus.ts';

/**
 * What the composition root (runtime.ts) hands alike to each feature that does paid work on
 * jobs (studio, generation, try-on): the configuration, the database, its unit of work and its
 * named statements (each feature's accept, decision 051), the storage, the job queue, the event
 * bus, the credits it charges, the record of what the provider cost the operator, and the logger.
 * Each feature's wiring takes these and what is its own.
 */
export interface PaidWorkDeps {
  config: Config;
  db: Database;
  unitOfWork: UnitOfWork;
  runPrepared: RunPrepared;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  billing: Pick<Billing, 'credits'>;
  costs: Pick<Costs, 'record'>;
  logger: FastifyBaseLogger;
}
