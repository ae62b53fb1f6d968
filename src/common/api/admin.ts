import { z } from 'zod';
import { adminMessages } from '../messages/admin.ts';
import { catalog } from '../product/catalog.ts';
import {
  catalogImageSchema,
  categorySchema,
  goodOrBadSchema,
  presetSummarySchema,
} from './catalog.ts';
import { presetSceneSchema } from './scene.ts';

/**
 * The operator's admin API under /api/admin: categories, presets and their pictures, example
 * photos and quiz images. Only users with the `admin` role reach it; everyone else gets 404.
 * Pictures are uploaded as multipart/form-data with one file in the field `file`; other
 * options travel in the query string.
 */

export const manualIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(catalog.manualIdMaxLength)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: adminMessages.manualIdRule });

const displayName = z.string().trim().min(1).max(catalog.displayNameMaxLength);
const description = z.string().trim().max(catalog.descriptionMaxLength);
const emoji = z.string().trim().min(1).max(catalog.emojiMaxLength).nullable();
const prompt = z
  .string()
  .trim()
  .min(1)
  .max(catalog.promptMaxLength)
  .refine((value) => value.includes(catalog.triggerPlaceholder), {
    error: adminMessages.promptNeedsTrigger,
  });
const caption = z.string().trim().max(catalog.captionMaxLength);

/** Query-string booleans: `true`/`false` (also `1`/`0`). */
const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

// ── Categories ────────────────────────────────────────────────────────────────────────────────

export const adminCategorySchema = categorySchema.extend({
  active: z.boolean(),
  presetCount: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const createCategoryRequestSchema = z.object({
  manualId: manualIdSchema,
  displayName,
  emoji: emoji.optional(),
  featured: z.boolean().optional(),
  active: z.boolean().optional(),
});

/** Any subset; `manualId` renames the key (its presets follow). */
export const updateCategoryRequestSchema = z
  .object({
    manualId: manualIdSchema,
    displayName,
    emoji,
    featured: z.boolean(),
    active: z.boolean(),
  })
  .partial();

export const reorderCategoriesRequestSchema = z.object({
  /** Every category's key, in the new order. */
  manualIds: z.array(manualIdSchema).min(1),
});

export const adminCategoryResponseSchema = z.object({ category: adminCategorySchema });
export const adminCategoriesResponseSchema = z.object({ categories: z.array(adminCategorySchema) });

// ── Presets ───────────────────────────────────────────────────────────────────────────────────

export const adminPresetSchema = presetSummarySchema.extend({
  /** What the engine is asked for; `{trigger}` is replaced by the user model's trigger word. */
  prompt: z.string(),
  /** The offline studio's scene parts the preset sets (the rest is read from its prompt). */
  scene: presetSceneSchema.nullable(),
  additionalImages: z.array(catalogImageSchema),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const createPresetRequestSchema = z.object({
  /** Derived from the display name when omitted (made unique with a number). */
  manualId: manualIdSchema.optional(),
  categoryId: manualIdSchema,
  displayName,
  description: description.optional(),
  prompt,
  scene: presetSceneSchema.nullable().optional(),
  active: z.boolean().optional(),
});

/** Any subset; a new `categoryId` moves the preset to the end of that category. */
export const updatePresetRequestSchema = z
  .object({
    manualId: manualIdSchema,
    categoryId: manualIdSchema,
    displayName,
    description,
    prompt,
    scene: presetSceneSchema.nullable(),
    active: z.boolean(),
  })
  .partial();

export const reorderPresetsRequestSchema = z.object({
  categoryId: manualIdSchema,
  /** Every preset id of that category, in the new order. */
  ids: z.array(z.string().min(1)).min(1),
});

export const adminPresetsQuerySchema = z.object({ category: manualIdSchema.optional() });

export const presetImageRoleSchema = z.enum(['featured', 'additional']);

export const uploadPresetImageQuerySchema = z.object({
  /** `featured` replaces the card picture; `additional` (default once a featured one exists) adds one. */
  as: presetImageRoleSchema.optional(),
});

export const adminPresetResponseSchema = z.object({ preset: adminPresetSchema });
export const adminPresetsResponseSchema = z.object({ presets: z.array(adminPresetSchema) });

// ── Example photos ────────────────────────────────────────────────────────────────────────────

export const adminExamplePhotoSchema = z.object({
  id: z.string(),
  goodOrBad: goodOrBadSchema,
  caption: z.string(),
  image: catalogImageSchema,
  orderIndex: z.number().int(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});

export const createExamplePhotoQuerySchema = z.object({
  goodOrBad: goodOrBadSchema,
  caption: caption.optional(),
  active: queryBoolean.optional(),
});

export const updateExamplePhotoRequestSchema = z
  .object({ goodOrBad: goodOrBadSchema, caption, active: z.boolean() })
  .partial();

export const adminExamplePhotoResponseSchema = z.object({ photo: adminExamplePhotoSchema });
export const adminExamplePhotosResponseSchema = z.object({
  photos: z.array(adminExamplePhotoSchema),
});

// ── Quiz images ───────────────────────────────────────────────────────────────────────────────

export const adminQuizImageSchema = z.object({
  id: z.string(),
  isAi: z.boolean(),
  image: catalogImageSchema,
  orderIndex: z.number().int(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});

export const createQuizImageQuerySchema = z.object({
  isAi: queryBoolean,
  active: queryBoolean.optional(),
});

export const updateQuizImageRequestSchema = z
  .object({ isAi: z.boolean(), active: z.boolean() })
  .partial();

export const adminQuizImageResponseSchema = z.object({ image: adminQuizImageSchema });
export const adminQuizImagesResponseSchema = z.object({ images: z.array(adminQuizImageSchema) });

// ── Shared ────────────────────────────────────────────────────────────────────────────────────

/** Every id of the list, in the new order. */
export const reorderByIdRequestSchema = z.object({ ids: z.array(z.string().min(1)).min(1) });

export type AdminCategory = z.infer<typeof adminCategorySchema>;
export type CreateCategoryRequest = z.infer<typeof createCategoryRequestSchema>;
export type UpdateCategoryRequest = z.infer<typeof updateCategoryRequestSchema>;
export type ReorderCategoriesRequest = z.infer<typeof reorderCategoriesRequestSchema>;
export type AdminPreset = z.infer<typeof adminPresetSchema>;
export type CreatePresetRequest = z.infer<typeof createPresetRequestSchema>;
export type UpdatePresetRequest = z.infer<typeof updatePresetRequestSchema>;
export type ReorderPresetsRequest = z.infer<typeof reorderPresetsRequestSchema>;
export type PresetImageRole = z.infer<typeof presetImageRoleSchema>;
export type AdminExamplePhoto = z.infer<typeof adminExamplePhotoSchema>;
export type UpdateExamplePhotoRequest = z.infer<typeof updateExamplePhotoRequestSchema>;
export type AdminQuizImage = z.infer<typeof adminQuizImageSchema>;
export type UpdateQuizImageRequest = z.infer<typeof updateQuizImageRequestSchema>;
export type ReorderByIdRequest = z.infer<typeof reorderByIdRequestSchema>;
