import { type SQL, and, asc, count, eq, inArray, isNotNull, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  categories,
  examplePhotos,
  presets,
  quizImages,
  type StoredImage,
} from '../../db/schema/catalog.ts';

export type CategoryRow = typeof categories.$inferSelect;
export type PresetRow = typeof presets.$inferSelect;
export type ExamplePhotoRow = typeof examplePhotos.$inferSelect;
export type QuizImageRow = typeof quizImages.$inferSelect;

// Ties in order_index (two rows added at once, an import) fall back to a stable order.
const categoryOrder = [asc(categories.orderIndex), asc(categories.displayName)];
const presetOrder = [asc(presets.orderIndex), asc(presets.createdAt), asc(presets.id)];

// ── Categories ────────────────────────────────────────────────────────────────────────────────

export async function listCategories(db: Executor, options: { activeOnly: boolean }) {
  return db
    .select()
    .from(categories)
    .where(options.activeOnly ? eq(categories.active, true) : undefined)
    .orderBy(...categoryOrder);
}

export async function findCategory(db: Executor, manualId: string) {
  const [row] = await db.select().from(categories).where(eq(categories.manualId, manualId));
  return row;
}

/** Inserts unless the key is taken; answers whether it was inserted. */
export async function insertCategory(db: Executor, values: typeof categories.$inferInsert) {
  const rows = await db
    .insert(categories)
    .values(values)
    .onConflictDoNothing({ target: categories.manualId })
    .returning({ manualId: categories.manualId });
  return rows.length > 0;
}

export async function updateCategory(
  db: Executor,
  manualId: string,
  values: Partial<typeof categories.$inferInsert>,
) {
  const [row] = await db
    .update(categories)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(categories.manualId, manualId))
    .returning();
  return row;
}

export async function deleteCategory(db: Executor, manualId: string) {
  const rows = await db
    .delete(categories)
    .where(eq(categories.manualId, manualId))
    .returning({ manualId: categories.manualId });
  return rows.length > 0;
}

export async function nextCategoryOrder(db: Executor): Promise<number> {
  const [row] = await db.select({ value: max(categories.orderIndex) }).from(categories);
  return (row?.value ?? -1) + 1;
}

export async function countCategories(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(categories);
  return row?.value ?? 0;
}

/** Preset counts per category key. */
export async function countPresetsByCategory(db: Executor): Promise<Map<string, number>> {
  const rows = await db
    .select({ categoryId: presets.categoryId, value: count() })
    .from(presets)
    .groupBy(presets.categoryId);
  return new Map(rows.map((row) => [row.categoryId, row.value]));
}

export async function setCategoryOrder(db: Executor, manualIds: readonly string[]) {
  for (const [index, manualId] of manualIds.entries()) {
    await db
      .update(categories)
      .set({ orderIndex: index, updatedAt: new Date() })
      .where(eq(categories.manualId, manualId));
  }
}

// ── Presets ───────────────────────────────────────────────────────────────────────────────────

/** Active presets of active categories, in category order then preset order. */
export async function listVisiblePresets(
  db: Executor,
  options: { categoryId?: string; withFeaturedImage?: boolean; ids?: readonly string[] } = {},
) {
  const rows = await db
    .select({ preset: presets })
    .from(presets)
    .innerJoin(categories, eq(categories.manualId, presets.categoryId))
    .where(
      and(
        eq(presets.active, true),
        eq(categories.active, true),
        options.categoryId ? eq(presets.categoryId, options.categoryId) : undefined,
        options.withFeaturedImage ? isNotNull(presets.featuredImage) : undefined,
        options.ids ? inArray(presets.id, [...options.ids]) : undefined,
      ),
    )
    .orderBy(...categoryOrder, ...presetOrder);
  return rows.map((row) => row.preset);
}

export async function listAllPresets(db: Executor, options: { categoryId?: string } = {}) {
  return db
    .select()
    .from(presets)
    .where(options.categoryId ? eq(presets.categoryId, options.categoryId) : undefined)
    .orderBy(asc(presets.categoryId), ...presetOrder);
}

/**
 * The visible presets among `ids` (an SQL text[]) as a relation of someone else's statement
 * (decision 051): id, display_name; the rule of `listVisiblePresets`, written in SQL.
 */
export function visiblePresetsSql(ids: SQL): SQL {
  return sql`select p.id, p.display_name
    from presets p join categories c on c.manual_id = p.category_id
    where p.id = any(${ids}) and p.active and c.active`;
}

/** A preset with its category, if both are active. */
export async function findVisiblePreset(db: Executor, id: string) {
  const [row] = await db
    .select({ preset: presets, category: categories })
    .from(presets)
    .innerJoin(categories, eq(categories.manualId, presets.categoryId))
    .where(and(eq(presets.id, id), eq(presets.active, true), eq(categories.active, true)));
  return row;
}

export async function findPreset(db: Executor, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(presets).where(eq(presets.id, id));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findPresetByManualId(db: Executor, manualId: string) {
  const [row] = await db.select().from(presets).where(eq(presets.manualId, manualId));
  return row;
}

export async function presetManualIdsLike(db: Executor, prefix: string): Promise<Set<string>> {
  const rows = await db
    .select({ manualId: presets.manualId })
    .from(presets)
    .where(sql`${presets.manualId} like ${`${prefix}%`}`);
  return new Set(rows.map((row) => row.manualId));
}

/** Inserts unless the key is taken; answers whether it was inserted. */
export async function insertPreset(db: Executor, values: typeof presets.$inferInsert) {
  const rows = await db
    .insert(presets)
    .values(values)
    .onConflictDoNothing({ target: presets.manualId })
    .returning({ id: presets.id });
  return rows.length > 0;
}

export async function updatePreset(
  db: Executor,
  id: string,
  values: Partial<typeof presets.$inferInsert>,
) {
  const [row] = await db
    .update(presets)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(presets.id, id))
    .returning();
  return row;
}

