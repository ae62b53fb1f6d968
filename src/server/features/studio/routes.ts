import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../../common/errors.ts';
import {
  createModelRequestSchema,
  createModelResponseSchema,
  draftPhotosResponseSchema,
  draftSchema,
  modelIdParamsSchema,
  photoIdParamsSchema,
  selectModelRequestSchema,
  studioSettingsSchema,
  updateDraftRequestSchema,
  uploadPhotoResponseSchema,
  userModelsResponseSchema,
} from '../../../common/api/studio.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { validationMessages } from '../../../common/messages/studio.ts';
import { rateLimits } from '../../../common/product/limits.ts';
import { photos } from '../../../common/product/photos.ts';
import type { TrainingEngine } from '../../adapters/engine/training-engine.ts';
import { AppError } from '../../http/app-error.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { normalizePhoto, receiveSingleFile } from '../../images/intake.ts';
import type { StudioService } from './service.ts';
import type { Training } from './training.ts';

export interface StudioRoutesOptions {
  studio: StudioService;
  training: Training;
  engine: TrainingEngine;
  authenticator: Authenticator;
  rateLimited: boolean;
  /** Uploads the NSFW classifier flags at this threshold are refused. */
  nsfwThreshold: number;
}

const tags = ['studio'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
};
// A multipart body carries a little more than its file.
const maxUploadRequestBytes = photos.maxUploadBytes + 64 * 1024;

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** Model creation (draft photos, draft, models, settings) and the engines' training webhooks. */
export async function studioRoutes(
  app: Parameters<FastifyPluginAsync<StudioRoutesOptions>>[0],
  options: StudioRoutesOptions,
) {
  await app.register(studioApi, options);
  await app.register(trainingWebhookRoute, options);
}

const studioApi: FastifyPluginAsyncZod<StudioRoutesOptions> = async (app, options) => {
  const { studio, authenticator, nsfwThreshold } = options;
  await app.register(multipart, {
    limits: { fileSize: photos.maxUploadBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    noStore(reply);
    return payload;
  });

  app.get(
    '/api/studio/photos',
    {
      schema: {
        tags,
        summary: "The draft's training photos with their validation state",
        response: { 200: draftPhotosResponseSchema, ...errors },
      },
    },
    async (request) => studio.draftPhotos((await authenticator.requireUser(request)).id),
  );

  app.post(
    '/api/studio/photos',
    {
      schema: {
        tags,
        summary:
          'Upload one training photo (multipart field "file": JPEG, PNG or WebP, up to 10 MB); it is validated in the background',
        consumes: ['multipart/form-data'],
        response: { 201: uploadPhotoResponseSchema, ...errors },
      },
      ...(options.rateLimited
        ? {
            config: {
              rateLimit: { max: rateLimits.uploads.max, timeWindow: rateLimits.uploads.windowMs },
            },
          }
        : {}),
      preValidation: refuseOversizedUpload,
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      await studio.assertRoomForPhoto(user.id);
      const photo = await studio.addPhoto(user.id, async () => {
        const file = await receiveSingleFile(request);
        try {
          return {
            fileName: file.fileName,
            photo: await normalizePhoto(file.path, { nsfwThreshold }),
          };
        } finally {
          await file.discard();
        }
      });
      return reply.status(201).send({ photo });
    },
  );

  app.delete(
    '/api/studio/photos/:photoId',
    {
      schema: {
        tags,
        summary: 'Remove a photo from the draft',
        params: photoIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      await studio.deletePhoto(user.id, request.params.photoId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/studio/draft',
    {
      schema: {
        tags,
        summary: 'The gender and name chosen so far',
        response: { 200: draftSchema, ...errors },
      },
    },
    async (request) => studio.draft((await authenticator.requireUser(request)).id),
  );

  app.put(
    '/api/studio/draft',
    {
      schema: {
        tags,
        summary: 'Save the gender and/or name chosen so far',
        body: updateDraftRequestSchema,
        response: { 200: draftSchema, ...errors },
      },
    },
    async (request) =>
      studio.updateDraft((await authenticator.requireUser(request)).id, request.body),
  );

  app.get(
    '/api/studio/models',
    {
      schema: {
        tags,
        summary: "The user's AI models, newest first",
        response: { 200: userModelsResponseSchema, ...errors },
      },
    },
    async (request) => studio.models((await authenticator.requireUser(request)).id),
  );

  app.post(
    '/api/studio/models',
    {
      schema: {
        tags,
        summary:
          "Create an AI model from the draft's photos and start its training (a monthly free training, else 50 credits)",
        body: createModelRequestSchema,
        response: { 201: createModelResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      const model = await studio.createModel(user.id, request.body);
      return reply.status(201).send({ model });
    },
  );

  app.put(
    '/api/studio/models/selected',
    {
      schema: {
        tags,
        summary: 'Choose the AI model generation uses (Pro, Premium, Enterprise)',
        body: selectModelRequestSchema,
        response: { 200: userModelsResponseSchema, ...errors },
      },
    },
    async (request) =>
      studio.selectModel((await authenticator.requireUser(request)).id, request.body.modelId),
  );

  app.delete(
    '/api/studio/models/:modelId',
    {
      schema: {
        tags,
        summary: 'Delete an AI model and everything made from it',
        params: modelIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = await authenticator.requireUser(request);
      await studio.deleteModel(user.id, request.params.modelId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/studio/settings',
    {
      schema: {
        tags,
        summary: 'Studio privacy settings',
        response: { 200: studioSettingsSchema, ...errors },
      },
    },
    async (request) => studio.settings((await authenticator.requireUser(request)).id),
  );

  app.put(
    '/api/studio/settings',
    {
      schema: {
        tags,
        summary: 'Change studio privacy settings',
        body: studioSettingsSchema,
        response: { 200: studioSettingsSchema, ...errors },
      },
    },
    async (request) =>
      studio.updateSettings((await authenticator.requireUser(request)).id, request.body),
  );
};

async function refuseOversizedUpload(request: FastifyRequest) {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > maxUploadRequestBytes)
    throw new AppError('PAYLOAD_TOO_LARGE', validationMessages.reasons.fileTooLarge);
}

/**
 * Engines sign the exact bytes they send, so this scope keeps the body raw. Only the configured
 * engine's address exists; a delivery that does not verify is refused and changes nothing.
 */
const trainingWebhookRoute: FastifyPluginAsync<StudioRoutesOptions> = async (app, options) => {
  const { engine, training } = options;
  if (engine.name === 'local') return;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    `/api/webhooks/training/${engine.name}`,
    {
      config: { skipOriginCheck: true },
      schema: { tags, summary: `Training news from ${engine.name} (signed)` },
    },
    async (request, reply) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const news = await engine.readWebhook({
        headers: request.headers,
        query: request.query as Record<string, string | undefined>,
        rawBody,
      });
      if (!news) throw new AppError('UNAUTHORIZED', httpMessages.webhookNotVerified);
      const known = await training.webhook(
        news.reference,
        news.state,
        (request.query as { model?: unknown }).model?.toString(),
      );
      if (!known)
        request.log.warn({ reference: news.reference }, 'webhook for an unknown training');
      return reply.send({ received: true });
    },
  );
};
