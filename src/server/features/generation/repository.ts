import { and, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bulkJobs, generations } from '../../db/schema/index.ts';
import { rowFromJson } from '../../db/statement.ts';
import { onePayer } from '../billing/credits.ts';
import type { JobInsert } from '../../jobs/job-queue.ts';
import { visiblePresetsSql } from '../catalog/repository.ts';
import { modelSummariesSql } from '../studio/repository.ts';

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

/**
 * Single images accepted in one statement (decisions 051, 067), one request or several of
 * different users at once, all of one kind: a preset's or a custom prompt's. For each request,
 * the user's model (its summary: never the face embeddings) and the visible preset are read,
 * the charge (billing's CTEs, `charge`) pays when both are there, and the generation row and its
 * job (`jobs`, pg-boss's row) are inserted from what paid. One placeholder, `requests` (jsonb:
 * an array of { n, id, user_id, model_id, context }, where context is the request's
 * `jobContext()`, and preset_id (a preset's) or prompt (a custom prompt's); each user once).
 *
 * It answers one row per request, in the order of `n`: whether the model is ready (null: no
 * such model), whether the preset was found, the charge's columns and the generation inserted
 * (null when nothing was paid).
 */
export function acceptSinglesSql(args: {
  kind: 'preset' | 'custom';
  /** Billing's CTEs for the relations `items` and `payers` (the requests' users). */
  charge: { ctes: SQL; columns: (user: SQL) => SQL };
  /** The job of each row of `job_source` (columns data, owner, position, context). */
  jobs: JobInsert;
  referencePrefix: string;
  engine: string;
  isPreview: boolean;
  /** A custom prompt's picture is named around its model's name: what comes before and after. */
  customName: readonly [string, string];
  /**
   * The most requests a run carries. Said to the planner, which otherwise expects a hundred
   * from a jsonb array and then reads whole tables (users' models, balances) rather than their
   * rows by key.
   */
  maxRequests: number;
}): SQL {
  const { kind, charge, jobs } = args;
  const preset = kind === 'preset';
  if (!Number.isInteger(args.maxRequests) || args.maxRequests < 1)
    throw new Error(`not a number of requests: ${args.maxRequests}`);
  return sql`with request as (
      select * from jsonb_to_recordset(${sql.placeholder('requests')}::jsonb) as r(
        n int, id text, user_id text, model_id text,
        ${preset ? sql`preset_id text` : sql`prompt text`}, context text)
      limit ${sql.raw(String(args.maxRequests))}
    ),
    model as (
      select r.n, m.* from request r
      cross join lateral (${modelSummariesSql(sql`r.user_id`, sql`array[r.model_id]`)} limit 1) m
    ),
    ${
      preset
        ? sql`preset as (
            select r.n, p.* from request r
            cross join lateral (${visiblePresetsSql(sql`array[r.preset_id]`)} limit 1) p
          ),`
        : sql``
    }
    items as (
      select r.n, r.id, r.user_id, ${args.referencePrefix}::text || r.id as reference,
        0 as position
      from request r join model m on m.n = r.n and m.ready
      ${preset ? sql`join preset p on p.n = r.n` : sql``}
    ),
    ${charge.ctes},
    gen as (
      insert into generations (id, user_id, user_model_id, user_model_name, preset_id, model_name,
        prompt_text, engine, is_preview, bulk_position)
      select i.id, i.user_id, m.id, m.name,
        ${preset ? sql`p.id` : sql`null`},
        ${preset ? sql`p.display_name` : sql`${args.customName[0]}::text || m.name || ${args.customName[1]}::text`},
        ${preset ? sql`null` : sql`r.prompt`},
        ${args.engine}::text, ${args.isPreview}::boolean, i.position
      from items i
      join charge_debit d on d.user_id = i.user_id
      join model m on m.n = i.n
      ${preset ? sql`join preset p on p.n = i.n` : sql`join request r on r.n = i.n`}
      returning *
    ),
    job_source as (
      select jsonb_build_object('generationId', g.id) as data, g.user_id as owner,
        g.bulk_position as position, r.context::jsonb as context
      from gen g join request r on r.id = g.id
    ),
    ${jobs.ctes}
    select r.n, (select m.ready from model m where m.n = r.n) as model_ready,
      ${preset ? sql`exists (select 1 from preset p where p.n = r.n)` : sql`true`} as preset_found,
      (select row_to_json(g) from gen g where g.id = r.id) as generation,
      ${jobs.evaluated} as jobs_evaluated,
      ${charge.columns(sql`r.user_id`)}
    from request r
    order by r.n`;
}

