import type { FastifyBaseLogger } from 'fastify';
import { metrics } from '../../observability/metrics.ts';
import sharp from 'sharp';
import { messages } from '../../../common/messages.ts';
import {
  type Gender,
  photos as photoRules,
  routes,
  storage as storageRules,
  training,
} from '../../../common/product.ts';
import {
  EngineError,
  type TrainingEngine,
  type TrainingState,
} from '../../adapters/engine/training-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { PhotoFace } from '../../db/schema/studio.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { zipStoredFiles } from '../../lib/zip-stream.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import { refund } from '../billing/ledger.ts';
import { sendEmailJob } from '../email/jobs.ts';
import { checkTrainingJob, deleteFilesJob } from './jobs.ts';
import {
  findDraft,
  findModelById,
  findModelByReference,
  listModelPhotos,
  lockModelById,
  syncTrainingInProgress,
  updateModel,
  userEmailOf,
  deletePhotosOfModel,
  type ModelRow,
  type PhotoRow,
} from './repository.ts';

/** Publishes a model's change to its owner (after the change committed). */
export type PublishModel = (model: ModelRow) => Promise<void>;

export interface TrainingDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  engine: TrainingEngine;
  publishModel: PublishModel;
  /** Runs work in one transaction and publishes balance changes after commit (the ledger's). */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  publicUrl: string;
  pollSeconds: number;
  timeoutMinutes: number;
  logger: FastifyBaseLogger;
}

/** Model ids are UUIDs; a webhook URL's `model` is read only when it looks like one. */
const modelIdPattern = /^[0-9a-f-]{36}$/i;

/** The reference of everything a model's training spends (and its refund). */
export const trainingReference = (modelId: string) => `model:${modelId}`;

/**
 * A model's training from start to end: zip the photos, start the engine, take its news (from a
 * webhook or a poll), and finish exactly once: complete, or failed with a reason and a refund.
 */
