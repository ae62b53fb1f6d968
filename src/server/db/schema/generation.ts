import { boolean, index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { userModels } from './studio.ts';

/** One request for many images (presets × one model, or one prompt × several models). */
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    totalImages: integer('total_images').notNull(),
    completedImages: integer('completed_images').notNull().default(0),
    failedImages: integer('failed_images').notNull().default(0),
    /** processing, completed, failed */
    status: text('status').notNull().default('processing'),
    label: text('label').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('bulk_jobs_user_idx').on(table.userId, table.createdAt)],
);

export const generations = pgTable(
  'generations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    // Deleting a model deletes everything made from it.
    userModelId: text('user_model_id')
      .notNull()
      .references(() => userModels.id, { onDelete: 'cascade' }),
    userModelName: text('user_model_name').notNull(),
    /** No foreign key: an operator may delete a preset; what was made from it stays. */
    presetId: text('preset_id'),
    modelName: text('model_name').notNull(),
    promptText: text('prompt_text'),
    /** processing, complete, failed */
    status: text('status').notNull().default('processing'),
    failureReason: text('failure_reason'),
    imageKey: text('image_key'),
    thumbnailKey: text('thumbnail_key'),
    width: integer('width'),
    height: integer('height'),
    hasNsfwContent: boolean('has_nsfw_content').notNull().default(false),
    bulkJobId: text('bulk_job_id').references(() => bulkJobs.id, { onDelete: 'cascade' }),
    /**
     * Its place in its bulk job's selection (the category page's order, or the models' as
     * picked): a job's rows share one creation time, so this is what orders them.
     */
    bulkPosition: integer('bulk_position').notNull().default(0),
    engine: text('engine').notNull(),
    /** The provider's job (prediction / request id), saved as soon as the job exists. */
    engineReference: text('engine_reference'),
    /**
     * When its job last started running or heard from the engine; null while it waits its turn
     * in the queue. The reconciler measures "no news" from here, never from creation.
     */
    heardAt: timestamp('heard_at', { withTimezone: true }),
    isPreview: boolean('is_preview').notNull().default(false),
    /** Cosine similarity of the face to the model's training faces, 0-1. */
    likeness: real('likeness'),
    /**
     * Pictures made again because the last one did not look enough like the user (at the
     * operator's cost); the row holds the most alike so far while the next is made.
     */
    likenessRerolls: integer('likeness_rerolls').notNull().default(0),
    /** Every try stayed below the likeness bar: the user kept the most alike, and the credit. */
    likenessRefunded: boolean('likeness_refunded').notNull().default(false),
    favourite: boolean('favourite').notNull().default(false),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('generations_user_idx').on(table.userId, table.createdAt, table.id),
    index('generations_bulk_idx').on(table.bulkJobId),
    index('generations_model_idx').on(table.userModelId),
    index('generations_processing_idx').on(table.status, table.heardAt),
  ],
);
