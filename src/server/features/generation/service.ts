import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  generationEvents,
  type BulkJob,
  type BulkRequest,
  type Generation,
  type GenerationsPage,
} from '../../../common/api/generation.ts';
import { catalogMessages } from '../../../common/messages/catalog.ts';
import { bulkMessages, generationMessages } from '../../../common/messages/generation.ts';
import { modelsMessages } from '../../../common/messages/models.ts';
import { costs } from '../../../common/product/credits.ts';
import { likenessPercent } from '../../../common/product/identity.ts';
import { lists } from '../../../common/product/limits.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import { type PreparedStatement, type RunPrepared, prepareStatement } from '../../db/statement.ts';
import { createStatementBatcher } from '../../db/statement-batcher.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Credits } from '../billing/credits.ts';
import type { EnginePreset } from '../catalog/service.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ModelSummary } from '../studio/repository.ts';
import { generateImageJob } from './jobs.ts';
import {
  type AcceptBulkColumns,
  type AcceptSingleColumns,
  acceptBulkPayers,
  acceptBulkSql,
  acceptSinglesPayers,
  acceptSinglesSql,
  bulkJobFromJson,
  deleteGeneration,
  generationFromJson,
  findBulkJob,
  findGeneration,
  listBulkGenerations,
  listBulkJobs,
  listOwnGenerations,
  listSingleGenerations,
  fileKeysOfModel,
  removeFromBulkJob,
  takeModelOutOfBulkJobs,
  updateOwnGeneration,
  type BulkJobRow,
  type GenerationRow,
  type NewGenerationRow,
  type PageCursor,
} from './repository.ts';

/** What generation needs from the catalog and from the studio (their services). */
export interface GenerationSources {
  enginePresets(ids?: readonly string[]): Promise<EnginePreset[]>;
  ownModel(userId: string, modelId: string): Promise<ModelSummary | undefined>;
}

export interface GenerationServiceDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  sources: GenerationSources;
  engineName: string;
  makesPreviews: boolean;
  /** Billing's door: the gates and the spend of each image. */
  credits: Pick<Credits, 'checkTier' | 'inStatement'>;
  /** Runs the named statements of the accepts (decision 051). */
  runPrepared: RunPrepared;
  /** Single accepts' statements running at once at most (decision 067). */
  acceptsAtOnce: number;
  /** Transactions with work after their commit (events, files); billing's balance events too. */
  unitOfWork: UnitOfWork;
  logger: FastifyBaseLogger;
}

/**
 * Single accepts in one statement at most: past a few, a batch saves little more per accept
 * (bench/generation.ts) and only holds its first requests longer.
 */
const acceptBatchLimit = 16;

/** The reference of a generation's spend (and its refund). */
export const generationReference = (id: string) => `generation:${id}`;

/** `bulk_job.updated` to the job's owner; a lost event only delays the page until its refetch. */
export async function publishBulkJobUpdated(
  events: EventBus,
  logger: FastifyBaseLogger,
  job: BulkJobRow,
): Promise<void> {
  await events
    .publish(job.userId, {
      type: generationEvents.bulkJobUpdated,
      data: {
        bulkJobId: job.id,
        status: job.status,
        completedImages: job.completedImages,
        failedImages: job.failedImages,
        totalImages: job.totalImages,
      },
    })
    .catch((error: unknown) => logger.warn({ err: error }, 'bulk job event not published'));
}

