import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { emailMessages } from '../common/messages/email.ts';
import type { Mailer } from './adapters/email/mailer.ts';
import { createLocalBillingProvider } from './adapters/billing/local-billing.ts';
import { createStripeBillingProvider } from './adapters/billing/stripe-billing.ts';
import { createOutboxMailer } from './adapters/email/outbox-mailer.ts';
import { createSmtpMailer } from './adapters/email/smtp-mailer.ts';
import { createGenerationEngine } from './adapters/engine/create-generation-engine.ts';
import { createTrainingEngine } from './adapters/engine/create-training-engine.ts';
import { createTryOnEngine } from './adapters/engine/create-tryon-engine.ts';
import { createStorage } from './adapters/storage/create-storage.ts';
import { buildApp, buildWorkerApp, type AppDeps } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createUnitOfWork } from './db/unit-of-work.ts';
import { accountCreated, createAccountService } from './features/account/service.ts';
import { createAuth } from './features/auth/auth.ts';
import { createAuthenticator } from './features/auth/authenticate.ts';
import { createAuthService } from './features/auth/service.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import { createSessionService } from './features/auth/sessions.ts';
import { createBilling } from './features/billing/billing.ts';
import { createCatalogAdminService } from './features/catalog/admin-service.ts';
import { seedDefaultContentAtStart } from './features/catalog/seed.ts';
import { createCatalogService } from './features/catalog/service.ts';
import { defaultPrices } from './features/costs/prices.ts';
import { createCosts } from './features/costs/service.ts';
import { createGeneration } from './features/generation/generation.ts';
import { sendEmailJob } from './features/email/jobs.ts';
import { createMemoryEventBus, createPostgresEventBus } from './features/events/event-bus.ts';
import type { PaidWorkDeps } from './features/feature-deps.ts';
import { createStudio } from './features/studio/studio.ts';
import { createTryOn } from './features/tryon/tryon.ts';
import {
  analyzePhoto,
  faceSimilarity,
  findSmallFaces,
  openAnalysis,
  varietyScore,
  warmUpAnalysis,
} from './images/analysis.ts';
import { startJobQueue } from './jobs/job-queue.ts';
import { createWorkers, jobTypes } from './job-registry.ts';
import { createRateLimiter } from './rate-limits/rate-limiter.ts';

export interface Running {
  deps: AppDeps;
  /** The whole app, or with ROLE=worker only health and metrics (see buildWorkerApp). */
  app?: FastifyInstance;
  /** Where the app listens, e.g. http://127.0.0.1:3000 (when it listens). */
  url?: string;
  stop(): Promise<void>;
}

/**
 * The composition root: the one place that picks concrete adapters from the configuration and
 * builds the services on them; `buildApp` only registers plugins and routes over what it is
 * given (decision 046). Web and worker processes are the same code; ROLE decides what this
 * process does.
 */