export async function setPresetImages(
  db: Executor,
  id: string,
  images: { featuredImage: StoredImage | null; additionalImages: StoredImage[] },
) {
  return updatePreset(db, id, images);
}

export async function deletePreset(db: Executor, id: string) {
  const [row] = await db.delete(presets).where(eq(presets.id, id)).returning();
  return row;
}

export async function nextPresetOrder(db: Executor, categoryId: string): Promise<number> {
  const [row] = await db
    .select({ value: max(presets.orderIndex) })
    .from(presets)
    .where(eq(presets.categoryId, categoryId));
  return (row?.value ?? -1) + 1;
}

export async function countPresets(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(presets);
  return row?.value ?? 0;
}

export async function setPresetOrder(db: Executor, ids: readonly string[]) {
  for (const [index, id] of ids.entries()) {
    await db
      .update(presets)
      .set({ orderIndex: index, updatedAt: new Date() })
      .where(eq(presets.id, id));
  }
}

// ── Example photos ────────────────────────────────────────────────────────────────────────────

const examplePhotoOrder = [asc(examplePhotos.orderIndex), asc(examplePhotos.createdAt)];

export async function listExamplePhotos(db: Executor, options: { activeOnly: boolean }) {
  return db
    .select()
    .from(examplePhotos)
    .where(options.activeOnly ? eq(examplePhotos.active, true) : undefined)
    .orderBy(...examplePhotoOrder, asc(examplePhotos.id));
}

export async function findExamplePhoto(db: Executor, id: string) {
  const [row] = await db.select().from(examplePhotos).where(eq(examplePhotos.id, id));
  return row;
}

export async function findExamplePhotoByImage(db: Executor, imageId: string) {
  const [row] = await db
    .select()
    .from(examplePhotos)
    .where(sql`${examplePhotos.image}->>'id' = ${imageId}`);
  return row;
}

export async function insertExamplePhoto(db: Executor, values: typeof examplePhotos.$inferInsert) {
  const [row] = await db.insert(examplePhotos).values(values).returning();
  return row!;
}

export async function updateExamplePhoto(
  db: Executor,
  id: string,
  values: Partial<typeof examplePhotos.$inferInsert>,
) {
  const [row] = await db
    .update(examplePhotos)
    .set(values)
    .where(eq(examplePhotos.id, id))
    .returning();
  return row;
}

export async function deleteExamplePhoto(db: Executor, id: string) {
  const [row] = await db.delete(examplePhotos).where(eq(examplePhotos.id, id)).returning();
  return row;
}

export async function nextExamplePhotoOrder(db: Executor): Promise<number> {
  const [row] = await db.select({ value: max(examplePhotos.orderIndex) }).from(examplePhotos);
  return (row?.value ?? -1) + 1;
}

export async function countExamplePhotos(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(examplePhotos);
  return row?.value ?? 0;
}

export async function setExamplePhotoOrder(db: Executor, ids: readonly string[]) {
  for (const [index, id] of ids.entries()) {
    await db.update(examplePhotos).set({ orderIndex: index }).where(eq(examplePhotos.id, id));
  }
}

// ── Quiz images ───────────────────────────────────────────────────────────────────────────────

const quizOrder = [asc(quizImages.orderIndex), asc(quizImages.createdAt)];

export async function listQuizImages(
  db: Executor,
  options: { activeOnly: boolean; limit?: number },
) {
  const query = db
    .select()
    .from(quizImages)
    .where(options.activeOnly ? eq(quizImages.active, true) : undefined)
    .orderBy(...quizOrder, asc(quizImages.id));
  return options.limit ? query.limit(options.limit) : query;
}

export async function findQuizImage(db: Executor, id: string) {
  const [row] = await db.select().from(quizImages).where(eq(quizImages.id, id));
  return row;
}

export async function findQuizImageByImage(db: Executor, imageId: string) {
  const [row] = await db
    .select()
    .from(quizImages)
    .where(sql`${quizImages.image}->>'id' = ${imageId}`);
  return row;
}

export async function insertQuizImage(db: Executor, values: typeof quizImages.$inferInsert) {
  const [row] = await db.insert(quizImages).values(values).returning();
  return row!;
}

export async function updateQuizImage(
  db: Executor,
  id: string,
  values: Partial<typeof quizImages.$inferInsert>,
) {
  const [row] = await db.update(quizImages).set(values).where(eq(quizImages.id, id)).returning();
  return row;
}

export async function deleteQuizImage(db: Executor, id: string) {
  const [row] = await db.delete(quizImages).where(eq(quizImages.id, id)).returning();
  return row;
}

export async function nextQuizImageOrder(db: Executor): Promise<number> {
  const [row] = await db.select({ value: max(quizImages.orderIndex) }).from(quizImages);
  return (row?.value ?? -1) + 1;
}

export async function countQuizImages(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(quizImages);
  return row?.value ?? 0;
}

export async function setQuizImageOrder(db: Executor, ids: readonly string[]) {
  for (const [index, id] of ids.entries()) {
    await db.update(quizImages).set({ orderIndex: index }).where(eq(quizImages.id, id));
  }
}

/**
 * Serialises catalog seeding across processes: a transaction-scoped advisory lock, released at
 * commit or rollback. (Migrations use 7301.)
 */
export async function lockForSeeding(tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(7302)`);
}
