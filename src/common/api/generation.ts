import { z } from 'zod';
import { lists, prompt } from '../product/limits.ts';

/**
 * Generation: one image from a preset or a custom prompt, bulk jobs of many, the user's
 * results (with likeness scores and favourites) and their downloads. Every id belongs to the
 * signed-in user; another user's id answers 404.
 */

export const generationStatuses = ['processing', 'complete', 'failed'] as const;
export type GenerationStatus = (typeof generationStatuses)[number];

export const generationSchema = z.object({
  id: z.string(),
  status: z.enum(generationStatuses),
  /** Set when failed: why, in words for the user ('Unknown error' when the engine said nothing). */
  failureReason: z.string().nullable(),
  /** The preset's name, or "Custom: {model name}" for a custom prompt (the specification's model_name). */
  modelName: z.string(),
  /** The user's own prompt (custom); null for a preset (its engine prompt stays on the server). */
  promptText: z.string().nullable(),
  presetId: z.string().nullable(),
  userModelId: z.string(),
  /** The user model's name at the time (kept if the model is renamed). */
  userModelName: z.string(),
  bulkJobId: z.string().nullable(),
  /** Flagged by the engine's safety checker: no image exists, the page shows the blocked placeholder. */
  hasNsfwContent: z.boolean(),
  /** Signed URLs (an hour), null unless complete and not blocked. */
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Made in-process by the local engine: a preview, labelled as such. */
  isPreview: z.boolean(),
  /** 0-100: how much the face looks like the user's training photos; null when not measured. */
  likeness: z.number().int().min(0).max(100).nullable(),
  /** Every try measured as someone else's: the user kept the most alike and got the credit back. */
  likenessRefunded: z.boolean(),
  favourite: z.boolean(),
  viewed: z.boolean(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Generation = z.infer<typeof generationSchema>;

export const generationResponseSchema = z.object({ generation: generationSchema });

/** `POST /api/generations`: one image of a preset with one of the user's models. */
export const presetGenerationRequestSchema = z.object({
  userModelId: z.string().max(64).nullable().optional(),
  presetId: z.string().max(64).nullable().optional(),
});

/** `POST /api/generations/custom`: one image from the user's own prompt (Pro and above). */
export const customGenerationRequestSchema = z.object({
  userModelId: z.string().max(64).nullable().optional(),
  prompt: z.string().max(prompt.maxLength),
});

/** `GET /api/generations`: single generations (not from bulk jobs), newest first. */
export const generationsQuerySchema = z.object({
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(lists.generationsPage).default(lists.generationsPage),
  /** Only complete, unblocked images (the try-on picker), or only favourites. */
  filter: z.enum(['all', 'complete', 'favourites']).default('all'),
});

export const generationsPageSchema = z.object({
  generations: z.array(generationSchema),
  nextCursor: z.string().nullable(),
});
export type GenerationsPage = z.infer<typeof generationsPageSchema>;

export const favouriteRequestSchema = z.object({ favourite: z.boolean() });

/**
 * `GET /api/generations/zip?ids=a,b,c`: the selected images as one zip (a link the browser
 * downloads, hence a query). At most a page of them; ids that are not the user's are left out.
 */
export const selectionZipQuerySchema = z.object({
  ids: z
    .string()
    .max(lists.generationsPage * 37)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(z.uuid()).min(1).max(lists.generationsPage)),
});

export const bulkJobStatuses = ['processing', 'completed', 'failed'] as const;

export const bulkJobSchema = z.object({
  id: z.string(),
  /** A status the web app does not know is shown as a failure (the specification's rule). */
  status: z.string(),
  totalImages: z.number().int(),
  completedImages: z.number().int(),
  failedImages: z.number().int(),
  /** The specification's model_name: "Custom Prompt Generation" or the category's name. */
  label: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** `POST /api/bulk-jobs`: many images in one request, one credit each. */
export const bulkRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('presets'),
    /** The user model every selected preset is made with. */
    userModelId: z.string().max(64).nullable().optional(),
    presetIds: z.array(z.string().max(64)).max(200),
    /** The category page the presets were chosen on (names the job). */
    categoryId: z.string().max(64).optional(),
  }),
  z.object({
    kind: z.literal('custom'),
    prompt: z.string().max(prompt.maxLength),
    userModelIds: z.array(z.string().max(64)).max(50),
  }),
]);
export type BulkRequest = z.infer<typeof bulkRequestSchema>;

export const bulkCreatedSchema = z.object({
  bulkJob: bulkJobSchema,
  /** Images accepted (and paid) and selections that could not be queued (gone, not trained). */
  queued: z.number().int(),
  failures: z.number().int(),
});

export const bulkJobsResponseSchema = z.object({ bulkJobs: z.array(bulkJobSchema) });

export const bulkJobDetailSchema = z.object({
  bulkJob: bulkJobSchema,
  generations: z.array(generationSchema),
});

export const idParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Events pushed on `GET /api/events` for this feature. */
export const generationEvents = {
  /** data: { generationId, status, bulkJobId } */
  generationUpdated: 'generation.updated',
  /** data: { bulkJobId, status, completedImages, failedImages, totalImages } */
  bulkJobUpdated: 'bulk-job.updated',
} as const;
