import { z } from 'zod';

/**
 * `GET /api/admin/costs?days=30`: what the providers cost the operator over the last days, by
 * kind of call and engine, and per thing a user gets (admin role only, 404 to anyone else).
 */

export const costsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

export const costLineSchema = z.object({
  kind: z.string(),
  engine: z.string(),
  calls: z.number().int(),
  totalUsd: z.number(),
});

export const costsResponseSchema = z.object({
  since: z.string(),
  lines: z.array(costLineSchema),
  /** Mean dollars per delivered picture (its re-rolls and HD upscale included); null: none. */
  perPicture: z.number().nullable(),
  perPreview: z.number().nullable(),
  perTraining: z.number().nullable(),
  perTryOn: z.number().nullable(),
  totalUsd: z.number(),
});
export type CostsResponse = z.infer<typeof costsResponseSchema>;
