import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../../common/errors.ts';
import {
  bulkCreatedSchema,
  bulkJobDetailSchema,
  bulkJobsResponseSchema,
  bulkRequestSchema,
  customGenerationRequestSchema,
  favouriteRequestSchema,
  selectionZipQuerySchema,
  generationResponseSchema,
  generationsPageSchema,
  generationsQuerySchema,
  idParamsSchema,
  presetGenerationRequestSchema,
} from '../../../common/api/generation.ts';
import { rateLimits } from '../../../common/product/limits.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { zipStoredFiles } from '../../lib/zip-stream.ts';
import type { GenerationRow } from './repository.ts';
import type { GenerationService } from './service.ts';

export interface GenerationRoutesOptions {
  generation: GenerationService;
  storage: Storage;
  authenticator: Authenticator;
  rateLimited: boolean;
}

const tags = ['generation'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

export const generationRoutes: FastifyPluginAsyncZod<GenerationRoutesOptions> = async (
  app,
  options,
) => {
  const { generation, authenticator, storage } = options;
  const limited = options.rateLimited
    ? {
        config: {
          rateLimit: { max: rateLimits.generation.max, timeWindow: rateLimits.generation.windowMs },
        },
      }
    : {};
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  /** The signed-in user's id: without a promise when the session is known (`requireUser`). */
  const user = (request: Parameters<Authenticator['requireUser']>[0]) => {
    const found = authenticator.requireUser(request);
    return found instanceof Promise ? found.then(({ id }) => id) : found.id;
  };

  app.post(
    '/api/generations',
    {
      ...limited,
      schema: {
        tags,
        summary: "Generate one image of a preset with one of the user's models (1 credit)",
        body: presetGenerationRequestSchema,
        response: { 201: generationResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ generation: await generation.fromPreset(await user(request), request.body) }),
  );

  app.post(
    '/api/generations/custom',
    {
      ...limited,
      schema: {
        tags,
        summary: 'Generate one image from your own prompt (Pro and above, 1 credit)',
        body: customGenerationRequestSchema,
        response: { 201: generationResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ generation: await generation.fromPrompt(await user(request), request.body) }),
  );

  app.get(
    '/api/generations',
    {
      schema: {
        tags,
        summary: 'Your generated images, newest first (single ones, complete ones or favourites)',
        querystring: generationsQuerySchema,
        response: { 200: generationsPageSchema, ...errors },
      },
    },
    async (request) => generation.list(await user(request), request.query),
  );

  app.get(
    '/api/generations/favourites/zip',
    { schema: { tags, summary: 'Download your favourite images as one zip' } },
    async (request, reply) =>
      sendZip(
        reply,
        await generation.downloadable(await user(request), 'favourites'),
        'favourites',
      ),
  );

  app.get(
    '/api/generations/zip',
    {
      schema: {
        tags,
        summary: 'Download selected images as one zip (ids: up to 50, comma-separated)',
        querystring: selectionZipQuerySchema,
      },
    },
    async (request, reply) =>
      sendZip(
        reply,
        await generation.downloadable(await user(request), { ids: request.query.ids }),
        'selection',
      ),
  );

  app.get(
    '/api/generations/:id',
    {
      schema: {
        tags,
        summary: 'One generation',
        params: idParamsSchema,
        response: { 200: generationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      generation: await generation.get(await user(request), request.params.id),
    }),
  );

  app.post(
    '/api/generations/:id/viewed',
    {
      schema: {
        tags,
        summary: 'Mark a generation as seen',
        params: idParamsSchema,
        response: { 200: generationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      generation: await generation.markViewed(await user(request), request.params.id),
    }),
  );

  app.put(
    '/api/generations/:id/favourite',
    {
      schema: {
        tags,
        summary: 'Add a generation to your favourites or take it out',
        params: idParamsSchema,
        body: favouriteRequestSchema,
        response: { 200: generationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      generation: await generation.setFavourite(
        await user(request),
        request.params.id,
        request.body.favourite,
      ),
    }),
  );

  app.delete(
    '/api/generations/:id',
    {
      schema: {
        tags,
        summary: 'Delete a generation and its image',
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await generation.delete(await user(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/bulk-jobs',
    {
      ...limited,
      schema: {
        tags,
        summary:
          'Generate many images in one request (presets × one model, or one prompt × several models; 1 credit each; Pro and above)',
        body: bulkRequestSchema,
        response: { 201: bulkCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await generation.bulk(await user(request), request.body)),
  );

  app.get(
    '/api/bulk-jobs',
    {
      schema: {
        tags,
        summary: 'Your newest bulk jobs',
        response: { 200: bulkJobsResponseSchema, ...errors },
      },
    },
    async (request) => generation.bulkJobs(await user(request)),
  );

  app.get(
    '/api/bulk-jobs/:id',
    {
      schema: {
        tags,
        summary: 'A bulk job with its images',
        params: idParamsSchema,
        response: { 200: bulkJobDetailSchema, ...errors },
      },
    },
    async (request) => generation.bulkJob(await user(request), request.params.id),
  );

  app.get(
    '/api/bulk-jobs/:id/zip',
    {
      schema: { tags, summary: "Download a bulk job's images as one zip", params: idParamsSchema },
    },
    async (request, reply) =>
      sendZip(
        reply,
        await generation.downloadable(await user(request), { bulkJobId: request.params.id }),
        `bulk-${request.params.id.slice(0, 8)}`,
      ),
  );

  function sendZip(reply: FastifyReply, rows: GenerationRow[], name: string) {
    const entries = rows.map((row, index) => ({
      name: `${String(index + 1).padStart(3, '0')}-${slug(row.modelName)}.jpg`,
      key: row.imageKey!,
    }));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="likeness-${name}.zip"`)
      .send(zipStoredFiles(storage, entries));
  }
};

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'image'
  );
}