/** Generation's rules behind its routes: single, custom and bulk requests, results, downloads. */
export function createGenerationService(deps: GenerationServiceDeps) {
  const { db, unitOfWork, storage, queue, events, sources, logger } = deps;

  async function toGeneration(row: GenerationRow): Promise<Generation> {
    const visible = row.status === 'complete' && !row.hasNsfwContent && row.imageKey;
    const fileName = `likeness-${row.id.slice(0, 8)}.jpg`;
    return {
      id: row.id,
      status: row.status as Generation['status'],
      failureReason: row.status === 'failed' ? (row.failureReason ?? null) : null,
      modelName: row.modelName,
      promptText: row.promptText,
      presetId: row.presetId,
      userModelId: row.userModelId,
      userModelName: row.userModelName,
      bulkJobId: row.bulkJobId,
      hasNsfwContent: row.hasNsfwContent,
      imageUrl: visible ? await storage.signedUrl(row.imageKey!) : null,
      thumbnailUrl: visible && row.thumbnailKey ? await storage.signedUrl(row.thumbnailKey) : null,
      downloadUrl: visible
        ? await storage.signedUrl(row.imageKey!, { downloadName: fileName })
        : null,
      width: visible ? row.width : null,
      height: visible ? row.height : null,
      isPreview: row.isPreview,
      likeness: row.likeness === null ? null : likenessPercent(row.likeness),
      likenessRefunded: row.likenessRefunded,
      favourite: row.favourite,
      viewed: row.viewedAt !== null,
      createdAt: row.createdAt.toISOString(),
      completedAt: row.completedAt?.toISOString() ?? null,
    };
  }

  function toBulkJob(row: BulkJobRow): BulkJob {
    return {
      id: row.id,
      status: row.status,
      totalImages: row.totalImages,
      completedImages: row.completedImages,
      failedImages: row.failedImages,
      label: row.label,
      createdAt: row.createdAt.toISOString(),
      completedAt: row.completedAt?.toISOString() ?? null,
    };
  }

  const publishBulkJob = (job: BulkJobRow) => publishBulkJobUpdated(events, logger, job);

  /**
   * Tells the user's open tabs (and other devices) that these generations changed. All at once:
   * the bus keeps their order and sends a bulk's events together.
   */
  async function publishUpdated(rows: GenerationRow[]): Promise<void> {
    await Promise.all(rows.map(publishOne));
  }

  function publishOne(row: GenerationRow): Promise<void> {
    return events
      .publish(row.userId, {
        type: generationEvents.generationUpdated,
        data: { generationId: row.id, status: row.status, bulkJobId: row.bulkJobId },
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'generation event not published'));
  }

  /** A user model that can make images now, or the error saying why not. */
  async function readyModel(userId: string, modelId: string | null | undefined) {
    if (!modelId) return undefined;
    const model = await sources.ownModel(userId, modelId);
    if (!model) throw new AppError('NOT_FOUND', modelsMessages.notFound);
    if (model.status !== 'complete' || !model.weights)
      throw new AppError('CONFLICT', modelsMessages.notReady);
    return model;
  }

  type Item = Omit<NewGenerationRow, 'id' | 'userId' | 'engine' | 'isPreview'>;

  type Kind = 'preset' | 'custom';

  /** A single image's request as the accept statement reads it (`acceptSinglesSql`). */
  interface SingleRequest {
    id: string;
    user_id: string;
    model_id: string;
    /** The request's own (`jobContext()`): a batch runs in another request's context. */
    context: string;
    preset_id?: string;
    prompt?: string;
  }

  /**
   * The single accept of each kind, made on first use: its statement, its charge, and the
   * batcher that sends concurrent requests of different users in one run of it (decision 067).
   * It takes half the pool at most, so that the rest of the app never waits behind accepts.
   */
  const accepts = new Map<
    Kind,
    {
      charge: ReturnType<Credits['inStatement']>;
      accept: (request: SingleRequest) => Promise<AcceptSingleColumns>;
    }
  >();
  function acceptOf(kind: Kind) {
    let accept = accepts.get(kind);
    if (!accept) {
      const charge = deps.credits.inStatement(
        {
          gate: kind === 'preset' ? 'generation' : 'customPrompt',
          reason: 'generation',
          amount: costs.creditsPerImage,
        },
        { payers: acceptSinglesPayers, items: 'items' },
      );
      const separator = '\u0000';
      const [before = '', after = ''] = generationMessages
        .customModelName(separator)
        .split(separator);
      const statement = prepareStatement(
        `generation-accept-${kind}`,
        acceptSinglesSql({
          kind,
          charge,
          jobs: queue.insertStatement(generateImageJob, { from: 'job_source', as: 'jobs' }),
          referencePrefix: generationReference(''),
          engine: deps.engineName,
          isPreview: deps.makesPreviews,
          customName: [before, after],
          maxRequests: acceptBatchLimit,
        }),
      );
      accept = {
        charge,
        accept: createStatementBatcher<SingleRequest, AcceptSingleColumns>({
          run: (requests) =>
            deps.runPrepared<AcceptSingleColumns>(statement, {
              requests: JSON.stringify(requests.map((request, n) => ({ ...request, n }))),
            }),
          key: (request) => request.user_id,
          concurrency: deps.acceptsAtOnce,
          maxBatch: acceptBatchLimit,
        }),
      };
      accepts.set(kind, accept);
    }
    return accept;
  }

  /** The bulk accept's statement and its charge, made on first use. */
  let bulkAccepted:
    { statement: PreparedStatement; charge: ReturnType<Credits['inStatement']> } | undefined;
  function bulkAccept() {
    if (!bulkAccepted) {
      const charge = deps.credits.inStatement(
        { gate: 'bulk', reason: 'bulk_generation', amount: costs.creditsPerBulkImage },
        { payers: acceptBulkPayers, items: 'items' },
      );
      const query = acceptBulkSql({
        charge,
        jobs: queue.insertStatement(generateImageJob, { from: 'job_source', as: 'jobs' }),
        engine: deps.engineName,
        isPreview: deps.makesPreviews,
      });
      bulkAccepted = { statement: prepareStatement('generation-accept-bulk', query), charge };
    }
    return bulkAccepted;
  }

  /**
   * One image in one round trip (decisions 051, 067): the model and the preset read, the gate,
   * the spend and its ledger row, the generation row and its job, in one statement that commits
   * on its own (with other users' requests when the database is busy); the refusals are then
   * told from what it read, in the specification's order. The events go out after it, the
   * balance's first, as after a transaction of the unit of work.
   */
  async function acceptOne(
    kind: Kind,
    userId: string,
    values: { modelId: string; presetId?: string; prompt?: string },
  ): Promise<Generation> {
    const { accept, charge } = acceptOf(kind);
    const row = await accept({
      id: randomUUID(),
      user_id: userId,
      model_id: values.modelId,
      context: queue.jobContext(),
      ...(kind === 'preset' ? { preset_id: values.presetId } : { prompt: values.prompt }),
    });
    if (!row) throw new Error('the accept statement answered no row');
    if (kind === 'custom') charge.checkTier(row, 'customPrompt');
    if (row.model_ready === null) throw new AppError('NOT_FOUND', modelsMessages.notFound);
    if (!row.model_ready) throw new AppError('CONFLICT', modelsMessages.notReady);
    if (!row.preset_found) throw new AppError('NOT_FOUND', catalogMessages.modelNotFound);
    await charge.settle(userId, row);
    if (!row.generation) throw new Error('a paid generation was not inserted');
    const inserted = generationFromJson(row.generation);
    void publishOne(inserted); // after the balance's, not awaited (as `settle`'s)
    return toGeneration(inserted);
  }

  function encodeCursor(row: GenerationRow): string {
    return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
  }

  function decodeCursor(cursor: string | undefined): PageCursor | undefined {
    if (!cursor) return undefined;
    const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
    const createdAt = new Date(at ?? '');
    if (!id || !/^[\w-]{1,64}$/.test(id) || Number.isNaN(createdAt.getTime()))
      throw new AppError('BAD_REQUEST', generationMessages.invalidCursor);
    return { createdAt, id };
  }

  return {
    toGeneration,
    toBulkJob,

    /** One image of a preset (the specification's checks, in its order). */
    async fromPreset(
      userId: string,
      request: { userModelId?: string | null | undefined; presetId?: string | null | undefined },
    ): Promise<Generation> {
      if (!request.userModelId || !request.presetId)
        throw new AppError('BAD_REQUEST', generationMessages.missingInformation);
      return acceptOne('preset', userId, {
        modelId: request.userModelId,
        presetId: request.presetId,
      });
    },

    /** One image from the user's own prompt (Pro and above). */
    async fromPrompt(
      userId: string,
      request: { userModelId?: string | null | undefined; prompt: string },
    ): Promise<Generation> {
      // The checks in the specification's order: the tier first (read by the statement, or here
      // when the request is refused before it), then the prompt, the model, the gate, the credits.
      const prompt = request.prompt.trim();
      if (!prompt || !request.userModelId) {
        await deps.credits.checkTier(userId, 'customPrompt');
        if (!prompt) throw new AppError('BAD_REQUEST', generationMessages.enterPrompt);
        throw new AppError('BAD_REQUEST', generationMessages.selectModel);
      }
      return acceptOne('custom', userId, { modelId: request.userModelId, prompt });
    },

    /**
     * Many images in one request: one bulk job, N generations, N credits and N jobs in one
     * transaction. Selections that cannot be made (a preset gone, a model not trained) are
     * counted as failures, not charged.
     */
    async bulk(userId: string, request: BulkRequest) {
      await deps.credits.checkTier(userId, 'bulk');
      const selected =
        request.kind === 'presets'
          ? [...new Set(request.presetIds)]
          : [...new Set(request.userModelIds)];
      if (selected.length === 0) throw new AppError('BAD_REQUEST', bulkMessages.selectAtLeastOne);
      let items: Item[];
      let label: string;
      if (request.kind === 'custom') {
        const prompt = request.prompt.trim();
        if (!prompt) throw new AppError('BAD_REQUEST', bulkMessages.enterPrompt);
        const models = await Promise.all(selected.map((id) => sources.ownModel(userId, id)));
        // Another user's model (or none) is not a failure to count: it does not exist here.
        if (models.some((model) => !model))
          throw new AppError('NOT_FOUND', modelsMessages.notFound);
        items = models
          .filter((model): model is ModelSummary => model?.status === 'complete' && !!model.weights)
          .map((model) => ({
            userModelId: model.id,
            userModelName: model.name,
            presetId: null,
            modelName: generationMessages.customModelName(model.name),
            promptText: prompt,
          }));
        label = bulkMessages.jobLabel;
      } else {
        if (!request.userModelId) throw new AppError('BAD_REQUEST', bulkMessages.chooseUserModel);
        const model = (await readyModel(userId, request.userModelId))!;
        // The catalog answers in its own order; the job keeps the order selected.
        const found = new Map(
          (await sources.enginePresets(selected)).map((preset) => [preset.id, preset]),
        );
        const presets = selected.flatMap((id) => found.get(id) ?? []);
        items = presets.map((preset) => ({
          userModelId: model.id,
          userModelName: model.name,
          presetId: preset.id,
          modelName: preset.displayName,
          promptText: null,
        }));
        label = bulkMessages.presetJobLabel(presets.length, model.name);
      }
      // The gate, the spend, the bulk job, its images and their jobs in one statement
      // (decision 051); the gate first: an empty selection passes it having cost nothing.
      const { statement, charge } = bulkAccept();
      const bulkJobId = randomUUID();
      const rows = items.map((item, position) => {
        const id = randomUUID();
        return {
          id,
          reference: generationReference(id),
          position,
          user_model_id: item.userModelId,
          user_model_name: item.userModelName,
          preset_id: item.presetId ?? null,
          model_name: item.modelName,
          prompt_text: item.promptText ?? null,
        };
      });
      const [answer] = await deps.runPrepared<AcceptBulkColumns>(statement, {
        userId,
        bulkJobId,
        label,
        items: JSON.stringify(rows),
        jobContext: queue.jobContext(),
      });
      if (!answer) throw new Error('the bulk accept statement answered no row');
      await charge.settle(userId, answer);
      if (rows.length === 0) throw new AppError('BAD_REQUEST', bulkMessages.noneQueued);
      if (!answer.bulk_job) throw new Error('a paid bulk job was not inserted');
      const job = bulkJobFromJson(answer.bulk_job);
      void publishBulkJob(job); // after the balance's, not awaited (as `settle`'s)
      return {
        bulkJob: toBulkJob(job),
        queued: answer.queued,
        failures: selected.length - items.length,
      };
    },

    async list(
      userId: string,
      query: {
        cursor?: string | undefined;
        limit: number;
        filter: 'all' | 'complete' | 'favourites';
      },
    ): Promise<GenerationsPage> {
      const rows = await listSingleGenerations(db, userId, {
        limit: query.limit + 1,
        filter: query.filter,
        ...(query.cursor ? { cursor: decodeCursor(query.cursor)! } : {}),
      });
      const page = rows.slice(0, query.limit);
      return {
        generations: await Promise.all(page.map(toGeneration)),
        nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    },

    async get(userId: string, id: string): Promise<Generation> {
      const row = await findGeneration(db, userId, id);
      if (!row) throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
      return toGeneration(row);
    },

    /** The stored image of a complete, unblocked generation of the user (a try-on's person). */
    async imageKeyOf(userId: string, id: string): Promise<string> {
      const row = await findGeneration(db, userId, id);
      if (!row || row.status !== 'complete' || row.hasNsfwContent || !row.imageKey)
        throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
      return row.imageKey;
    },

    async markViewed(userId: string, id: string): Promise<Generation> {
      const row = await findGeneration(db, userId, id);
      if (!row) throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
      if (row.viewedAt) return toGeneration(row);
      const viewed = (await updateOwnGeneration(db, userId, id, { viewedAt: new Date() }))!;
      await publishUpdated([viewed]);
      return toGeneration(viewed);
    },

    async setFavourite(userId: string, id: string, favourite: boolean): Promise<Generation> {
      const row = await updateOwnGeneration(db, userId, id, { favourite });
      if (!row) throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
      await publishUpdated([row]);
      return toGeneration(row);
    },

    /**
     * Deletes a generation and its files. One still being made is cancelled: its job finds
     * nothing to do. Its bulk job then has one image fewer, so its counts match what is left
     * (and a job still running still finishes).
     */
    async delete(userId: string, id: string): Promise<void> {
      await unitOfWork.run(async (tx, afterCommit) => {
        const row = await findGeneration(tx, userId, id);
        if (!row) throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
        await deleteGeneration(tx, userId, id);
        const job = row.bulkJobId
          ? await removeFromBulkJob(tx, row.bulkJobId, row.status)
          : undefined;
        afterCommit(async () => {
          for (const key of [row.imageKey, row.thumbnailKey])
            if (key) await storage.delete(key).catch(() => {});
          await events
            .publish(userId, {
              type: generationEvents.generationUpdated,
              data: { generationId: id, status: 'deleted', bulkJobId: row.bulkJobId },
            })
            .catch(() => {});
          if (job) await publishBulkJob(job);
        });
      });
    },

    /**
     * A model is being deleted (in `tx`) with everything made from it: its images leave their
     * bulk jobs, whose counters then match what is left; the open tabs hear of it after commit.
     */
    async beforeModelDeleted(tx: Executor, modelId: string) {
      const fileKeys = await fileKeysOfModel(tx, modelId);
      const { changed, deleted } = await takeModelOutOfBulkJobs(tx, modelId);
      return {
        fileKeys,
        afterCommit: async () => {
          for (const job of changed) await publishBulkJob(job);
          for (const job of deleted) await publishBulkJob({ ...job, status: 'deleted' });
        },
      };
    },

    async bulkJobs(userId: string) {
      return { bulkJobs: (await listBulkJobs(db, userId, lists.bulkJobs)).map(toBulkJob) };
    },

    async bulkJob(userId: string, id: string) {
      const job = await findBulkJob(db, userId, id);
      if (!job) throw new AppError('NOT_FOUND', bulkMessages.notFound);
      const rows = await listBulkGenerations(db, job.id);
      return { bulkJob: toBulkJob(job), generations: await Promise.all(rows.map(toGeneration)) };
    },

    /**
     * The finished, unblocked images of a bulk job, of the favourites or of a selection, for one
     * zip download. A selection keeps only the user's own ids.
     */
    async downloadable(
      userId: string,
      source: { bulkJobId: string } | { ids: readonly string[] } | 'favourites',
    ) {
      let rows: GenerationRow[];
      if (source === 'favourites') {
        rows = await listSingleGenerations(db, userId, { limit: 500, filter: 'favourites' });
      } else if ('ids' in source) {
        rows = await listOwnGenerations(db, userId, source.ids);
        if (rows.length === 0) throw new AppError('NOT_FOUND', generationMessages.detail.notFound);
      } else {
        const job = await findBulkJob(db, userId, source.bulkJobId);
        if (!job) throw new AppError('NOT_FOUND', bulkMessages.notFound);
        rows = await listBulkGenerations(db, job.id);
      }
      return rows.filter((row) => row.status === 'complete' && !row.hasNsfwContent && row.imageKey);
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
