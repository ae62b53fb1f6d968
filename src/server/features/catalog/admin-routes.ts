import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCategoriesResponseSchema,
  adminCategoryResponseSchema,
  adminExamplePhotoResponseSchema,
  adminExamplePhotosResponseSchema,
  adminPresetResponseSchema,
  adminPresetsQuerySchema,
  adminPresetsResponseSchema,
  adminQuizImageResponseSchema,
  adminQuizImagesResponseSchema,
  createCategoryRequestSchema,
  createExamplePhotoQuerySchema,
  createPresetRequestSchema,
  createQuizImageQuerySchema,
  reorderByIdRequestSchema,
  reorderCategoriesRequestSchema,
  reorderPresetsRequestSchema,
  updateCategoryRequestSchema,
  updateExamplePhotoRequestSchema,
  updatePresetRequestSchema,
  updateQuizImageRequestSchema,
  uploadPresetImageQuerySchema,
} from '../../../common/api/admin.ts';
import { errorResponseSchema } from '../../../common/errors.ts';
import { adminMessages } from '../../../common/messages/admin.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { catalog } from '../../../common/product/catalog.ts';
import { AppError } from '../../http/app-error.ts';
import { adminOnly } from '../admin/guard.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { CatalogAdminService } from './admin-service.ts';

const manualIdParams = z.object({ manualId: z.string().min(1).max(64) });
const idParams = z.object({ id: z.string().min(1).max(64) });
const imageParams = z.object({ id: z.string().min(1).max(64), imageId: z.string().min(1).max(64) });

// Multipart framing around one file: anything much beyond the file limit cannot be a valid upload.
const maxUploadRequestBytes = catalog.maxUploadBytes + 256 * 1024;

/**
 * The operator's API, registered under /api/admin. Every route, and every unknown address
 * below it, answers 404 unless the signed-in user has the `admin` role: to anyone else the
 * admin area does not exist. Multipart parsing lives only in this plugin.
 */
