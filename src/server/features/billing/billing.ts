import type { FastifyBaseLogger } from 'fastify';
import type { BillingProvider } from '../../adapters/billing/billing-provider.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { EventBus } from '../events/event-bus.ts';
import { createCredits } from './credits.ts';
import { createFulfilment } from './fulfilment.ts';
import { monthlyGrantJob } from './jobs.ts';
import { createCreditLedger } from './ledger.ts';
import { createBillingService } from './service.ts';

/**
 * The billing feature wired together around the provider the composition root chose: the
 * ledger (with its events), the credits other features pay through, fulfilment (webhooks,
 * return pages, jobs) and the service (routes).
 */
export function createBilling(deps: {
  config: Config;
  db: Database;
  /** The app's unit of work: its runs publish the balances they changed after commit. */
  unitOfWork: UnitOfWork;
  events: EventBus;
  queue: JobQueue;
  provider: BillingProvider;
  logger?: FastifyBaseLogger;
}) {
  const { config, db, unitOfWork, events, queue, provider, logger } = deps;
  if (config.env === 'production' && provider.kind === 'local')
    logger?.warn(
      'BILLING=local in production: checkouts are test-mode and take no payment. Set BILLING=stripe.',
    );
  const ledger = createCreditLedger({ db, events, unitOfWork, ...(logger ? { logger } : {}) });
  const fulfilment = createFulfilment({
    db,
    provider,
    ledger,
    ...(logger ? { logger } : {}),
    scheduleMonthlyGrant: async (userId, at) => {
      const seconds = Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
      await queue.send(monthlyGrantJob, { userId }, { startAfterSeconds: seconds });
    },
  });
  const service = createBillingService({
    db,
    publicUrl: config.publicUrl,
    provider,
    ledger,
    fulfilment,
    ...(logger ? { logger } : {}),
  });
  const credits = createCredits({ db, publishChanged: ledger.publishChanged });
  return { provider, ledger, credits, fulfilment, service };
}

export type Billing = ReturnType<typeof createBilling>;
