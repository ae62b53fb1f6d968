import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { filesPublicPath } from '../../adapters/storage/create-storage.ts';
import { contentTypeForKey, type ServedFiles } from '../../adapters/storage/storage.ts';
import { httpMessages } from '../../../common/messages/http.ts';
import { AppError } from '../../http/app-error.ts';

const querySchema = z.object({
  expires: z.string().optional(),
  signature: z.string().optional(),
  download: z.string().optional(),
});

/**
 * Serves local-disk files behind signed, expiring URLs (the embedded stand-in for presigned
 * bucket URLs), with Range, ETag and caching for as long as the signature lives.
 */
export async function fileRoutes(app: FastifyInstance, { files }: { files: ServedFiles }) {
  app.get(`${filesPublicPath}/*`, { schema: { hide: true } }, async (request, reply) => {
    // The router has already decoded the path once; decoding again would turn `%25` into `%`.
    const key = (request.params as { '*': string })['*'];
    const parsed = querySchema.safeParse(request.query);
    // A repeated parameter arrives as an array: a hand-edited link, not a server error.
    if (!parsed.success) throw new AppError('FORBIDDEN', httpMessages.linkInvalid);
    const query = parsed.data;
    const verdict = files.check({
      key,
      expires: query.expires,
      signature: query.signature,
      download: query.download,
    });
    if (verdict === 'expired') throw new AppError('FORBIDDEN', httpMessages.linkExpired);
    if (verdict === 'invalid') throw new AppError('FORBIDDEN', httpMessages.linkInvalid);
    if (!(await files.exists(key))) throw new AppError('NOT_FOUND', httpMessages.fileNotFound);
    const secondsLeft = Math.max(0, Number(query.expires) - Math.floor(Date.now() / 1000));
    reply.header('content-type', contentTypeForKey(key));
    reply.header('cache-control', `private, max-age=${secondsLeft}`);
    reply.header('x-content-type-options', 'nosniff');
    if (query.download) {
      reply.header(
        'content-disposition',
        `attachment; filename="${query.download.replace(/[^\w.-]/g, '_')}"`,
      );
    }
    return reply.sendFile(path.relative(files.root, files.pathFor(key)), files.root, {
      cacheControl: false,
    });
  });
}
