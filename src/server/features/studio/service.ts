import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  studioEvents,
  type Draft,
  type ModelPreview,
  type DraftPhotosResponse,
  type PhotoFailureReason,
  type StudioSettings,
  type TrainingPhoto,
  type UserModel,
  type UserModelsResponse,
} from '../../../common/api/studio.ts';
import { modelsMessages, trainingMessages } from '../../../common/messages/models.ts';
import { nameModelMessages, uploadMessages } from '../../../common/messages/studio.ts';
import { modelName as modelNameRules } from '../../../common/product/limits.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import type { Gender } from '../../../common/product/training.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { AccountDeletionParticipant } from '../account/service.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import type { Credits } from '../billing/credits.ts';
import type { EventBus } from '../events/event-bus.ts';
import { deleteFilesJob, deleteWeightsJob, startTrainingJob, validatePhotoJob } from './jobs.ts';
import type { NormalizedPhoto } from '../../images/intake.ts';
import {
  attachPhotos,
  countDraftPlaces,
  countSlotModels,
  deleteModel,
  deletePhoto,
  findDraft,
  findDraftPhoto,
  restoreDraft,
  findModel,
  findModelSummary,
  findModelById,
  insertModel,
  insertPhoto,
  listDraftPhotos,
  listModelPhotos,
  listModels,
  lockDraft,
  selectedModelId,
  setSelectedModel,
  setTrainingStatus,
  syncTrainingInProgress,
  unselectModel,
  updateDraft,
  type ModelRow,
  type PhotoRow,
} from './repository.ts';
import type { TrainingPreviews } from './previews.ts';
import { trainingReference } from './training.ts';
import { draftTrainingStatus, settleDraft, type PhotoChange } from './validation.ts';

/**
 * A feature with rows or files made from a model, called in the model's deletion transaction
 * before the model (and what cascades from it) goes: it answers the storage keys of its files
 * and settles its own rows that count what is about to vanish (generation's bulk jobs), with
 * what to announce once the deletion has committed.
 */
export type ModelDeletionParticipant = (
  tx: Executor,
  modelId: string,
) => Promise<{ fileKeys: string[]; afterCommit?: () => Promise<void> }>;

/** The trigger word that stands for the user in prompts of a trained model. */
const triggerWord = 'TOK';

export interface StudioServiceDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  engineName: string;
  /** Billing's door: the training's gate and payment, the gate of choosing a model. */
  credits: Pick<Credits, 'charge' | 'authorize'>;
  /** Transactions with work after their commit (events, files); billing's balance events too. */
  unitOfWork: UnitOfWork;
  similarity: (a: number[], b: number[]) => number;
  /** Stops a deleted model's training at the engine (no-op when none runs there). */
  cancelTraining: (model: ModelRow) => Promise<void>;
  /** The engine keeps trained weights it can delete (TrainingEngine.deleteWeights). */
  deletesWeights: boolean;
  /** Training previews: planned with a new model, shown with it (decision 039). */
  previews: Pick<TrainingPreviews, 'choose' | 'plan' | 'forModels'>;
  logger: FastifyBaseLogger;
}