export async function start(
  config: Config,
  logger: FastifyBaseLogger,
  options: { listen?: boolean } = {},
): Promise<Running> {
  // Face and NSFW analysis on worker threads (decision 031), closed with the app.
  const analysis = openAnalysis({ threads: config.analysisThreads });
  const database = await openDatabase(config.database);
  await database.migrate();
  // Transactions and what follows their commit (decision 048); billing publishes balances there.
  const unitOfWork = createUnitOfWork(database.db, { logger });

  const storage = createStorage(config);
  // An empty catalog gets the default content before anything reads it (skipped in tests).
  if (config.seedContent && config.role !== 'worker')
    await seedDefaultContentAtStart({ db: database.db, storage, logger });
  const mailer: Mailer = config.email.smtpUrl
    ? createSmtpMailer(config.email.smtpUrl, config.email.from)
    : createOutboxMailer(config.email.outboxDir, config.email.from, logger);
  const events = database.notifications
    ? createPostgresEventBus(database.notifications)
    : createMemoryEventBus();
  await events.start();
  const queue = await startJobQueue({
    database,
    types: jobTypes,
    pollSeconds: config.jobPollSeconds,
    supervise: config.role !== 'web',
    heartbeatSeconds: config.jobs.heartbeatSeconds,
    monitorSeconds: config.jobs.monitorSeconds,
    retryDelayFactor: config.jobs.retryDelayFactor,
    onError: (error) => logger.error({ err: error }, 'job queue error'),
  });
  const auth = createAuth({
    config,
    db: database.db,
    logger,
    sendResetPassword: async (email, url) => {
      await queue.send(sendEmailJob, {
        to: email,
        subject: emailMessages.passwordResetSubject,
        text: `${emailMessages.passwordResetBody(url)}\n\n${emailMessages.footer}`,
      });
    },
    onSessionEnded: (session) => events.endSessions(session.userId, [session.id]),
    onUserCreated: (userId) => accountCreated(database.db, userId),
  });
  // Payments: the built-in test-mode provider by default, Stripe when configured.
  const billing = createBilling({
    config,
    db: database.db,
    unitOfWork,
    events,
    queue,
    logger,
    provider:
      config.billing.provider === 'stripe'
        ? createStripeBillingProvider(config.billing.stripe)
        : createLocalBillingProvider({ db: database.db, publicUrl: config.publicUrl }),
  });
  const faces = {
    analyze: analyzePhoto,
    findSmallFaces,
    similarity: faceSimilarity,
    varietyScore,
  };
  const catalog = createCatalogService({ db: database.db });
  const costs = createCosts({
    db: database.db,
    prices: { ...defaultPrices, ...config.providerPricesUsd },
    logger,
  });
  const generationEngine = createGenerationEngine(config, storage);
  // What each feature doing paid work on jobs is built on (features/feature-deps.ts).
  const paidWork: PaidWorkDeps = {
    config,
    db: database.db,
    unitOfWork,
    runPrepared: database.runPrepared,
    storage,
    queue,
    events,
    billing,
    costs,
    logger,
  };
  const studio = createStudio({
    ...paidWork,
    engine: createTrainingEngine(config, storage),
    previewEngine: generationEngine,
    presets: {
      presets: () => catalog.enginePresets(),
      preset: (id) => catalog.enginePreset(id),
    },
    faces,
  });
  const generation = createGeneration({
    ...paidWork,
    catalog,
    studio,
    engine: generationEngine,
    faces,
  });
  const tryOn = createTryOn({
    ...paidWork,
    generation,
    engine: createTryOnEngine(config, storage),
  });

  // What the HTTP API adds. One store for every limit, in Postgres, so that limits hold across
  // web processes: the global per-IP limit, the routes' own and the auth service's (decision 028).
  const limiter = createRateLimiter(database.db, { enabled: config.rateLimit.enabled });
  // Sessions read lately are answered from memory; every ending reaches every process's cache
  // over the event bus, and a gap in the bus empties it (decision 042).
  const sessionCache = config.sessionCacheSeconds
    ? createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 })
    : undefined;
  const sessionCacheFollowsBus = sessionCache
    ? [
        events.onAnySessionsEnded((userId, ended) => sessionCache.end(userId, ended)),
        events.onResync(() => sessionCache.clear()),
      ]
    : [];
  const authenticator = createAuthenticator(auth, sessionCache);
  const deps: AppDeps = {
    config,
    logger,
    database,
    storage,
    mailer,
    events,
    queue,
    auth,
    billing,
    studio,
    generation,
    tryOn,
    costs,
    catalog,
    catalogAdmin: createCatalogAdminService({ db: database.db, storage }),
    limiter,
    authenticator,
    sessions: createSessionService(auth, authenticator, events),
    authService: createAuthService({ auth, config, limiter, logger }),
    // Features that must act before an account is deleted join this list.
    account: createAccountService({
      db: database.db,
      runPrepared: database.runPrepared,
      storage,
      deletionParticipants: [
        billing.service.deletionParticipant,
        studio.service.deletionParticipant,
      ],
      logger,
    }),
  };

  let url: string | undefined;
  const app = config.role === 'worker' ? await buildWorkerApp(deps) : await buildApp(deps);
  if (options.listen !== false) url = await app.listen({ port: config.port, host: config.host });
  else await app.ready();
  let stopping: Promise<void> | undefined;
  // Every upload and engine output is classified: the model loads now (on every analysis
  // thread), not during the first one. A stop during the load ends it on purpose: no warning.
  warmUpAnalysis({ nsfw: true }).catch((error: unknown) => {
    if (!stopping) logger.warn({ err: error }, 'the NSFW model did not load');
  });
  if (config.role !== 'web') {
    await generation.schedule();
    await tryOn.schedule();
    await studio.schedule();
    await queue.work(createWorkers({ mailer, billing, studio, generation, tryOn }));
  }

  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking requests and end event streams, let running jobs finish (or hand them
      // back for another worker), then close the database. A worker's listener stays up while
      // its jobs drain, so health checks and the last scrape still reach it.
      const drainsFirst = config.role === 'worker';
      if (!drainsFirst) await app.close();
      await queue.stop({ graceful: true, timeoutMs: config.shutdownTimeoutMs });
      if (drainsFirst) await app.close();
      await analysis.close();
      for (const unsubscribe of sessionCacheFollowsBus) unsubscribe();
      await events.close();
      await database.close();
    })());

  return { deps, app, ...(url ? { url } : {}), stop };
}
