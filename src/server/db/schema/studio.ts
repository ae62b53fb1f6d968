import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/**
 * Model creation. A user's *draft* is their training photos not yet given to a model
 * (`model_id` null) plus the gender and name chosen on the way (`studio_drafts`). Creating a
 * model moves the draft's passed photos to it; training consumes them.
 */
export const studioDrafts = pgTable('studio_drafts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  /** UPLOADING, VALIDATING, VALIDATION_COMPLETE (the specification's training status), or null. */
  trainingStatus: text('training_status'),
  gender: text('gender'),
  name: text('name').notNull().default(''),
  /** Keep training photos and zips after training (an /account setting). */
  keepTrainingPhotos: boolean('keep_training_photos').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The face a validated photo shows: where it is and who it is. */
export interface PhotoFace {
  box: { x: number; y: number; width: number; height: number };
  score: number;
  sharpness: number;
  /**
   * The variety patch (`variety.ts`, base64 of 96x112 grey bytes, about 14 KB): what the variety
   * check registers against the draft's other photos. Absent on photos validated before it.
   */
  variety?: string;
  /** Ids of the draft's photos found to be the same shot as this one (both ways, decision 027). */
  sameShotAs?: string[];
  /** When failed as `sameShot`: the earlier photo it is almost the same as. */
  sameShotOf?: string | null;
}

export const trainingPhotos = pgTable(
  'training_photos',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Null while in the draft; the model it trains afterwards. */
    modelId: text('model_id').references(() => userModels.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    fileName: text('file_name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** pending, passed, failed */
    status: text('status').notNull().default('pending'),
    failureReason: text('failure_reason'),
    face: jsonb('face').$type<PhotoFace>(),
    /** The face embedding (unit vector), compared across the draft for the same-person check. */
    embedding: real('embedding').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    validatedAt: timestamp('validated_at', { withTimezone: true }),
  },
  (table) => [
    index('training_photos_user_idx').on(table.userId, table.modelId, table.createdAt),
    index('training_photos_model_idx').on(table.modelId),
  ],
);

export const userModels = pgTable(
  'user_models',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gender: text('gender').notNull(),
    /** pending, training, complete, failed */
    status: text('status').notNull().default('pending'),
    failureReason: text('failure_reason'),
    progress: integer('progress'),
    /** free-training or credits: what the training spent (and a failure refunds). */
    paidWith: text('paid_with').notNull(),
    photoCount: integer('photo_count').notNull(),
    zipKey: text('zip_key'),
    featuredImageKey: text('featured_image_key'),
    engine: text('engine').notNull(),
    engineReference: text('engine_reference'),
    weights: text('weights'),
    triggerWord: text('trigger_word').notNull(),
    /** The mean face embedding of its training photos (likeness scores of what it makes). */
    faceEmbedding: real('face_embedding').array(),
    /**
     * The mean grey descriptor of its training photos (`greyIdentityModel`): what black-and-white
     * and toned pictures are scored against (decision 033). Set when training starts; null on
     * models trained before, whose pictures are all scored in colour.
     */
    faceEmbeddingGrey: real('face_embedding_grey').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    trainingStartedAt: timestamp('training_started_at', { withTimezone: true }),
    /** The last time the engine told us something (webhook or poll). */
    lastNewsAt: timestamp('last_news_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the training photos and zip were deleted after training (privacy). */
    photosDeletedAt: timestamp('photos_deleted_at', { withTimezone: true }),
  },
  (table) => [
    index('user_models_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('user_models_engine_reference_idx').on(table.engine, table.engineReference),
  ],
);

/**
 * Quick previews made from a model's photos when its training starts (decision 039): not
 * generations (no credit, no refund, no likeness re-roll), made at the operator's cost by an
 * engine that can make a picture without the trained model. Deleted with their model; their
 * files live under the model's folder, which goes with it.
 */
export const modelPreviews = pgTable(
  'model_previews',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    userModelId: text('user_model_id')
      .notNull()
      .references(() => userModels.id, { onDelete: 'cascade' }),
    /** No foreign key: an operator may delete a preset; the preview stays. */
    presetId: text('preset_id').notNull(),
    presetName: text('preset_name').notNull(),
    /** Its place among the model's previews (they share one creation time). */
    position: integer('position').notNull(),
    /** processing, complete, blocked (the NSFW check flagged it: never shown), failed */
    status: text('status').notNull().default('processing'),
    imageKey: text('image_key'),
    thumbnailKey: text('thumbnail_key'),
    width: integer('width'),
    height: integer('height'),
    engine: text('engine').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('model_previews_model_idx').on(table.userModelId, table.position)],
);
