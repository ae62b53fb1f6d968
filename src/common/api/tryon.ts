import { z } from 'zod';

/**
 * Virtual try-on: a person image (an upload, or one of the user's completed generations) and a
 * garment upload → 1 credit → a result. Every id belongs to the signed-in user; another user's
 * id answers 404.
 */

export const tryOnStatuses = ['processing', 'completed', 'failed', 'blocked'] as const;

export const tryOnSchema = z.object({
  id: z.string(),
  /**
   * processing, completed (shown as Ready), failed (refunded) or blocked (the provider's safety
   * filter refused the pictures; not refunded).
   */
  status: z.enum(tryOnStatuses),
  /** Set when failed or blocked: why, in words for the user. */
  failureReason: z.string().nullable(),
  /** Signed URLs (an hour); null when the file is gone (e.g. the chosen generation was deleted). */
  personImageUrl: z.string().nullable(),
  garmentImageUrl: z.string().nullable(),
  resultImageUrl: z.string().nullable(),
  /** The result as an attachment download; null unless completed. */
  downloadUrl: z.string().nullable(),
  /** Made in-process by the local engine: a preview, labelled as such. */
  isPreview: z.boolean(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TryOn = z.infer<typeof tryOnSchema>;

/**
 * `POST /api/tryons`, multipart/form-data: a `garment` file, and either a `person` file or a
 * `personGenerationId` field (one of the user's completed generations). Answers 201.
 */
export const tryOnResponseSchema = z.object({ tryOn: tryOnSchema });

/**
 * `GET /api/tryons[?cursor=<id>]`: the user's try-ons, newest first, a page at a time.
 * `nextCursor` asks for the next (older) page; null after the last.
 */
export const tryOnsQuerySchema = z.object({ cursor: z.string().min(1).optional() });
export const tryOnsResponseSchema = z.object({
  tryOns: z.array(tryOnSchema),
  nextCursor: z.string().nullable(),
});
export type TryOnsPage = z.infer<typeof tryOnsResponseSchema>;

/** Events pushed on `GET /api/events`: data { tryOnId, status }. */
export const tryOnEvents = { tryOnUpdated: 'tryon.updated' } as const;
