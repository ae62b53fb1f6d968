import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { ErrorCode, ErrorResponse } from '../common/errors.ts';
import { messages } from '../common/messages.ts';
import type { Storage } from './adapters/storage/storage.ts';
import { LocalStorage } from './adapters/storage/local-storage.ts';
import { S3Storage } from './adapters/storage/s3-storage.ts';
import type { Mailer } from './adapters/email/mailer.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { accountRoutes } from './features/account/routes.ts';
import { createAccountService } from './features/account/service.ts';
import type { Auth } from './features/auth/auth.ts';
import { authRoutes } from './features/auth/routes.ts';
import { createAuthService } from './features/auth/service.ts';
import { createSessionService } from './features/auth/sessions.ts';
import type { Billing } from './features/billing/billing.ts';
import { billingRoutes } from './features/billing/routes.ts';
import { createCatalogAdminService } from './features/catalog/admin-service.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import { costRoutes } from './features/costs/routes.ts';
import type { Costs } from './features/costs/service.ts';
import { createCatalogService } from './features/catalog/service.ts';
import type { EventBus } from './features/events/event-bus.ts';
import { eventRoutes } from './features/events/routes.ts';
import { fileRoutes } from './features/files/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import type { Generation } from './features/generation/generation.ts';
import { generationRoutes } from './features/generation/routes.ts';
import type { Studio } from './features/studio/studio.ts';
import { tryOnRoutes } from './features/tryon/routes.ts';
import type { TryOnFeature } from './features/tryon/tryon.ts';
import { studioRoutes } from './features/studio/routes.ts';
import { AppError } from './http/app-error.ts';
import { runWithContext } from './observability/context.ts';
import { metrics } from './observability/metrics.ts';
import { createHttpRateLimitStore } from './rate-limits/http-rate-limit-store.ts';
import { createRateLimiter } from './rate-limits/rate-limiter.ts';
import { createAuthenticator } from './features/auth/authenticate.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import type { JobQueue } from './jobs/job-queue.ts';

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
}

const webRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));
const methods: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Webhooks come from providers, not browsers: they prove themselves by signature instead. */
    skipOriginCheck?: boolean;
  }
}

