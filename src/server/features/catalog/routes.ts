import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  categoriesResponseSchema,
  categoryDetailResponseSchema,
  examplePhotosResponseSchema,
  landingResponseSchema,
  presetResponseSchema,
  presetsQuerySchema,
  presetsResponseSchema,
  quizImagesResponseSchema,
} from '../../../common/api/catalog.ts';
import { adminMessages } from '../../../common/messages/admin.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import { AppError } from '../../http/app-error.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { CatalogAdminService } from './admin-service.ts';
import { adminCatalogRoutes } from './admin-routes.ts';
import { catalogImagesPath, keyForImagePath } from './images.ts';
import type { CatalogService } from './service.ts';

export interface CatalogRoutesOptions {
  catalog: CatalogService;
  admin: CatalogAdminService;
  storage: Storage;
  authenticator: Authenticator;
}

/** The public catalog API, its pictures and the operator's admin API (under /api/admin). */
export async function catalogRoutes(app: FastifyInstance, options: CatalogRoutesOptions) {
  await app.register(publicCatalogRoutes, { catalog: options.catalog });
  await app.register(catalogImageRoutes, { storage: options.storage });
  await app.register(adminCatalogRoutes, {
    prefix: '/api/admin',
    admin: options.admin,
    authenticator: options.authenticator,
  });
}

const manualIdParams = z.object({ manualId: z.string().min(1).max(64) });
const idParams = z.object({ id: z.string().min(1).max(64) });

const publicCatalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (
  app,
  { catalog },
) => {
  // Catalog JSON is the same for everyone and changes when an operator edits it: caches may
  // keep it but must revalidate, which costs a 304 when nothing changed.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
    reply.header('etag', etag).header('cache-control', 'public, no-cache');
    if (request.headers['if-none-match'] === etag) {
      reply.code(304);
      return '';
    }
    return payload;
  });

  app.get(
    '/api/catalog/categories',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Active categories in order',
        response: { 200: categoriesResponseSchema },
      },
    },
    () => catalog.categories(),
  );

  app.get(
    '/api/catalog/categories/:manualId',
    {
      schema: {
        tags: ['catalog'],
        summary: 'An active category with its active presets (404 "Category not found")',
        params: manualIdParams,
        response: { 200: categoryDetailResponseSchema },
      },
    },
    (request) => catalog.category(request.params.manualId),
  );

  app.get(
    '/api/catalog/presets',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Active presets of active categories, in order; ?category= narrows to one',
        querystring: presetsQuerySchema,
        response: { 200: presetsResponseSchema },
      },
    },
    (request) => catalog.presets(request.query.category),
  );

  app.get(
    '/api/catalog/presets/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One preset with its category and pictures (404 "Model not found")',
        params: idParams,
        response: { 200: presetResponseSchema },
      },
    },
    (request) => catalog.preset(request.params.id),
  );

  app.get(
    '/api/catalog/landing',
    {
      schema: {
        tags: ['catalog'],
        summary: 'The landing showcase: per category at most 8 presets that have a picture',
        response: { 200: landingResponseSchema },
      },
    },
    () => catalog.landing(),
  );

  app.get(
    '/api/catalog/example-photos',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Good and bad example photos for the photo guidelines',
        response: { 200: examplePhotosResponseSchema },
      },
    },
    () => catalog.examplePhotos(),
  );

  app.get(
    '/api/catalog/quiz-images',
    {
      schema: {
        tags: ['catalog'],
        summary: 'The quiz pictures (at most 16) and which are AI-generated',
        response: { 200: quizImagesResponseSchema },
      },
    },
    () => catalog.quizImages(),
  );
};

/**
 * Catalog pictures are public and their keys are content hashes, so a URL always means the same
 * bytes: browsers and CDNs keep them for a year without asking again (decision 007).
 */
async function catalogImageRoutes(app: FastifyInstance, { storage }: { storage: Storage }) {
  app.get(
    `${catalogImagesPath}/*`,
    { schema: { hide: true }, config: { rateLimit: false } },
    async (request, reply) => {
      const key = keyForImagePath((request.params as { '*': string })['*']);
      if (!key || !(await storage.exists(key).catch(() => false)))
        throw new AppError('NOT_FOUND', adminMessages.imageNotFound);
      const etag = `"${key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('.'))}"`;
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('image/webp').send(await storage.read(key));
    },
  );
}
