import { and, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bulkJobs, generations } from '../../db/schema/index.ts';

export type GenerationRow = typeof generations.$inferSelect;
export type NewGenerationRow = typeof generations.$inferInsert;
export type BulkJobRow = typeof bulkJobs.$inferSelect;

// Every query on a user's data names the user, so another user's id simply finds nothing.

export async function insertGenerations(
  tx: Executor,
  rows: NewGenerationRow[],
): Promise<GenerationRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(generations).values(rows).returning();
}

export async function insertBulkJob(
  tx: Executor,
  row: typeof bulkJobs.$inferInsert,
): Promise<BulkJobRow> {
  const [inserted] = await tx.insert(bulkJobs).values(row).returning();
  return inserted!;
}

export interface PageCursor {
  createdAt: Date;
  id: string;
}

/** Single generations (not from bulk jobs), newest first, after the cursor. */
export async function listSingleGenerations(
  tx: Executor,
  userId: string,
  options: { cursor?: PageCursor; limit: number; filter: 'all' | 'complete' | 'favourites' },
): Promise<GenerationRow[]> {
  const { cursor, filter } = options;
  return tx
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        filter === 'all' ? isNull(generations.bulkJobId) : undefined,
        filter === 'complete'
          ? and(eq(generations.status, 'complete'), eq(generations.hasNsfwContent, false))
          : undefined,
        filter === 'favourites' ? eq(generations.favourite, true) : undefined,
        cursor
          ? or(
              lt(generations.createdAt, cursor.createdAt),
              and(eq(generations.createdAt, cursor.createdAt), lt(generations.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(options.limit);
}

export async function findGeneration(
  tx: Executor,
  userId: string,
  id: string,
): Promise<GenerationRow | undefined> {
  const [row] = await tx
    .select()
    .from(generations)
    .where(and(eq(generations.userId, userId), eq(generations.id, id)));
  return row;
}

/** The user's generations among `ids` (another user's ids find nothing), newest first. */
export async function listOwnGenerations(
  tx: Executor,
  userId: string,
  ids: readonly string[],
): Promise<GenerationRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(generations)
    .where(and(eq(generations.userId, userId), inArray(generations.id, [...ids])))
    .orderBy(desc(generations.createdAt), desc(generations.id));
}

/** A generation by id alone: for the worker, which acts for its owner. */
export async function lockGenerationById(
  tx: Executor,
  id: string,
): Promise<GenerationRow | undefined> {
  const [row] = await tx.select().from(generations).where(eq(generations.id, id)).for('update');
  return row;
}

export async function findGenerationById(
  tx: Executor,
  id: string,
): Promise<GenerationRow | undefined> {
  const [row] = await tx.select().from(generations).where(eq(generations.id, id));
  return row;
}

export async function updateGeneration(
  tx: Executor,
  id: string,
  values: Partial<Omit<GenerationRow, 'id' | 'userId' | 'createdAt'>>,
): Promise<GenerationRow | undefined> {
  const [row] = await tx.update(generations).set(values).where(eq(generations.id, id)).returning();
  return row;
}

export async function updateOwnGeneration(
  tx: Executor,
  userId: string,
  id: string,
  values: Partial<Pick<GenerationRow, 'favourite' | 'viewedAt'>>,
): Promise<GenerationRow | undefined> {
  const [row] = await tx
    .update(generations)
    .set(values)
    .where(and(eq(generations.userId, userId), eq(generations.id, id)))
    .returning();
  return row;
}

export async function deleteGeneration(tx: Executor, userId: string, id: string): Promise<void> {
  await tx.delete(generations).where(and(eq(generations.userId, userId), eq(generations.id, id)));
}

/**
 * Generations still processing whose job last started or heard from the engine before `before`
 * (no news for too long). Those waiting their turn in the queue (never heard of) are not here.
 */
export async function quietGenerations(tx: Executor, before: Date): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(and(eq(generations.status, 'processing'), lt(generations.heardAt, before)))
    .limit(500);
}

export async function listBulkJobs(
  tx: Executor,
  userId: string,
  limit: number,
): Promise<BulkJobRow[]> {
  return tx
    .select()
    .from(bulkJobs)
    .where(eq(bulkJobs.userId, userId))
    .orderBy(desc(bulkJobs.createdAt), desc(bulkJobs.id))
    .limit(limit);
}

export async function findBulkJob(
  tx: Executor,
  userId: string,
  id: string,
): Promise<BulkJobRow | undefined> {
  const [row] = await tx
    .select()
    .from(bulkJobs)
    .where(and(eq(bulkJobs.userId, userId), eq(bulkJobs.id, id)));
  return row;
}

/** A bulk job's images in the order they were selected. */
export async function listBulkGenerations(tx: Executor, bulkJobId: string) {
  return tx
    .select()
    .from(generations)
    .where(eq(generations.bulkJobId, bulkJobId))
    .orderBy(generations.bulkPosition, generations.id);
}

/**
 * A bulk job's status and end for these counters: processing while images are left; once none
 * is, failed when none was made, completed otherwise.
 */
function settledBulkJob(completed: SQL, failed: SQL, total: SQL) {
  const pending = sql`${completed} + ${failed} < ${total}`;
  return {
    completedImages: completed,
    failedImages: failed,
    totalImages: total,
    status: sql`case when ${pending} then 'processing'
      when ${completed} = 0 and ${failed} > 0 then 'failed'
      else 'completed' end`,
    completedAt: sql`case when ${pending} then null else coalesce(${bulkJobs.completedAt}, now()) end`,
  };
}

/** Counts one finished image of a bulk job; the job completes when none is left. */
export async function countBulkOutcome(
  tx: Executor,
  bulkJobId: string,
  outcome: 'completed' | 'failed',
): Promise<BulkJobRow | undefined> {
  const completed = outcome === 'completed' ? 1 : 0;
  const failed = outcome === 'failed' ? 1 : 0;
  const [row] = await tx
    .update(bulkJobs)
    .set(
      settledBulkJob(
        sql`${bulkJobs.completedImages} + ${completed}`,
        sql`${bulkJobs.failedImages} + ${failed}`,
        sql`${bulkJobs.totalImages}`,
      ),
    )
    .where(eq(bulkJobs.id, bulkJobId))
    .returning();
  return row;
}

/**
 * Takes a deleted image out of its bulk job: one image fewer, and out of the counter its
 * outcome was in (one still processing was in none), so the counts match the images left.
 */
export async function removeFromBulkJob(
  tx: Executor,
  bulkJobId: string,
  status: string,
): Promise<BulkJobRow | undefined> {
  const completed = status === 'complete' ? 1 : 0;
  const failed = status === 'failed' ? 1 : 0;
  const [row] = await tx
    .update(bulkJobs)
    .set(
      settledBulkJob(
        sql`${bulkJobs.completedImages} - ${completed}`,
        sql`${bulkJobs.failedImages} - ${failed}`,
        sql`${bulkJobs.totalImages} - 1`,
      ),
    )
    .where(eq(bulkJobs.id, bulkJobId))
    .returning();
  return row;
}

/**
 * Takes a model's images out of their bulk jobs before the model's deletion cascades to them, as
 * `removeFromBulkJob` does for one: each job keeps the images of other models with counts that
 * match them (and settles if only finished ones are left). A job left with no image at all is
 * deleted, rather than kept processing with 0 of N forever. Answers the jobs changed and deleted.
 */
export async function takeModelOutOfBulkJobs(
  tx: Executor,
  userModelId: string,
): Promise<{ changed: BulkJobRow[]; deleted: BulkJobRow[] }> {
  const counts = await tx
    .select({
      bulkJobId: sql<string>`${generations.bulkJobId}`,
      completed: sql<number>`count(*) filter (where ${generations.status} = 'complete')::int`,
      failed: sql<number>`count(*) filter (where ${generations.status} = 'failed')::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(generations)
    .where(and(eq(generations.userModelId, userModelId), isNotNull(generations.bulkJobId)))
    .groupBy(generations.bulkJobId);
  const changed: BulkJobRow[] = [];
  for (const count of counts) {
    const [row] = await tx
      .update(bulkJobs)
      .set(
        settledBulkJob(
          sql`${bulkJobs.completedImages} - ${count.completed}`,
          sql`${bulkJobs.failedImages} - ${count.failed}`,
          sql`${bulkJobs.totalImages} - ${count.total}`,
        ),
      )
      .where(eq(bulkJobs.id, count.bulkJobId))
      .returning();
    if (row) changed.push(row);
  }
  const emptied = changed.filter((row) => row.totalImages <= 0).map((row) => row.id);
  const deleted =
    emptied.length > 0
      ? await tx.delete(bulkJobs).where(inArray(bulkJobs.id, emptied)).returning()
      : [];
  return { changed: changed.filter((row) => row.totalImages > 0), deleted };
}

/** The image files of everything made with a model (deleted together with it). */
export async function fileKeysOfModel(tx: Executor, userModelId: string): Promise<string[]> {
  const rows = await tx
    .select({ imageKey: generations.imageKey, thumbnailKey: generations.thumbnailKey })
    .from(generations)
    .where(eq(generations.userModelId, userModelId));
  return rows
    .flatMap((row) => [row.imageKey, row.thumbnailKey])
    .filter((key): key is string => key !== null);
}
