import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Mailer } from './adapters/email/mailer.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { accountRoutes } from './features/account/routes.ts';
import type { AccountService } from './features/account/service.ts';
import type { Auth } from './features/auth/auth.ts';
import type { Authenticator } from './features/auth/authenticate.ts';
import { authRoutes } from './features/auth/routes.ts';
import type { AuthService } from './features/auth/service.ts';
import type { SessionService } from './features/auth/sessions.ts';
import type { Billing } from './features/billing/billing.ts';
import { billingRoutes } from './features/billing/routes.ts';
import type { CatalogAdminService } from './features/catalog/admin-service.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import type { CatalogService } from './features/catalog/service.ts';
import { costRoutes } from './features/costs/routes.ts';
import type { Costs } from './features/costs/service.ts';
import type { EventBus } from './features/events/event-bus.ts';
import { eventRoutes } from './features/events/routes.ts';
import { fileRoutes } from './features/files/routes.ts';
import type { Generation } from './features/generation/generation.ts';
import { generationRoutes } from './features/generation/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { studioRoutes } from './features/studio/routes.ts';
import type { Studio } from './features/studio/studio.ts';
import { tryOnRoutes } from './features/tryon/routes.ts';
import type { TryOnFeature } from './features/tryon/tryon.ts';
import { apiDocs } from './http/plugins/api-docs.ts';
import { answerMalformedUrl, errorAnswers } from './http/plugins/error-answers.ts';
import { refuseInvalidText } from './http/plugins/invalid-text.ts';
import { notFound, nothingHere } from './http/plugins/not-found.ts';
import { originCheck } from './http/plugins/origin-check.ts';
import { privateAnswers } from './http/plugins/private-answers.ts';
import { rateLimits } from './http/plugins/rate-limit.ts';
import { requestContext, requestIdOf } from './http/plugins/request-context.ts';
import { requestMetrics } from './http/plugins/request-metrics.ts';
import { securityHeaders } from './http/plugins/security-headers.ts';
import { findWebBuild, webAppFiles } from './http/plugins/web-app.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { RateLimiter } from './rate-limits/rate-limiter.ts';

/** Everything the app serves, built by `runtime.ts` (the only place that knows the adapters). */
export interface AppDeps {
  config: Config;
  logger: FastifyBaseLogger;
  database: DatabaseHandle;
  storage: Storage;
  mailer: Mailer;
  events: EventBus;
  queue: JobQueue;
  auth: Auth;
  billing: Billing;
  studio: Studio;
  generation: Generation;
  tryOn: TryOnFeature;
  costs: Costs;
  catalog: CatalogService;
  catalogAdmin: CatalogAdminService;
  /** The one rate limiter (decision 028): the global per-IP limit, the routes' and sign-in's. */
  limiter: RateLimiter;
  /** Who sent a request, from its session cookie and the session cache (decision 042). */
  authenticator: Authenticator;
  sessions: SessionService;
  authService: AuthService;
  account: AccountService;
}

/**
 * Builds the HTTP application: the plugins every request passes through, then the features'
 * routes. It never listens, so tests drive it with `inject` or a port of their own.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerMalformedUrl,
    genReqId: requestIdOf,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The order is the order of their hooks: each request gets its id and context before the
  // origin check, Helmet's headers and the rate limit see it.
  const webBuild = findWebBuild();
  await app.register(errorAnswers);
  await app.register(refuseInvalidText);
  await app.register(notFound, { webBuild });
  await app.register(requestContext);
  await app.register(requestMetrics);
  await app.register(privateAnswers);
  await app.register(originCheck, { trustedOrigins: config.trustedOrigins });
  await app.register(securityHeaders, {
    fileOrigins: deps.storage.fileOrigin ? [await deps.storage.fileOrigin()] : [],
    production: config.env === 'production',
  });
  await app.register(rateLimits, {
    limiter: deps.limiter,
    logger: deps.logger,
    enabled: config.rateLimit.enabled,
    perMinute: config.rateLimit.perMinute,
  });
  await app.register(apiDocs);
  await app.register(webAppFiles, { build: webBuild, dataDir: config.dataDir });

  const { authenticator, sessions } = deps;
  await app.register(healthRoutes, healthOptions(deps));
  await app.register(authRoutes, { service: deps.authService, sessions });
  await app.register(accountRoutes, { account: deps.account, authenticator, sessions });
  await app.register(billingRoutes, {
    billing: deps.billing.service,
    authenticator,
    provider: config.billing.provider,
    testClock: config.billing.testClock,
  });
  await app.register(catalogRoutes, {
    catalog: deps.catalog,
    admin: deps.catalogAdmin,
    storage: deps.storage,
    authenticator,
  });
  await app.register(studioRoutes, {
    studio: deps.studio.service,
    training: deps.studio.training,
    engine: deps.studio.engine,
    authenticator,
    rateLimited: config.rateLimit.enabled,
    nsfwThreshold: config.nsfwThreshold,
  });
  await app.register(generationRoutes, {
    generation: deps.generation.service,
    storage: deps.storage,
    authenticator,
    rateLimited: config.rateLimit.enabled,
  });
  await app.register(tryOnRoutes, {
    tryOn: deps.tryOn.service,
    engine: deps.tryOn.engine,
    authenticator,
    rateLimited: config.rateLimit.enabled,
    nsfwThreshold: config.nsfwThreshold,
  });
  await app.register(costRoutes, { costs: deps.costs, authenticator });
  await app.register(eventRoutes, {
    bus: deps.events,
    authenticator,
    heartbeatMs: config.sseHeartbeatMs,
    sessionExpiry: sessions.expiryOf,
  });
  // A bucket serves its own presigned URLs; only local disk needs the files route.
  if (deps.storage.servedFiles) await app.register(fileRoutes, { files: deps.storage.servedFiles });

  return app;
}

type OperatorDeps = Pick<AppDeps, 'config' | 'logger' | 'database' | 'queue'>;

const healthOptions = (deps: OperatorDeps) => ({
  database: deps.database,
  queue: deps.queue,
  metricsToken: deps.config.metricsToken,
});

/**
 * A worker's own listener: health for the orchestrator and `/metrics` for the scraper. Job and
 * engine counters live in the process that runs the jobs, so a worker must be scraped itself.
 * It serves nothing else; the API stays on web processes.
 */
export async function buildWorkerApp(deps: OperatorDeps): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: deps.logger });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorAnswers);
  await app.register(healthRoutes, healthOptions(deps));
  app.setNotFoundHandler(nothingHere);
  return app;
}