/** Builds the HTTP application; it never listens, so tests drive it with `inject` or a port of their own. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The router refuses a malformed URL (`%E0`) before any handler runs; answer in our shape.
    frameworkErrors: (_error, _request, reply) =>
      sendError(reply, 400, 'BAD_REQUEST', messages.http.invalidAddress),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler(answerError);

  // Text the database cannot store (NUL) or that is not Unicode at all (a lone surrogate) is
  // refused before any route sees it, wherever it hides: body, query or path.
  app.addHook('preValidation', async (request) => {
    if (
      hasInvalidText(request.body) ||
      hasInvalidText(request.query) ||
      hasInvalidText(request.params)
    )
      throw new AppError('BAD_REQUEST', messages.http.invalidText);
  });

  // Every route is mirrored into a router of our own so a wrong method can answer 405, not 404.
  const knownRoutes = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (
        methods.includes(method as HTTPMethod) &&
        !knownRoutes.find(method as HTTPMethod, route.url)
      ) {
        knownRoutes.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });

  // Log lines and jobs started while serving a request carry its id.
  app.addHook('onRequest', (request, _reply, done) =>
    runWithContext({ requestId: request.id }, done),
  );
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        // The route's pattern, not the URL: ids must not multiply the series.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  // An answer built for a signed-in user is theirs alone: no browser or proxy may keep it, on
  // every route at once rather than each route remembering (GET /api/me once did not). A route
  // that chose its own caching (a signed file link's private max-age) keeps it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.sessionUser && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (safeMethods.has(request.method) || request.routeOptions.config.skipOriginCheck) return;
    if (!request.url.startsWith('/api/')) return;
    // Browsers send Origin on every cross-site write; a request from a site we do not trust is refused.
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if ((origin && !config.trustedOrigins.includes(origin)) || fetchSite === 'cross-site') {
      throw new AppError('FORBIDDEN', messages.auth.crossSiteRefused);
    }
  });

  // Files in a bucket come from its own origin (presigned URLs): pages show and download them.
  const fileOrigins = deps.storage instanceof S3Storage ? [await deps.storage.fileOrigin()] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...fileOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...fileOrigins],
        mediaSrc: ["'self'", 'blob:', ...fileOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.env === 'production' ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.env === 'production',
  });

  // One store for every limit, in Postgres, so that limits hold across web processes: the
  // plugin's global per-IP limit and the routes' own (uploads, generations, try-ons) count here,
  // the auth service's limits too (decision 028).
  const limiter = createRateLimiter(deps.database.db, { enabled: config.rateLimit.enabled });
  await app.register(rateLimit, {
    global: config.rateLimit.enabled,
    max: config.rateLimit.perMinute,
    timeWindow: '1 minute',
    store: createHttpRateLimitStore(limiter, deps.logger),
    // A limit that cannot be counted (database down) lets the request through; the request
    // itself then fails or succeeds on its own.
    skipOnError: true,
    errorResponseBuilder: () => new AppError('RATE_LIMITED', messages.http.tooManyRequests),
  });

  await app.register(swagger, {
    openapi: { info: { title: 'Likeness API', version: '1.0.0' }, servers: [] },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const hasWebBuild = existsSync(path.join(webRoot, 'index.html'));
  // The landing page prerendered by the build (see scripts/vite-plugins/prerender-landing.ts).
  const hasLandingPage = hasWebBuild && existsSync(path.join(webRoot, 'landing.html'));
  // Files are sent by explicit routes (each with its own root), so nothing is served by accident.
  // The build writes Brotli and gzip copies of its text files (.br, .gz); a browser that accepts
  // one gets it instead of the file itself. Other files have no such copies and go out as they are.
  await app.register(fastifyStatic, {
    root: hasWebBuild ? webRoot : config.dataDir,
    serve: false,
    preCompressed: true,
  });
  if (hasWebBuild) {
    app.get(
      '/assets/*',
      { schema: { hide: true }, config: { rateLimit: false } },
      (request, reply) =>
        reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .sendFile(`assets/${(request.params as { '*': string })['*']}`, webRoot, {
            cacheControl: false,
          }),
    );
    for (const file of ['favicon.svg', 'robots.txt']) {
      if (existsSync(path.join(webRoot, file))) {
        app.get(
          `/${file}`,
          { schema: { hide: true }, config: { rateLimit: false } },
          (_request, reply) => reply.sendFile(file, webRoot),
        );
      }
    }
  }

  // Sessions read lately are answered from memory; every ending reaches every process's cache
  // over the event bus, and a gap in the bus empties it (decision 042).
  const sessionCache = config.sessionCacheSeconds
    ? createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 })
    : undefined;
  if (sessionCache) {
    const stopEndings = deps.events.onAnySessionsEnded((userId, ended) =>
      sessionCache.end(userId, ended),
    );
    const stopResync = deps.events.onResync(() => sessionCache.clear());
    app.addHook('onClose', async () => {
      stopEndings();
      stopResync();
    });
  }
  const authenticator = createAuthenticator(deps.auth, sessionCache);
  const sessions = createSessionService(deps.auth, authenticator, deps.events);
  const authService = createAuthService({
    auth: deps.auth,
    config,
    limiter,
    logger: deps.logger,
  });
  // Features that must act before an account is deleted (billing, later) join this list.
  const account = createAccountService({
    db: deps.database.db,
    storage: deps.storage,
    deletionParticipants: [
      deps.billing.service.deletionParticipant,
      deps.studio.service.deletionParticipant,
    ],
    logger: deps.logger,
  });

  await app.register(healthRoutes, healthOptions(deps));
  await app.register(authRoutes, { service: authService, sessions });
  await app.register(accountRoutes, { account, authenticator, sessions });
  await app.register(billingRoutes, {
    billing: deps.billing.service,
    authenticator,
    provider: config.billing.provider,
    testClock: config.billing.testClock,
  });
  await app.register(catalogRoutes, {
    catalog: createCatalogService({ db: deps.database.db }),
    admin: createCatalogAdminService({ db: deps.database.db, storage: deps.storage }),
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
  if (deps.storage instanceof LocalStorage && config.storage.driver === 'local') {
    await app.register(fileRoutes, { storage: deps.storage, root: config.storage.localDir });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname.startsWith('/api/') || pathname === '/api';
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && hasWebBuild) {
      // The web app owns every other path (its router shows the 404 page for unknown ones).
      // The privacy policy stays out of search results, even for crawlers that run no script.
      if (pathname === '/privacy') reply.header('x-robots-tag', 'noindex');
      // `/` comes prerendered, so it paints before the scripts run; they then take it over.
      const page = pathname === '/' && hasLandingPage ? 'landing.html' : 'index.html';
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html')
        .sendFile(page, webRoot, { cacheControl: false });
    }
    const allowed = methods.filter((method) => knownRoutes.find(method, pathname));
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        405,
        'METHOD_NOT_ALLOWED',
        messages.http.methodNotAllowed(request.method),
      );
    }
    return sendError(reply, 404, 'NOT_FOUND', messages.http.nothingHere);
  });

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
  app.setErrorHandler(answerError);
  await app.register(healthRoutes, healthOptions(deps));
  app.setNotFoundHandler((_request, reply) =>
    sendError(reply, 404, 'NOT_FOUND', messages.http.nothingHere),
  );
  return app;
}

/** Every error leaves in our wire shape; a server fault is logged and told in general words. */
function answerError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError)
    return sendError(reply, error.statusCode, error.code, error.message);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = first?.instancePath
      ? `${first.instancePath.slice(1).replaceAll('/', '.')}: `
      : '';
    return sendError(
      reply,
      400,
      'VALIDATION_ERROR',
      `${where}${first?.message ?? 'Invalid request'}`,
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'INTERNAL', messages.http.serverError);
  }
  return sendError(reply, status, codeForStatus(status), messageForClientError(error, status));
}

// A NUL, or a UTF-16 surrogate without its other half.
const invalidText =
  // eslint-disable-next-line no-control-regex -- finding the NUL is the point
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

function hasInvalidText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return invalidText.test(value);
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value))
    return false;
  for (const [key, item] of Object.entries(value)) {
    if (invalidText.test(key) || hasInvalidText(item, depth + 1)) return true;
  }
  return false;
}

function sendError(
  reply: import('fastify').FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
) {
  const body: ErrorResponse = { error: { code, message } };
  return reply.status(status).type('application/json').send(body);
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'BAD_REQUEST';
  }
}

function messageForClientError(error: FastifyError, status: number): string {
  if (status === 413) return messages.http.tooLarge;
  if (status === 415) return messages.http.unsupportedContentType;
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return messages.http.invalidJson;
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return messages.http.emptyBody;
  return error.message;
}
