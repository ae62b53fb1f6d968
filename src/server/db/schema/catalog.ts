import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { PresetScene } from '../../../common/api/scene.ts';

/**
 * The catalog an operator manages without code: categories, presets (the specification's
 * "models"), the example photos of the photo guidelines and the quiz's pictures.
 */

/** One stored size of a catalog picture (a WebP file under a content-hashed key). */
export interface StoredImageVariant {
  key: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * A catalog picture: its content hash (the id) and its sizes, smallest first. Kept on the row
 * that uses it, so a list query reads pictures without a join.
 */
export interface StoredImage {
  id: string;
  width: number;
  height: number;
  variants: StoredImageVariant[];
}

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const categories = pgTable(
  'categories',
  {
    /** The category key of the specification: presets point at it, URLs carry it. */
    manualId: text('manual_id').primaryKey(),
    displayName: text('display_name').notNull(),
    emoji: text('emoji'),
    featured: boolean('featured').notNull().default(false),
    orderIndex: integer('order_index').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (table) => [index('categories_order_idx').on(table.orderIndex)],
);

export const presets = pgTable(
  'presets',
  {
    id: text('id').primaryKey(),
    manualId: text('manual_id').notNull().unique(),
    // Renaming a category key carries its presets along; a category with presets cannot go.
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.manualId, { onUpdate: 'cascade', onDelete: 'restrict' }),
    displayName: text('display_name').notNull(),
    description: text('description').notNull().default(''),
    /** What the engine is asked for; `{trigger}` stands for the user model's trigger word. */
    prompt: text('prompt').notNull(),
    /** The offline studio engine's scene, the parts the preset sets (the rest is read from `prompt`). */
    scene: jsonb('scene').$type<PresetScene>(),
    featuredImage: jsonb('featured_image').$type<StoredImage>(),
    additionalImages: jsonb('additional_images')
      .$type<StoredImage[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    orderIndex: integer('order_index').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (table) => [index('presets_category_order_idx').on(table.categoryId, table.orderIndex)],
);

export const examplePhotos = pgTable(
  'example_photos',
  {
    id: text('id').primaryKey(),
    image: jsonb('image').$type<StoredImage>().notNull(),
    goodOrBad: text('good_or_bad').$type<'good' | 'bad'>().notNull(),
    caption: text('caption').notNull().default(''),
    orderIndex: integer('order_index').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('example_photos_good_or_bad_check', sql`${table.goodOrBad} in ('good', 'bad')`),
    index('example_photos_order_idx').on(table.orderIndex),
  ],
);

export const quizImages = pgTable(
  'quiz_images',
  {
    id: text('id').primaryKey(),
    image: jsonb('image').$type<StoredImage>().notNull(),
    isAi: boolean('is_ai').notNull(),
    orderIndex: integer('order_index').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('quiz_images_order_idx').on(table.orderIndex)],
);
