import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../common/errors.ts';
import { idParamsSchema } from '../../../common/api/generation.ts';
import {
  tryOnResponseSchema,
  tryOnsQuerySchema,
  tryOnsResponseSchema,
} from '../../../common/api/tryon.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { validationMessages } from '../../../common/messages/studio.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { rateLimits } from '../../../common/product/limits.ts';
import { tryOn as tryOnRules } from '../../../common/product/tryon.ts';
import type { TryOnEngine } from '../../adapters/engine/tryon-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { normalizePhoto, receiveUpload } from '../../images/intake.ts';
import { garmentBackdrop } from './garment-backdrop.ts';
import type { PersonSource, TryOnService } from './service.ts';

export interface TryOnRoutesOptions {
  tryOn: TryOnService;
  engine: TryOnEngine;
  authenticator: Authenticator;
  rateLimited: boolean;
  /** Uploads the NSFW classifier flags at this threshold are refused. */
  nsfwThreshold: number;
}

const tags = ['try-on'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
// Two pictures and a field.
const maxRequestBytes = 2 * tryOnRules.maxUploadBytes + 64 * 1024;

/** The studio's try-on (dashboard tab) and the try-on engine's webhook. */
export async function tryOnRoutes(
  app: Parameters<FastifyPluginAsync<TryOnRoutesOptions>>[0],
  options: TryOnRoutesOptions,
) {
  await app.register(tryOnApi, options);
  await app.register(tryOnWebhookRoute, options);
}

const tryOnApi: FastifyPluginAsyncZod<TryOnRoutesOptions> = async (app, options) => {
  const { tryOn, authenticator, nsfwThreshold } = options;
  await app.register(multipart, {
    limits: { fileSize: tryOnRules.maxUploadBytes, files: 2, fields: 2, fieldSize: 256, parts: 5 },
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  app.post(
    '/api/tryons',
    {
      ...(options.rateLimited
        ? {
            config: {
              rateLimit: {
                max: rateLimits.generation.max,
                timeWindow: rateLimits.generation.windowMs,
              },
            },
          }
        : {}),
      preValidation: async (request) => {
        const length = Number(request.headers['content-length']);
        if (Number.isFinite(length) && length > maxRequestBytes)
          throw new AppError('PAYLOAD_TOO_LARGE', validationMessages.reasons.fileTooLarge);
      },
      schema: {
        tags,
        summary:
          'Start a try-on (multipart: file "garment", and file "person" or field "personGenerationId"; 1 credit; Pro and above)',
        consumes: ['multipart/form-data'],
        response: { 201: tryOnResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      await tryOn.assertTier(user.id);
      const upload = await receiveUpload(request, {
        files: ['person', 'garment'],
        fields: ['personGenerationId'],
      });
      try {
        const personFile = upload.files.get('person');
        const garmentFile = upload.files.get('garment');
        const generationId = upload.fields.get('personGenerationId')?.trim();
        const person: PersonSource | undefined = personFile
          ? { upload: await normalizePhoto(personFile.path, { nsfwThreshold }) }
          : generationId
            ? { generationId }
            : undefined;
        const garment = garmentFile
          ? await normalizePhoto(garmentFile.path, {
              background: await garmentBackdrop(garmentFile.path),
              nsfwThreshold,
            })
          : undefined;
        return reply.status(201).send({ tryOn: await tryOn.create(user.id, person, garment) });
      } finally {
        await upload.discard();
      }
    },
  );

  app.get(
    '/api/tryons',
    {
      schema: {
        tags,
        summary:
          'Your try-ons, newest first, a page at a time (cursor: the last of the previous page)',
        querystring: tryOnsQuerySchema,
        response: { 200: tryOnsResponseSchema, ...errors },
      },
    },
    async (request) =>
      tryOn.list((await authenticator.requireUser(request)).id, request.query.cursor),
  );

  app.get(
    '/api/tryons/:id',
    {
      schema: {
        tags,
        summary: 'One try-on',
        params: idParamsSchema,
        response: { 200: tryOnResponseSchema, ...errors },
      },
    },
    async (request) => ({
      tryOn: await tryOn.get((await authenticator.requireUser(request)).id, request.params.id),
    }),
  );
};

/**
 * FASHN does not sign its webhooks: the URL carries a token bound to the try-on, and the body is
 * never trusted (the state is read again from the provider).
 */
const tryOnWebhookRoute: FastifyPluginAsync<TryOnRoutesOptions> = async (app, options) => {
  const { engine, tryOn } = options;
  if (engine.name === 'local') return;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    `/api/webhooks/tryon/${engine.name}`,
    {
      config: { skipOriginCheck: true },
      schema: { tags, summary: `Try-on news from ${engine.name}` },
    },
    async (request, reply) => {
      const id = engine.readWebhook({
        headers: request.headers,
        query: request.query as Record<string, string | undefined>,
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      });
      if (!id) throw new AppError('UNAUTHORIZED', httpMessages.webhookNotVerified);
      const outcome = await tryOn.webhook(id);
      // Not a 2xx, so FASHN delivers again (up to 5 times within about 5 minutes).
      if (outcome === 'early') throw new AppError('UNAVAILABLE', tryonMessages.webhookTooEarly);
      if (outcome === 'unknown') request.log.warn({ tryOnId: id }, 'webhook for an unknown try-on');
      return reply.send({ received: true });
    },
  );
};