/** The studio's model-creation rules behind its routes: draft photos, draft, models, settings. */
export function createStudioService(deps: StudioServiceDeps) {
  const { db, unitOfWork, storage, queue, events, logger } = deps;
  // Features that keep rows or files made from a model (generation) act before it is deleted.
  const modelDeletionParticipants: ModelDeletionParticipant[] = [];

  /** `draft`: the draft's photos in order, to number the photo a `sameShot` one copies. */
  async function toPhoto(row: PhotoRow, draft: PhotoRow[] = []): Promise<TrainingPhoto> {
    const reason = (row.failureReason as PhotoFailureReason | null) ?? null;
    const copied = reason === 'sameShot' ? row.face?.sameShotOf : null;
    const position = copied ? draft.findIndex((photo) => photo.id === copied) + 1 : 0;
    return {
      id: row.id,
      fileName: row.fileName,
      status: row.status as TrainingPhoto['status'],
      reason,
      sameShotAs: position > 0 ? position : null,
      thumbnailUrl: await storage.signedUrl(row.thumbnailKey),
      width: row.width,
      height: row.height,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function toModel(row: ModelRow, previews: ModelPreview[] = []): Promise<UserModel> {
    return {
      id: row.id,
      name: row.name,
      gender: row.gender as Gender,
      status: row.status,
      featuredImageUrl: row.featuredImageKey ? await storage.signedUrl(row.featuredImageKey) : null,
      failureReason: row.failureReason,
      progress: row.status === 'training' ? row.progress : null,
      engine: row.engine,
      paidWith: row.paidWith as UserModel['paidWith'],
      photoCount: row.photoCount,
      createdAt: row.createdAt.toISOString(),
      trainingStartedAt: row.trainingStartedAt?.toISOString() ?? null,
      completedAt: row.completedAt?.toISOString() ?? null,
      previews,
    };
  }

  async function publishPhotoChanges(changes: PhotoChange[]): Promise<void> {
    for (const change of changes) {
      await events
        .publish(change.userId, {
          type: studioEvents.photoUpdated,
          data: { photoId: change.photoId, status: change.status },
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'photo event not published'));
    }
  }

  async function publishModel(model: ModelRow): Promise<void> {
    await events
      .publish(model.userId, {
        type: studioEvents.modelUpdated,
        data: {
          modelId: model.id,
          name: model.name,
          status: model.status,
          progress: model.status === 'training' ? model.progress : null,
        },
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'model event not published'));
  }

  async function deleteFilesLater(keys: string[], prefixes: string[] = []): Promise<void> {
    await queue.send(deleteFilesJob, { keys, prefixes });
  }

  /** Queues the deletion of a deleted model's weights at the engine that trained them. */
  async function deleteWeightsLater(model: ModelRow, tx?: Executor): Promise<void> {
    if (!deps.deletesWeights || model.engine !== deps.engineName) return;
    await queue.send(
      deleteWeightsJob,
      {
        engine: model.engine,
        modelId: model.id,
        reference: model.engineReference,
        weights: model.weights,
      },
      tx ? { tx } : {},
    );
  }

  return {
    publishPhotoChanges,
    publishModel,

    /**
     * Account deletion: the user's models go with the user row (cascade), so their weights at
     * the engine are queued for deletion in the same transaction (decision 038).
     */
    deletionParticipant: {
      name: 'studio',
      async beforeDelete(tx, userId) {
        for (const model of await listModels(tx, userId)) await deleteWeightsLater(model, tx);
      },
    } satisfies AccountDeletionParticipant,

    /** Registers a feature whose rows and files made from a model go with it. */
    addModelDeletionParticipant(participant: ModelDeletionParticipant): void {
      modelDeletionParticipants.push(participant);
    },

    /** A user's model as generation needs it (weights, trigger word, face); undefined if not theirs. */
    ownModel: (userId: string, modelId: string) => findModelSummary(db, userId, modelId),
    modelById: (modelId: string) => findModelById(db, modelId),

    async draftPhotos(userId: string): Promise<DraftPhotosResponse> {
      // One snapshot: read apart, the status could predate the photos' last validation.
      const [rows, draft] = await db.transaction(
        async (tx) => [await listDraftPhotos(tx, userId), await findDraft(tx, userId)] as const,
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      const counts = { total: rows.length, passed: 0, failed: 0, pending: 0 };
      for (const row of rows) counts[row.status as 'passed' | 'failed' | 'pending'] += 1;
      return {
        trainingStatus: (draft?.trainingStatus as DraftPhotosResponse['trainingStatus']) ?? null,
        photos: await Promise.all(rows.map((row) => toPhoto(row, rows))),
        counts,
      };
    },

    /** Refuses early (before the body is read) when the draft is already full. */
    async assertRoomForPhoto(userId: string): Promise<void> {
      if ((await countDraftPlaces(db, userId)) >= photoRules.max)
        throw new AppError('LIMIT_REACHED', uploadMessages.tooMany);
    },

    /**
     * Receives a photo (`receive` reads and normalises the upload), stores it and records it as
     * pending with its validation job, in one transaction; if anything fails, the stored files
     * are removed again and the training status goes back to what the draft's photos say.
     */
    async addPhoto(
      userId: string,
      receive: () => Promise<{ fileName: string; photo: NormalizedPhoto }>,
    ): Promise<TrainingPhoto> {
      const id = randomUUID();
      const storageKeyOf = userStorageKey(userId, 'training-images', `${id}.jpg`);
      const thumbnailKey = userStorageKey(userId, 'training-images', `${id}-thumb.webp`);
      const before = await findDraft(db, userId);
      try {
        // The specification's UPLOADING: from when the upload starts until it is recorded for
        // validation (VALIDATING), or refused (back to what the photos say).
        await setTrainingStatus(db, userId, 'UPLOADING');
        const { fileName, photo } = await receive();
        await Promise.all([
          storage.put(storageKeyOf, photo.jpeg, 'image/jpeg'),
          storage.put(thumbnailKey, photo.thumbnail, 'image/webp'),
        ]).catch((error: unknown) => {
          logger.error({ err: error, userId }, 'a training photo could not be stored');
          throw new AppError('INTERNAL', uploadMessages.notStored);
        });
        const row = await unitOfWork.run(async (tx, afterCommit) => {
          await lockDraft(tx, userId);
          if ((await countDraftPlaces(tx, userId)) >= photoRules.max)
            throw new AppError('LIMIT_REACHED', uploadMessages.tooMany);
          const inserted = await insertPhoto(tx, {
            id,
            userId,
            storageKey: storageKeyOf,
            thumbnailKey,
            fileName,
            width: photo.width,
            height: photo.height,
            bytes: photo.jpeg.length,
          });
          await setTrainingStatus(tx, userId, 'VALIDATING');
          await queue
            .send(validatePhotoJob, { photoId: id }, { tx, owner: userId })
            .catch((error: unknown) => {
              logger.error({ err: error, userId }, 'photo validation could not be queued');
              throw new AppError('INTERNAL', uploadMessages.failedToStartValidation);
            });
          afterCommit(() => publishPhotoChanges([{ userId, photoId: id, status: 'pending' }]));
          return inserted;
        });
        return await toPhoto(row);
      } catch (error) {
        await Promise.all(
          [storageKeyOf, thumbnailKey].map((key) => storage.delete(key).catch(() => {})),
        );
        // Back to the draft as it was before this upload started, with the status its photos
        // say now (validations may have finished meanwhile).
        await db
          .transaction(async (tx) => {
            await lockDraft(tx, userId);
            await restoreDraft(tx, userId, before, await draftTrainingStatus(tx, userId));
          })
          .catch(() => {});
        throw error;
      }
    },

    async deletePhoto(userId: string, photoId: string): Promise<void> {
      await unitOfWork.run(async (tx, afterCommit) => {
        await lockDraft(tx, userId);
        const photo = await findDraftPhoto(tx, userId, photoId);
        if (!photo) throw new AppError('NOT_FOUND', uploadMessages.photoNotFound);
        await deletePhoto(tx, userId, photoId);
        const changes = await settleDraft(tx, userId, deps.similarity);
        afterCommit(() =>
          Promise.all(
            [photo.storageKey, photo.thumbnailKey].map((key) =>
              storage.delete(key).catch(() => deleteFilesLater([key])),
            ),
          ),
        );
        afterCommit(() =>
          publishPhotoChanges([{ userId, photoId, status: 'deleted' }, ...changes]),
        );
      });
    },

    async draft(userId: string): Promise<Draft> {
      const row = await findDraft(db, userId);
      return { gender: (row?.gender as Gender | null) ?? null, name: row?.name ?? '' };
    },

    async updateDraft(
      userId: string,
      change: { gender?: Gender | null; name?: string },
    ): Promise<Draft> {
      const row = await updateDraft(db, userId, {
        ...(change.gender !== undefined ? { gender: change.gender } : {}),
        ...(change.name !== undefined ? { name: change.name } : {}),
      });
      return { gender: (row.gender as Gender | null) ?? null, name: row.name };
    },

    async settings(userId: string): Promise<StudioSettings> {
      const row = await findDraft(db, userId);
      return { keepTrainingPhotos: row?.keepTrainingPhotos ?? false };
    },

    async updateSettings(userId: string, settings: StudioSettings): Promise<StudioSettings> {
      const row = await updateDraft(db, userId, {
        keepTrainingPhotos: settings.keepTrainingPhotos,
      });
      return { keepTrainingPhotos: row.keepTrainingPhotos };
    },

    async models(userId: string): Promise<UserModelsResponse> {
      const [rows, selected] = await Promise.all([
        listModels(db, userId),
        selectedModelId(db, userId),
      ]);
      const previews = await deps.previews.forModels(
        db,
        userId,
        rows.map((row) => row.id),
      );
      return {
        models: await Promise.all(rows.map((row) => toModel(row, previews.get(row.id)))),
        selectedModelId: rows.some((row) => row.id === selected) ? selected : null,
        trainingInProgress: rows.some(
          (row) => row.status === 'pending' || row.status === 'training',
        ),
      };
    },

    /**
     * Creates a model from the draft and starts its training. In one transaction: the plan's
     * gates, the draft's rules, the spend (a free training or 50 credits), the model, the photos
     * moved to it and the training job.
     */
    async createModel(
      userId: string,
      request: { name: string; gender?: Gender | null | undefined },
    ): Promise<UserModel> {
      const name = request.name.trim();
      if (!name) throw new AppError('VALIDATION_ERROR', nameModelMessages.nameRequired);
      if (name.length > modelNameRules.maxLength)
        throw new AppError(
          'VALIDATION_ERROR',
          nameModelMessages.nameTooLong(modelNameRules.maxLength),
        );
      const previewPresets = await deps.previews.choose();
      const model = await unitOfWork
        .run(async (tx, afterCommit) => {
          // The plan's gates first (model limit, a free training or the credits), paid at once:
          // a refusal below rolls the payment back with everything else.
          const id = randomUUID();
          const paid = await deps.credits.charge(tx, userId, {
            gate: 'training',
            reference: trainingReference(id),
            models: () => countSlotModels(tx, userId),
          });
          const draft = await lockDraft(tx, userId);
          const gender = request.gender ?? (draft.gender as Gender | null);
          if (!gender) throw new AppError('VALIDATION_ERROR', nameModelMessages.genderMissing);
          const photos = await listDraftPhotos(tx, userId);
          if (photos.some((photo) => photo.status === 'pending'))
            throw new AppError('CONFLICT', uploadMessages.stillValidating);
          if (photos.some((photo) => photo.status === 'failed'))
            throw new AppError('VALIDATION_ERROR', uploadMessages.someInvalid);
          if (photos.length < photoRules.min)
            throw new AppError('VALIDATION_ERROR', uploadMessages.tooFewPassed);
          if (photos.length > photoRules.max)
            throw new AppError('VALIDATION_ERROR', uploadMessages.tooMany);
          const inserted = await insertModel(tx, {
            id,
            userId,
            name,
            gender,
            status: 'pending',
            paidWith: paid.usedFreeTraining ? 'free-training' : 'credits',
            photoCount: photos.length,
            engine: deps.engineName,
            triggerWord,
            faceEmbedding: meanEmbedding(photos.map((photo) => photo.embedding)),
          });
          await attachPhotos(
            tx,
            userId,
            photos.map((photo) => photo.id),
            id,
          );
          await updateDraft(tx, userId, { trainingStatus: null, gender: null, name: '' });
          await syncTrainingInProgress(tx, userId);
          await queue.send(startTrainingJob, { modelId: id }, { tx });
          await deps.previews.plan(tx, inserted, photos, previewPresets);
          afterCommit(() => publishModel(inserted));
          return inserted;
        })
        .catch((error: unknown) => {
          if (error instanceof AppError) throw error;
          // Nothing was spent or recorded (one transaction); the user may simply try again.
          logger.error({ err: error, userId }, 'the model could not be created');
          throw new AppError('INTERNAL', trainingMessages.createModelFailed);
        });
      const previews = await deps.previews.forModels(db, userId, [model.id]);
      return toModel(model, previews.get(model.id));
    },

    /** Pro and above choose which model generation uses by default (saved on the profile). */
    async selectModel(userId: string, modelId: string): Promise<UserModelsResponse> {
      await db.transaction(async (tx) => {
        await deps.credits.authorize(tx, userId, 'chooseModel');
        const model = await findModel(tx, userId, modelId);
        if (!model) throw new AppError('NOT_FOUND', modelsMessages.notFound);
        if (model.status !== 'complete') throw new AppError('CONFLICT', modelsMessages.notReady);
        await setSelectedModel(tx, userId, modelId);
      });
      return this.models(userId);
    },

    /** Deletes a model and every file made for it (photos, zip, likeness profile, featured image). */
    async deleteModel(userId: string, modelId: string): Promise<void> {
      await unitOfWork.run(async (tx, afterCommit) => {
        const model = await findModel(tx, userId, modelId);
        if (!model) throw new AppError('NOT_FOUND', modelsMessages.notFound);
        const photos = await listModelPhotos(tx, modelId);
        const settled = [];
        for (const participant of modelDeletionParticipants)
          settled.push(await participant(tx, modelId));
        await unselectModel(tx, userId, modelId);
        await deleteModel(tx, userId, modelId);
        await syncTrainingInProgress(tx, userId);
        const keys = [
          ...photos.flatMap((photo) => [photo.storageKey, photo.thumbnailKey]),
          ...(model.zipKey ? [model.zipKey] : []),
          ...settled.flatMap((participant) => participant.fileKeys),
        ];
        afterCommit(() =>
          queue.send(deleteFilesJob, {
            keys,
            prefixes: [`${userStorageKey(userId, 'models', modelId)}/`],
          }),
        );
        // A training still running at a provider would go on, paid for; a start job running now
        // cancels what it started once it finds the model gone (`Training.start`).
        afterCommit(() => deps.cancelTraining(model));
        // The weights the provider trained go too, by a job that retries (decision 038): best
        // effort, the user's deletion neither waits for the provider nor fails with it.
        afterCommit(() =>
          deleteWeightsLater(model).catch((error: unknown) =>
            logger.error({ err: error, modelId }, 'deleting the weights could not be queued'),
          ),
        );
        afterCommit(() => publishModel({ ...model, status: 'deleted' }));
        // The participants' announcements come after the model's own.
        for (const participant of settled)
          if (participant.afterCommit) afterCommit(participant.afterCommit);
      });
    },
  };
}

export type StudioService = ReturnType<typeof createStudioService>;

/** The unit-length mean of the photos' face embeddings: the model's face, for likeness scores. */
function meanEmbedding(embeddings: (number[] | null)[]): number[] | null {
  const present = embeddings.filter((e): e is number[] => e !== null && e.length > 0);
  if (present.length === 0) return null;
  const sum = present[0]!.map((_, i) => present.reduce((total, e) => total + (e[i] ?? 0), 0));
  const norm = Math.hypot(...sum) || 1;
  return sum.map((value) => value / norm);
}