/**
 * The users who pay in `acceptSinglesSql`: its requests' (billing's `payers`), in one order, so
 * that two statements lock the balances they share in the same order, not into a deadlock.
 */
export const acceptSinglesPayers = sql`select distinct user_id from request order by user_id`;

/** A row `acceptSinglesSql` answers: one request's. */
export interface AcceptSingleColumns {
  /** Whether the model can make images; null when the user has no such model. */
  model_ready: boolean | null;
  preset_found: boolean;
  generation: Record<string, unknown> | null;
  charge_read: Record<string, unknown> | null;
  charge_debit: Record<string, unknown> | null;
  charge_items: number;
}

const bulkUserId = sql`${sql.placeholder('userId')}::text`;

/** Who pays in `acceptBulkSql` (billing's `payers`). */
export const acceptBulkPayers = onePayer(bulkUserId);

/**
 * A bulk accepted in one statement (decision 051): the charge (billing's CTEs, `charge`, for the
 * relation `items`), then, from what paid, the bulk job, its generations and one job each.
 * Placeholders: userId, bulkJobId, label, items (jsonb: an array of { id, reference, position,
 * user_model_id, user_model_name, preset_id, model_name, prompt_text }) and jobContext. An empty
 * `items` pays nothing and inserts nothing. Answers one row: the bulk job (or null), how many
 * generations were inserted and the charge's columns.
 */
export function acceptBulkSql(args: {
  /** Billing's CTEs for the relation `items`, paid by `userId` (`acceptBulkPayers`). */
  charge: { ctes: SQL; columns: (user: SQL) => SQL };
  /** The job of each row of `job_source` (columns data, owner, position, context). */
  jobs: JobInsert;
  engine: string;
  isPreview: boolean;
}): SQL {
  const { charge, jobs } = args;
  return sql`with items as (
      select x.*, ${bulkUserId} as user_id
      from jsonb_to_recordset(${sql.placeholder('items')}::jsonb) as x(
        id text, reference text, position int, user_model_id text, user_model_name text,
        preset_id text, model_name text, prompt_text text)
    ),
    ${charge.ctes},
    bulk as (
      insert into bulk_jobs (id, user_id, total_images, label)
      select ${sql.placeholder('bulkJobId')}::text, ${bulkUserId},
        (select count(*)::int from items), ${sql.placeholder('label')}::text
      from charge_debit
      returning *
    ),
    gen as (
      insert into generations (id, user_id, user_model_id, user_model_name, preset_id, model_name,
        prompt_text, engine, is_preview, bulk_job_id, bulk_position)
      select i.id, i.user_id, i.user_model_id, i.user_model_name, i.preset_id, i.model_name,
        i.prompt_text, ${args.engine}::text, ${args.isPreview}::boolean, b.id, i.position
      from bulk b cross join items i
      returning id, user_id, bulk_position
    ),
    job_source as (
      select jsonb_build_object('generationId', id) as data, user_id as owner,
        bulk_position as position, ${sql.placeholder('jobContext')}::jsonb as context
      from gen
    ),
    ${jobs.ctes}
    select (select row_to_json(b) from bulk b) as bulk_job,
      (select count(*)::int from gen) as queued,
      ${jobs.evaluated} as jobs_evaluated,
      ${charge.columns(bulkUserId)}`;
}

/** The row `acceptBulkSql` answers. */
export interface AcceptBulkColumns {
  bulk_job: Record<string, unknown> | null;
  queued: number;
  charge_read: Record<string, unknown> | null;
  charge_debit: Record<string, unknown> | null;
  charge_items: number;
}

/** A bulk job row from its `row_to_json`. */
export function bulkJobFromJson(json: Record<string, unknown>): BulkJobRow {
  return rowFromJson(bulkJobs, json);
}

/** A generation row from its `row_to_json`. */
export function generationFromJson(json: Record<string, unknown>): GenerationRow {
  return rowFromJson(generations, json);
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