export function createTraining(deps: TrainingDeps) {
  const { db, storage, queue, engine, logger } = deps;

  /** Ends a training once; later news (webhook replays, polls) changes nothing. */
  async function finish(
    modelId: string,
    state: TrainingState & { status: 'succeeded' | 'failed' },
  ) {
    const finished = await deps.transaction(async (tx) => {
      const model = await lockModelById(tx, modelId);
      if (!model || model.status === 'complete' || model.status === 'failed') return undefined;
      const now = new Date();
      const updated =
        state.status === 'succeeded'
          ? await updateModel(tx, modelId, {
              status: 'complete',
              weights: state.weights,
              progress: 100,
              completedAt: now,
              lastNewsAt: now,
              failureReason: null,
            })
          : await updateModel(tx, modelId, {
              status: 'failed',
              failureReason: state.error,
              progress: null,
              completedAt: now,
              lastNewsAt: now,
            });
      if (state.status === 'failed') await refund(tx, model.userId, trainingReference(modelId));
      await syncTrainingInProgress(tx, model.userId);
      await sendOutcomeEmail(tx, updated!);
      await scheduleTrainingFileDeletion(tx, updated!);
      return updated;
    });
    if (finished) await deps.publishModel(finished);
  }

  async function sendOutcomeEmail(tx: Executor, model: ModelRow): Promise<void> {
    const to = await userEmailOf(tx, model.userId);
    if (!to) return;
    const url = `${deps.publicUrl}${model.status === 'complete' ? routes.dashboard : routes.createModel}`;
    const mail =
      model.status === 'complete'
        ? {
            subject: messages.email.trainingCompleteSubject(model.name),
            text: messages.email.trainingCompleteBody(model.name, url),
          }
        : {
            subject: messages.email.trainingFailedSubject(model.name),
            text: messages.email.trainingFailedBody(
              model.name,
              model.failureReason ?? messages.training.startFailed,
              url,
            ),
          };
    await queue.send(
      sendEmailJob,
      { to, subject: mail.subject, text: `${mail.text}\n\n${messages.email.footer}` },
      { tx },
    );
  }

  /** Training photos and the zip go once training ended, unless the user keeps them. */
  async function scheduleTrainingFileDeletion(tx: Executor, model: ModelRow): Promise<void> {
    const draft = await findDraft(tx, model.userId);
    if (draft?.keepTrainingPhotos) return;
    const photos = await listModelPhotos(tx, model.id);
    const keys = [
      ...photos.flatMap((photo) => [photo.storageKey, photo.thumbnailKey]),
      ...(model.zipKey ? [model.zipKey] : []),
    ];
    await deletePhotosOfModel(tx, model.id);
    await updateModel(tx, model.id, { photosDeletedAt: new Date(), zipKey: null });
    if (keys.length > 0) await queue.send(deleteFilesJob, { keys, prefixes: [] }, { tx });
  }

  async function fail(modelId: string, reason: string) {
    await finish(modelId, { status: 'failed', error: reason });
  }

  /**
   * News of a training no model tracks. A start that timed out after the engine had accepted it
   * is retried, and the engine then runs two trainings for one model: the first to succeed is
   * kept (the model completes with it, the other is cancelled); one still running for a model that
   * tracks another, or that has ended, is cancelled. One running while its model tracks none yet
   * may be the model's own, its start not recorded yet: it is left alone.
   */
  async function settleUntracked(reference: string, state: TrainingState, modelId: string) {
    const model = await findModelById(db, modelId);
    const owned = model?.engine === engine.name ? model : undefined;
    const waiting = owned?.status === 'pending' || owned?.status === 'training';
    if (owned && waiting && state.status === 'succeeded') {
      const replaced = owned.engineReference;
      const adopted = await updateModel(db, owned.id, { engineReference: reference });
      if (adopted) await takeNews(adopted, state);
      logger.warn({ modelId, reference, replaced }, 'kept a duplicate training that succeeded');
      if (replaced) await cancelDuplicate(replaced, modelId);
      return;
    }
    if (state.status !== 'running' || (waiting && !owned?.engineReference)) return;
    await cancelDuplicate(reference, modelId);
  }

  async function cancelDuplicate(reference: string, modelId: string): Promise<void> {
    try {
      await engine.cancel?.(reference);
      logger.warn({ modelId, reference }, 'cancelled a duplicate training');
    } catch (error) {
      logger.error(
        { err: error, modelId, reference },
        'a duplicate training could not be cancelled',
      );
    }
  }

  async function takeNews(model: ModelRow, state: TrainingState): Promise<void> {
    if (state.status !== 'running') return finish(model.id, state);
    const progress = state.progress === undefined ? model.progress : Math.round(state.progress);
    const updated = await updateModel(db, model.id, { progress, lastNewsAt: new Date() });
    if (updated && progress !== model.progress) await deps.publishModel(updated);
  }

  async function scheduleCheck(modelId: string): Promise<void> {
    await queue.send(
      checkTrainingJob,
      { modelId },
      { startAfterSeconds: deps.pollSeconds, singletonKey: `check:${modelId}` },
    );
  }

  function timedOut(model: ModelRow): boolean {
    const started = model.trainingStartedAt ?? model.createdAt;
    return Date.now() - started.getTime() > deps.timeoutMinutes * 60_000;
  }

  return {
    /** The start-training job: zip, featured image, engine start. */
    async start(modelId: string, attempt: { lastAttempt: boolean }): Promise<void> {
      const model = await findModelById(db, modelId);
      if (!model || model.status !== 'pending') return;
      if (model.engineReference) return scheduleCheck(modelId);
      const photos = (await listModelPhotos(db, modelId)).filter((p) => p.status === 'passed');
      if (photos.length < photoRules.min) return fail(modelId, messages.training.notEnoughImages);
      try {
        const zipKey =
          model.zipKey ?? userStorageKey(model.userId, 'image_zips', `${Date.now()}_images.zip`);
        if (!model.zipKey)
          await storage.put(
            zipKey,
            zipStoredFiles(
              storage,
              photos.map((photo, index) => ({
                name: `image_${index + 1}.jpg`,
                key: photo.storageKey,
              })),
            ),
            'application/zip',
          );
        const featuredImageKey =
          model.featuredImageKey ?? (await storeFeaturedImage(storage, model, photos));
        const started = await updateModel(db, modelId, {
          status: 'training',
          zipKey,
          featuredImageKey,
          progress: null,
          trainingStartedAt: new Date(),
          lastNewsAt: new Date(),
        });
        if (started) await deps.publishModel(started);
        // Local storage signs paths on this site; an engine elsewhere needs the whole address.
        const zipUrl = new URL(
          await storage.signedUrl(zipKey, { expiresIn: storageRules.trainingZipUrlTtlSeconds }),
          deps.publicUrl,
        ).toString();
        const result = await engine.start({
          modelId,
          userId: model.userId,
          zipUrl,
          zipKey,
          triggerWord: model.triggerWord,
          steps: training.steps,
          gender: model.gender as Gender,
          // The model's id rides along, so news of a training we lost track of finds its model.
          webhookUrl:
            engine.name === 'local'
              ? null
              : `${deps.publicUrl}/api/webhooks/training/${engine.name}?model=${encodeURIComponent(modelId)}`,
          onProgress: async (percent) => {
            const current = await findModelById(db, modelId);
            if (current?.status === 'training')
              await takeNews(current, { status: 'running', progress: percent });
          },
        });
        const withReference = await updateModel(db, modelId, {
          engineReference: result.reference,
          lastNewsAt: new Date(),
        });
        if (result.state && withReference) await takeNews(withReference, result.state);
        else await scheduleCheck(modelId);
      } catch (error) {
        const transient = !(error instanceof EngineError) || error.transient;
        logger.error({ err: error, modelId }, 'training could not start');
        metrics.engineErrors.inc({
          engine: engine.name,
          operation: 'train',
          kind: transient ? 'transient' : 'final',
        });
        // Put back to pending so the retry starts again from a clean state.
        if (transient && !attempt.lastAttempt) {
          await updateModel(db, modelId, { status: 'pending' });
          throw error;
        }
        await fail(modelId, messages.training.startFailed);
      }
    },

    /** The check-training job: a poll of the engine for a training with no news. */
    async check(modelId: string): Promise<void> {
      const model = await findModelById(db, modelId);
      if (!model || model.status !== 'training' || !model.engineReference) return;
      if (timedOut(model)) return fail(modelId, messages.training.timedOut);
      try {
        await takeNews(model, await engine.status(model.engineReference));
      } catch (error) {
        logger.warn({ err: error, modelId }, 'training status could not be read; will ask again');
      }
      const after = await findModelById(db, modelId);
      if (after?.status === 'training') await scheduleCheck(modelId);
    },

    /** A verified webhook's news about the training with this engine reference. */
    async webhook(
      reference: string,
      state: TrainingState,
      claimedModelId?: string,
    ): Promise<boolean> {
      const model = await findModelByReference(db, engine.name, reference);
      if (!model) {
        if (claimedModelId && modelIdPattern.test(claimedModelId))
          await settleUntracked(reference, state, claimedModelId);
        return false;
      }
      if (model.status === 'training') await takeNews(model, state);
      return true;
    },
  };
}