export const adminCatalogRoutes: FastifyPluginAsyncZod<{
  admin: CatalogAdminService;
  authenticator: Authenticator;
}> = async (app, { admin, authenticator }) => {
  await app.register(multipart, {
    limits: {
      fileSize: catalog.maxUploadBytes,
      files: 1,
      fields: 10,
      fieldSize: 4096,
      parts: 12,
    },
  });

  app.addHook('onRequest', adminOnly(authenticator));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // A wrong method or an unknown path answers 404 as well (never 405, which would confirm the address).
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: { code: 'NOT_FOUND', message: httpMessages.nothingHere } }),
  );

  const errors = { 400: errorResponseSchema, 404: errorResponseSchema };
  const tags = ['admin'];

  // ── Categories ──────────────────────────────────────────────────────────────────────────────

  app.get(
    '/categories',
    {
      schema: {
        tags,
        summary: 'Every category (active or not) with its preset count',
        response: { 200: adminCategoriesResponseSchema },
      },
    },
    async () => ({ categories: await admin.listCategories() }),
  );

  app.post(
    '/categories',
    {
      schema: {
        tags,
        summary: 'Create a category (added last)',
        body: createCategoryRequestSchema,
        response: { 201: adminCategoryResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ category: await admin.createCategory(request.body) }),
  );

  app.put(
    '/categories/order',
    {
      schema: {
        tags,
        summary: 'Reorder categories: every key, in the new order',
        body: reorderCategoriesRequestSchema,
        response: { 200: adminCategoriesResponseSchema, ...errors },
      },
    },
    async (request) => ({ categories: await admin.reorderCategories(request.body.manualIds) }),
  );

  app.patch(
    '/categories/:manualId',
    {
      schema: {
        tags,
        summary: 'Change a category (name, emoji, featured, active, key)',
        params: manualIdParams,
        body: updateCategoryRequestSchema,
        response: { 200: adminCategoryResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request) => ({
      category: await admin.updateCategory(request.params.manualId, request.body),
    }),
  );

  app.delete(
    '/categories/:manualId',
    {
      schema: {
        tags,
        summary: 'Delete an empty category (409 while it has presets)',
        params: manualIdParams,
      },
    },
    async (request, reply) => {
      await admin.deleteCategory(request.params.manualId);
      return reply.status(204).send();
    },
  );

  // ── Presets ─────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/presets',
    {
      schema: {
        tags,
        summary: 'Every preset (active or not) with its prompt; ?category= narrows to one',
        querystring: adminPresetsQuerySchema,
        response: { 200: adminPresetsResponseSchema, ...errors },
      },
    },
    async (request) => ({ presets: await admin.listPresets(request.query.category) }),
  );

  app.post(
    '/presets',
    {
      schema: {
        tags,
        summary: 'Create a preset (added last in its category; pictures are uploaded next)',
        body: createPresetRequestSchema,
        response: { 201: adminPresetResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ preset: await admin.createPreset(request.body) }),
  );

  app.put(
    '/presets/order',
    {
      schema: {
        tags,
        summary: "Reorder one category's presets: every id of it, in the new order",
        body: reorderPresetsRequestSchema,
        response: { 200: adminPresetsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      presets: await admin.reorderPresets(request.body.categoryId, request.body.ids),
    }),
  );

  app.get(
    '/presets/:id',
    {
      schema: {
        tags,
        summary: 'One preset',
        params: idParams,
        response: { 200: adminPresetResponseSchema, ...errors },
      },
    },
    async (request) => ({ preset: await admin.getPreset(request.params.id) }),
  );

  app.patch(
    '/presets/:id',
    {
      schema: {
        tags,
        summary: 'Change a preset (texts, prompt, category, active, key)',
        params: idParams,
        body: updatePresetRequestSchema,
        response: { 200: adminPresetResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request) => ({ preset: await admin.updatePreset(request.params.id, request.body) }),
  );

  app.delete(
    '/presets/:id',
    { schema: { tags, summary: 'Delete a preset and its pictures', params: idParams } },
    async (request, reply) => {
      await admin.deletePreset(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/presets/:id/images',
    {
      preValidation: refuseOversizedUpload,
      schema: {
        tags,
        summary:
          'Upload a picture (multipart field "file": JPEG, PNG or WebP, up to 10 MB) as featured or additional',
        params: idParams,
        querystring: uploadPresetImageQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 200: adminPresetResponseSchema, ...errors, 413: errorResponseSchema },
      },
    },
    async (request) => ({
      preset: await admin.addPresetImage(
        request.params.id,
        { bytes: await readImageFile(request) },
        request.query.as,
      ),
    }),
  );

  app.post(
    '/presets/:id/images/:imageId/feature',
    {
      schema: {
        tags,
        summary: 'Make an additional picture the featured one',
        params: imageParams,
        response: { 200: adminPresetResponseSchema, ...errors },
      },
    },
    async (request) => ({
      preset: await admin.featurePresetImage(request.params.id, request.params.imageId),
    }),
  );

  app.delete(
    '/presets/:id/images/:imageId',
    {
      schema: {
        tags,
        summary: 'Remove a picture (and its files) from a preset',
        params: imageParams,
        response: { 200: adminPresetResponseSchema, ...errors },
      },
    },
    async (request) => ({
      preset: await admin.removePresetImage(request.params.id, request.params.imageId),
    }),
  );

  // ── Example photos ──────────────────────────────────────────────────────────────────────────

  app.get(
    '/example-photos',
    {
      schema: {
        tags,
        summary: 'Every example photo (active or not)',
        response: { 200: adminExamplePhotosResponseSchema },
      },
    },
    async () => ({ photos: await admin.listExamplePhotos() }),
  );

  app.post(
    '/example-photos',
    {
      preValidation: refuseOversizedUpload,
      schema: {
        tags,
        summary: 'Upload an example photo (multipart field "file"); ?goodOrBad=good|bad&caption=',
        querystring: createExamplePhotoQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 201: adminExamplePhotoResponseSchema, ...errors, 413: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const bytes = await readImageFile(request);
      const photo = await admin.addExamplePhoto({ bytes }, request.query);
      return reply.status(201).send({ photo });
    },
  );

  app.put(
    '/example-photos/order',
    {
      schema: {
        tags,
        summary: 'Reorder example photos: every id, in the new order',
        body: reorderByIdRequestSchema,
        response: { 200: adminExamplePhotosResponseSchema, ...errors },
      },
    },
    async (request) => ({ photos: await admin.reorderExamplePhotos(request.body.ids) }),
  );

  app.patch(
    '/example-photos/:id',
    {
      schema: {
        tags,
        summary: 'Change an example photo (good or bad, caption, active)',
        params: idParams,
        body: updateExamplePhotoRequestSchema,
        response: { 200: adminExamplePhotoResponseSchema, ...errors },
      },
    },
    async (request) => ({
      photo: await admin.updateExamplePhoto(request.params.id, request.body),
    }),
  );

  app.delete(
    '/example-photos/:id',
    { schema: { tags, summary: 'Delete an example photo and its files', params: idParams } },
    async (request, reply) => {
      await admin.deleteExamplePhoto(request.params.id);
      return reply.status(204).send();
    },
  );

  // ── Quiz images ─────────────────────────────────────────────────────────────────────────────

  app.get(
    '/quiz-images',
    {
      schema: {
        tags,
        summary: 'Every quiz picture (active or not); the quiz shows the first 16 active',
        response: { 200: adminQuizImagesResponseSchema },
      },
    },
    async () => ({ images: await admin.listQuizImages() }),
  );

  app.post(
    '/quiz-images',
    {
      preValidation: refuseOversizedUpload,
      schema: {
        tags,
        summary: 'Upload a quiz picture (multipart field "file"); ?isAi=true|false',
        querystring: createQuizImageQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 201: adminQuizImageResponseSchema, ...errors, 413: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const bytes = await readImageFile(request);
      const image = await admin.addQuizImage({ bytes }, request.query);
      return reply.status(201).send({ image });
    },
  );

  app.put(
    '/quiz-images/order',
    {
      schema: {
        tags,
        summary: 'Reorder quiz pictures: every id, in the new order',
        body: reorderByIdRequestSchema,
        response: { 200: adminQuizImagesResponseSchema, ...errors },
      },
    },
    async (request) => ({ images: await admin.reorderQuizImages(request.body.ids) }),
  );

  app.patch(
    '/quiz-images/:id',
    {
      schema: {
        tags,
        summary: 'Change a quiz picture (AI or real, active)',
        params: idParams,
        body: updateQuizImageRequestSchema,
        response: { 200: adminQuizImageResponseSchema, ...errors },
      },
    },
    async (request) => ({ image: await admin.updateQuizImage(request.params.id, request.body) }),
  );

  app.delete(
    '/quiz-images/:id',
    { schema: { tags, summary: 'Delete a quiz picture and its files', params: idParams } },
    async (request, reply) => {
      await admin.deleteQuizImage(request.params.id);
      return reply.status(204).send();
    },
  );
};

/** Refuses a body that announces more than one file could be, before reading any of it. */
async function refuseOversizedUpload(request: FastifyRequest, _reply: FastifyReply) {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > maxUploadRequestBytes)
    throw new AppError('PAYLOAD_TOO_LARGE', adminMessages.uploadTooLarge);
}

/** Reads the single file of a multipart upload (field `file`) into memory, at most 10 MB. */
async function readImageFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart())
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', adminMessages.uploadNotMultipart);
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError('BAD_REQUEST', adminMessages.uploadNotMultipart);
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', adminMessages.uploadTooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError('BAD_REQUEST', adminMessages.uploadOneFile);
    // Anything else here comes from parsing the body (a cut-off upload, a wrong boundary).
    throw new AppError('BAD_REQUEST', adminMessages.uploadMalformed);
  }
  if (!bytes?.length) throw new AppError('BAD_REQUEST', adminMessages.uploadMissing);
  return bytes;
}
