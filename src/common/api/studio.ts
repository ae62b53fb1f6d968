import { z } from 'zod';
import { modelName } from '../product/limits.ts';
import { genders } from '../product/training.ts';

/**
 * Model creation and My Models: the draft's training photos (upload, live validation, delete),
 * the draft's gender and name, creating a model (which starts its training) and the user's
 * models. Every id here belongs to the signed-in user; another user's id answers 404.
 */

/** Why a photo failed validation; each has a message and advice in `messages.validation`. */
export const photoFailureReasons = [
  'noFace',
  'multipleFaces',
  'faceTooSmall',
  'tooBlurry',
  'differentPerson',
  'sameShot',
  'tooSmall',
  'unreadable',
] as const;
export type PhotoFailureReason = (typeof photoFailureReasons)[number];

export const photoStatuses = ['pending', 'passed', 'failed'] as const;
export type PhotoStatus = (typeof photoStatuses)[number];

/** The specification's per-user training status while a draft is being built. */
export const trainingStatuses = ['UPLOADING', 'VALIDATING', 'VALIDATION_COMPLETE'] as const;
export type TrainingStatus = (typeof trainingStatuses)[number];

export const trainingPhotoSchema = z.object({
  id: z.string(),
  /** The name the file had on the user's device (shown in lists and error dialogs). */
  fileName: z.string(),
  status: z.enum(photoStatuses),
  /** Set when failed. */
  reason: z.enum(photoFailureReasons).nullable(),
  /**
   * With reason `sameShot`: the position (1 = the oldest, as the upload page numbers them) of the
   * draft's photo this one is almost the same as (decision 027). Null otherwise.
   */
  sameShotAs: z.number().int().positive().nullable(),
  /** A signed URL of a small preview (WebP, about 320 px), valid for an hour. */
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.string(),
});
export type TrainingPhoto = z.infer<typeof trainingPhotoSchema>;

export const photoCountsSchema = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
});
export type PhotoCounts = z.infer<typeof photoCountsSchema>;

/** `GET /api/studio/photos`: the draft's photos, oldest first, with their counts. */
export const draftPhotosResponseSchema = z.object({
  /** Null before the first upload of a draft (and after its model was created). */
  trainingStatus: z.enum(trainingStatuses).nullable(),
  photos: z.array(trainingPhotoSchema),
  counts: photoCountsSchema,
});
export type DraftPhotosResponse = z.infer<typeof draftPhotosResponseSchema>;

/** `POST /api/studio/photos` (multipart, one file in field `file`) answers 201 with this. */
export const uploadPhotoResponseSchema = z.object({ photo: trainingPhotoSchema });

export const photoIdParamsSchema = z.object({ photoId: z.string().min(1).max(64) });

export const genderSchema = z.enum(genders);

/** `GET` / `PUT /api/studio/draft`: what the user chose on the gender and name screens. */
export const draftSchema = z.object({
  gender: genderSchema.nullable(),
  name: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

export const updateDraftRequestSchema = z.object({
  gender: genderSchema.nullable().optional(),
  name: z
    .string()
    .max(modelName.maxLength * 4)
    .optional(),
});

export const modelNameSchema = z.string().trim().min(1).max(modelName.maxLength);

/** `POST /api/studio/models`: start training a model from the draft's passed photos. */
export const createModelRequestSchema = z.object({
  name: z.string().max(modelName.maxLength * 4),
  gender: genderSchema.nullable().optional(),
});

export const modelStatuses = ['pending', 'training', 'complete', 'failed'] as const;
export type ModelStatus = (typeof modelStatuses)[number];

/**
 * A quick preview made from the model's photos when its training started (decision 039): free,
 * labelled as a preview, and not one of the user's generations. Only those being made or made
 * are listed: a failed one, or one the safety check blocked, is not shown.
 */
export const modelPreviewSchema = z.object({
  id: z.string(),
  presetId: z.string(),
  /** The style it shows (the preset's name when it was made). */
  presetName: z.string(),
  status: z.enum(['processing', 'complete']),
  /** Signed URLs (valid for an hour) of the picture and its small WebP copy, once complete. */
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type ModelPreview = z.infer<typeof modelPreviewSchema>;

export const userModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: genderSchema,
  /** A status the web app does not know is shown as Unknown. */
  status: z.string(),
  /** A signed URL of the model's featured image (its best training face); null until trained. */
  featuredImageUrl: z.string().nullable(),
  /** Set when failed: why, in words for the user. */
  failureReason: z.string().nullable(),
  /** 0-100 while training, when the engine reports progress; else null. */
  progress: z.number().int().min(0).max(100).nullable(),
  /** `local` models make labelled previews; `replicate` / `fal` run a trained FLUX LoRA. */
  engine: z.string(),
  /** What the training cost: a monthly free training or credits. */
  paidWith: z.enum(['free-training', 'credits']),
  photoCount: z.number().int(),
  createdAt: z.string(),
  trainingStartedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Its training previews, in order (empty when none were made). */
  previews: z.array(modelPreviewSchema),
});
export type UserModel = z.infer<typeof userModelSchema>;

/** `GET /api/studio/models`: the user's models, newest first. */
export const userModelsResponseSchema = z.object({
  models: z.array(userModelSchema),
  /** The model the user chose for generation (Pro and above), when it still exists. */
  selectedModelId: z.string().nullable(),
  /** The specification's training_in_progress: a model is pending or training. */
  trainingInProgress: z.boolean(),
});
export type UserModelsResponse = z.infer<typeof userModelsResponseSchema>;

export const createModelResponseSchema = z.object({ model: userModelSchema });

export const modelIdParamsSchema = z.object({ modelId: z.string().min(1).max(64) });

/** `PUT /api/studio/models/selected`. */
export const selectModelRequestSchema = z.object({ modelId: z.string().min(1).max(64) });

/** `GET` / `PUT /api/studio/settings` (shown on /account). */
export const studioSettingsSchema = z.object({
  /** Keep training photos and their zip after training instead of deleting them. */
  keepTrainingPhotos: z.boolean(),
});
export type StudioSettings = z.infer<typeof studioSettingsSchema>;

/** Events pushed on `GET /api/events` for this feature. */
export const studioEvents = {
  /** data: { photoId, status } — a photo was added, validated or removed. */
  photoUpdated: 'photo.updated',
  /** data: { modelId, name, status, progress } — a model was created, progressed, finished or deleted. */
  modelUpdated: 'model.updated',
  /** data: { modelId, previewId, status } — a training preview was made, failed or blocked. */
  previewUpdated: 'preview.updated',
} as const;
