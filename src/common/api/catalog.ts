import { z } from 'zod';

/**
 * The public catalog: categories, presets (the specification's "models"), the landing page's
 * preset groups, the example photos and the quiz images. Everything here is readable without
 * signing in; the engine prompt of a preset is not (it stays with the server).
 */

/** One stored size of a picture. */
export const catalogImageVariantSchema = z.object({
  src: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/**
 * A picture ready for `<img src srcset width height alt>`: `src`, `width` and `height` are the
 * 640 px variant (or the largest when the picture is smaller), so the page reserves the right
 * space before it loads; `srcset` lists every variant (`url 320w, url 640w, url 1280w`). URLs are
 * public, content-addressed and cached for a year.
 */
export const catalogImageSchema = z.object({
  id: z.string(),
  src: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  srcset: z.string(),
  alt: z.string(),
  variants: z.array(catalogImageVariantSchema),
});

export const categorySchema = z.object({
  /** The category key used in URLs (`/category/{manualId}`) and by presets' `categoryId`. */
  manualId: z.string(),
  displayName: z.string(),
  emoji: z.string().nullable(),
  featured: z.boolean(),
  orderIndex: z.number().int(),
});

export const presetSummarySchema = z.object({
  id: z.string(),
  manualId: z.string(),
  /** The `manualId` of its category. */
  categoryId: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** Null when the operator has not given it a picture yet (the page shows its fallback). */
  featuredImage: catalogImageSchema.nullable(),
  orderIndex: z.number().int(),
});

export const presetDetailSchema = presetSummarySchema.extend({
  additionalImages: z.array(catalogImageSchema),
  category: categorySchema,
});

export const categoriesResponseSchema = z.object({ categories: z.array(categorySchema) });

export const categoryDetailResponseSchema = z.object({
  category: categorySchema,
  presets: z.array(presetSummarySchema),
});

export const presetsQuerySchema = z.object({
  /** A category's `manualId`; without it, every active preset of every active category. */
  category: z.string().min(1).max(64).optional(),
});

export const presetsResponseSchema = z.object({ presets: z.array(presetSummarySchema) });

export const presetResponseSchema = z.object({ preset: presetDetailSchema });

export const landingPresetSchema = z.object({
  id: z.string(),
  manualId: z.string(),
  displayName: z.string(),
  featuredImage: catalogImageSchema,
});

/** The landing page's showcase: categories in order, each with at most 8 presets that have a picture. */
export const landingResponseSchema = z.object({
  categories: z.array(
    z.object({
      manualId: z.string(),
      displayName: z.string(),
      emoji: z.string().nullable(),
      presets: z.array(landingPresetSchema),
    }),
  ),
});

export const goodOrBadSchema = z.enum(['good', 'bad']);

export const examplePhotoSchema = z.object({
  id: z.string(),
  goodOrBad: goodOrBadSchema,
  /** What makes it good, or why it fails (e.g. "Blurry: the face must be sharp"). */
  caption: z.string(),
  image: catalogImageSchema,
});

export const examplePhotosResponseSchema = z.object({ photos: z.array(examplePhotoSchema) });

export const quizImageSchema = z.object({
  id: z.string(),
  isAi: z.boolean(),
  src: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  srcset: z.string(),
  alt: z.string(),
});

/** The quiz's pictures in the operator's order (the page shuffles them); at most 16. */
export const quizImagesResponseSchema = z.object({ images: z.array(quizImageSchema) });

export type CatalogImage = z.infer<typeof catalogImageSchema>;
export type CatalogImageVariant = z.infer<typeof catalogImageVariantSchema>;
export type Category = z.infer<typeof categorySchema>;
export type PresetSummary = z.infer<typeof presetSummarySchema>;
export type PresetDetail = z.infer<typeof presetDetailSchema>;
export type CategoriesResponse = z.infer<typeof categoriesResponseSchema>;
export type CategoryDetailResponse = z.infer<typeof categoryDetailResponseSchema>;
export type PresetsResponse = z.infer<typeof presetsResponseSchema>;
export type PresetResponse = z.infer<typeof presetResponseSchema>;
export type LandingPreset = z.infer<typeof landingPresetSchema>;
export type LandingResponse = z.infer<typeof landingResponseSchema>;
export type GoodOrBad = z.infer<typeof goodOrBadSchema>;
export type ExamplePhoto = z.infer<typeof examplePhotoSchema>;
export type ExamplePhotosResponse = z.infer<typeof examplePhotosResponseSchema>;
export type QuizImage = z.infer<typeof quizImageSchema>;
export type QuizImagesResponse = z.infer<typeof quizImagesResponseSchema>;