export type Training = ReturnType<typeof createTraining>;

/** The model's picture on cards: a square crop around the clearest face of its photos. */
async function storeFeaturedImage(
  storage: Storage,
  model: ModelRow,
  photos: PhotoRow[],
): Promise<string | null> {
  const best = photos
    .filter((photo): photo is PhotoRow & { face: PhotoFace } => photo.face !== null)
    .sort((a, b) => b.face.score * b.face.sharpness - a.face.score * a.face.sharpness)[0];
  if (!best) return null;
  // Face boxes are measured on the stored photo, whose size the row records.
  const { box } = best.face;
  const side = Math.round(Math.min(Math.max(box.width, box.height) * 2.2, best.width, best.height));
  const clamp = (value: number, max: number) => Math.round(Math.min(Math.max(value, 0), max));
  const region = {
    left: clamp(box.x + box.width / 2 - side / 2, best.width - side),
    top: clamp(box.y + box.height / 2 - side / 2, best.height - side),
    width: side,
    height: side,
  };
  const featured = await sharp(await storage.read(best.storageKey))
    .extract(region)
    .resize(512, 512)
    .webp({ quality: 82 })
    .toBuffer();
  const key = userStorageKey(model.userId, 'models', model.id, 'featured.webp');
  await storage.put(key, featured, 'image/webp');
  return key;
}
