import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { emailMessages } from '../../../common/messages/email.ts';
import { trainingMessages } from '../../../common/messages/models.ts';
import { storage as storageRules } from '../../../common/product/limits.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { routes } from '../../../common/product/routes.ts';
import { training, type Gender } from '../../../common/product/training.ts';
import {
  EngineError,
  type TrainingEngine,
  type TrainingState,
} from '../../adapters/engine/training-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { PhotoFace } from '../../db/schema/studio.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { meanDescriptor } from '../../images/analysis.ts';
import { primaryFace } from '../../images/photo-checks.ts';
import { createEngineJobs, type Settlement } from '../../jobs/engine-job.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { zipStoredFiles } from '../../lib/zip-stream.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import type { Credits } from '../billing/credits.ts';
import type { Costs } from '../costs/service.ts';
import { sendEmailJob } from '../email/jobs.ts';
import { checkTrainingJob, deleteFilesJob, startTrainingJob } from './jobs.ts';
import {
  findDraft,
  findModelById,
  findModelByReference,
  listModelPhotos,
  lockModelById,
  syncTrainingInProgress,
  staleTrainingModels,
  updateModel,
  updateModelIn,
  userEmailOf,
  deletePhotosOfModel,
  countUnfinishedPreviews,
  type ModelRow,
  type PhotoRow,
} from './repository.ts';
import { previewRules } from './previews.ts';
import type { FaceAnalyzer } from './validation.ts';

/** Publishes a model's change to its owner (after the change committed). */
export type PublishModel = (model: ModelRow) => Promise<void>;

export interface TrainingDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  engine: TrainingEngine;
  faces: Pick<FaceAnalyzer, 'analyze'>;
  publishModel: PublishModel;
  /** Transactions with work after their commit (events); billing's balance events too. */
  unitOfWork: UnitOfWork;
  credits: Pick<Credits, 'refund'>;
  /** What the operator paid the provider for each training it accepted. */
  costs: Pick<Costs, 'record'>;
  publicUrl: string;
  pollSeconds: number;
  timeoutMinutes: number;
  logger: FastifyBaseLogger;
}

/**
 * How many times a start follows an engine's Retry-After (a 429) with a new job at the time it
 * names; past that, a 429 is retried like any transient error, then fails (and refunds).
 */
const maxStartDeferrals = startTrainingJob.retry.retryLimit;

/** Model ids are UUIDs; a webhook URL's `model` is read only when it looks like one. */
const modelIdPattern = /^[0-9a-f-]{36}$/i;

/** What the engine says of a training that has ended. */
type EndedState = TrainingState & { status: 'succeeded' | 'failed' };

/** The reference of everything a model's training spends (and its refund). */
export const trainingReference = (modelId: string) => `model:${modelId}`;

/**
 * A model's training from start to end: zip the photos, start the engine, take its news (from a
 * webhook or a poll), and finish exactly once: complete, or failed with a reason and a refund.
 */
export function createTraining(deps: TrainingDeps) {
  const { db, storage, queue, engine, faces, logger } = deps;

  const jobs = createEngineJobs<ModelRow, EndedState, TrainingState>(deps, {
    logAs: { name: 'training', idField: 'modelId' },
    engine: engine.name,
    lock: lockModelById,
    isOpen: inProgress,
    write: async (tx, model, state) => {
      const now = new Date();
      const updated =
        state.status === 'succeeded'
          ? await updateModel(tx, model.id, {
              status: 'complete',
              weights: state.weights,
              progress: 100,
              completedAt: now,
              lastNewsAt: now,
              failureReason: null,
            })
          : await updateModel(tx, model.id, {
              status: 'failed',
              failureReason: state.error,
              progress: null,
              completedAt: now,
              lastNewsAt: now,
            });
      return updated!;
    },
    refunds: (state) => state.status === 'failed',
    refundReference: trainingReference,
    publish: deps.publishModel,
    async alongside(tx, model) {
      await syncTrainingInProgress(tx, model.userId);
      await sendOutcomeEmail(tx, model);
      await scheduleTrainingFileDeletion(tx, model);
    },
    stale: staleTrainingModels,
    staleAfterMinutes: deps.timeoutMinutes,
    // Failed first (`giveUp`), so the engine's news of the cancel finds it ended with our reason;
    // no GPU time is paid for a result nobody will take.
    cancel: async (model) => {
      if (model.engineReference && model.engine === engine.name)
        await cancelAtEngine(
          model.engineReference,
          model.id,
          'cancelled a training that timed out',
        );
    },
    reconciliation: {
      // A training the engine has (its webhook may have been lost) is asked about.
      ask: async (model) =>
        model.engineReference && model.engine === engine.name
          ? engine.status(model.engineReference)
          : undefined,
      take: takeNews,
      // No news for the timeout, whatever left it so (a crashed worker, a lost job): given up.
      async hasTime(model) {
        const current = await findModelById(db, model.id);
        return current !== undefined && inProgress(current) && !timedOut(current);
      },
      givenUp: () => ({ status: 'failed', error: trainingMessages.timedOut }),
    },
  });

  async function sendOutcomeEmail(tx: Executor, model: ModelRow): Promise<void> {
    const to = await userEmailOf(tx, model.userId);
    if (!to) return;
    const url = `${deps.publicUrl}${model.status === 'complete' ? routes.dashboard : routes.createModel}`;
    const mail =
      model.status === 'complete'
        ? {
            subject: emailMessages.trainingCompleteSubject(model.name),
            text: emailMessages.trainingCompleteBody(model.name, url),
          }
        : {
            subject: emailMessages.trainingFailedSubject(model.name),
            text: emailMessages.trainingFailedBody(
              model.name,
              model.failureReason ?? trainingMessages.startFailed,
              url,
            ),
          };
    await queue.send(
      sendEmailJob,
      { to, subject: mail.subject, text: `${mail.text}\n\n${emailMessages.footer}` },
      { tx },
    );
  }

  /**
   * Training photos and the zip go once training ended, unless the user keeps them; their files
   * wait a little for training previews still being made from them (decision 039).
   */
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
    const previewsWaiting = (await countUnfinishedPreviews(tx, model.id)) > 0;
    if (keys.length > 0)
      await queue.send(
        deleteFilesJob,
        { keys, prefixes: [] },
        previewsWaiting ? { tx, startAfterSeconds: previewRules.photoGraceSeconds } : { tx },
      );
  }

  /** Ends a training failed, refunded; later news (webhook replays, polls) changes nothing. */
  async function fail(modelId: string, reason: string): Promise<ModelRow | undefined> {
    return jobs.end(modelId, { status: 'failed', error: reason });
  }

  /** Stops a training at the engine; one that cannot be told is logged (it has ended here). */
  async function cancelAtEngine(reference: string, modelId: string, why: string): Promise<void> {
    if (!engine.cancel) return;
    try {
      await engine.cancel(reference);
      logger.warn({ modelId, reference }, why);
    } catch (error) {
      logger.error({ err: error, modelId, reference }, `${why}: the engine could not be told`);
    }
  }

  /**
   * A start that finds its model deleted or ended meanwhile: the training it started is
   * cancelled and the files it wrote go (a deletion may have run before they existed).
   */
  async function abandon(model: ModelRow, left: { zipKey: string; reference?: string }) {
    if (left.reference)
      await cancelAtEngine(left.reference, model.id, 'cancelled the training of a model gone');
    const current = await findModelById(db, model.id);
    const keys = current?.zipKey === left.zipKey ? [] : [left.zipKey];
    const prefixes = current ? [] : [`${userStorageKey(model.userId, 'models', model.id)}/`];
    await queue.send(deleteFilesJob, { keys, prefixes });
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
      if (replaced) await cancelAtEngine(replaced, modelId, 'cancelled a duplicate training');
      return;
    }
    if (state.status !== 'running' || (waiting && !owned?.engineReference)) return;
    await cancelAtEngine(reference, modelId, 'cancelled a duplicate training');
  }

  /** The engine's news of a training: its ending, or progress that keeps it open. */
  async function takeNews(model: ModelRow, state: TrainingState): Promise<Settlement> {
    if (state.status !== 'running')
      return (await jobs.end(model.id, state)) ? 'ended' : 'already ended';
    const progress = state.progress === undefined ? model.progress : Math.round(state.progress);
    // Only a change is news: an engine answering "still running" again does not hold off the
    // timeout, a training that keeps moving is never cut short by it.
    if (progress === model.progress) return 'open';
    const updated = await updateModelIn(db, model.id, ['training'], {
      progress,
      lastNewsAt: new Date(),
    });
    if (updated) await deps.publishModel(updated);
    return 'open';
  }

  async function scheduleCheck(modelId: string): Promise<void> {
    await queue.send(
      checkTrainingJob,
      { modelId },
      { startAfterSeconds: deps.pollSeconds, singletonKey: `check:${modelId}` },
    );
  }

  /**
   * The model's grey profile: the mean grey descriptor of its photos' faces, what its
   * black-and-white and toned pictures are scored against (decision 033). Measured here because
   * the start of training is the one step every engine runs that reads the photos themselves (for
   * the zip), it runs as a job (model creation is a request, and would wait about a quarter of a
   * second a photo), and the photos may be deleted once training ends. Null when it cannot be
   * measured: those pictures are then scored in colour, and the training goes on.
   */
  async function greyProfileOf(modelId: string, photos: PhotoRow[]): Promise<number[] | null> {
    try {
      const descriptors: number[][] = [];
      for (const photo of photos) {
        const face = primaryFace(
          await faces.analyze(await storage.read(photo.storageKey), { grey: true }),
        );
        if (face?.grey) descriptors.push(face.grey.embedding);
      }
      return meanDescriptor(descriptors);
    } catch (error) {
      logger.warn({ err: error, modelId }, 'the grey face profile could not be measured');
      return null;
    }
  }

  /** No news for the timeout, counted from the last news, else the start, else the creation. */
  function timedOut(model: ModelRow): boolean {
    const since = model.lastNewsAt ?? model.trainingStartedAt ?? model.createdAt;
    return Date.now() - since.getTime() > deps.timeoutMinutes * 60_000;
  }

  return {
    /** The start-training job: zip, featured image, engine start. */
    async start(
      modelId: string,
      attempt: { lastAttempt: boolean; deferrals: number },
    ): Promise<void> {
      const model = await findModelById(db, modelId);
      if (!model || model.status !== 'pending') return;
      if (model.engineReference) return scheduleCheck(modelId);
      const photos = (await listModelPhotos(db, modelId)).filter((p) => p.status === 'passed');
      if (photos.length === 0)
        return void (await fail(modelId, trainingMessages.noValidatedImages));
      if (photos.length < photoRules.min)
        return void (await fail(modelId, trainingMessages.notEnoughImages));
      const zipKey =
        model.zipKey ?? userStorageKey(model.userId, 'image_zips', `${Date.now()}_images.zip`);
      // What the user is told if this step keeps failing until the last attempt.
      let reason: string = trainingMessages.zipUploadFailed;
      try {
        // Recorded before the file exists, so a deletion of the model meanwhile removes it too.
        if (!model.zipKey && !(await updateModelIn(db, modelId, ['pending'], { zipKey }))) return;
        // Built again on each attempt: a failed upload may have left part of it.
        await storeZip(storage, zipKey, photos);
        reason = trainingMessages.prepareFailed;
        const featuredImageKey =
          model.featuredImageKey ?? (await storeFeaturedImage(storage, model, photos));
        const faceEmbeddingGrey = model.faceEmbeddingGrey ?? (await greyProfileOf(modelId, photos));
        const started = await updateModelIn(db, modelId, ['pending'], {
          status: 'training',
          zipKey,
          featuredImageKey,
          faceEmbeddingGrey,
          progress: null,
          trainingStartedAt: new Date(),
          lastNewsAt: new Date(),
        });
        if (!started) return abandon(model, { zipKey });
        await deps.publishModel(started);
        reason = trainingMessages.startFailed;
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
        if (result.reference)
          await deps.costs.record({
            kind: 'training',
            engine: engine.name,
            reference: modelId,
            callId: result.reference,
          });
        const withReference = await updateModelIn(db, modelId, ['training'], {
          engineReference: result.reference,
          lastNewsAt: new Date(),
        });
        if (!withReference) return abandon(model, { zipKey, reference: result.reference });
        if (result.state) await takeNews(withReference, result.state);
        else await scheduleCheck(modelId);
      } catch (error) {
        logger.error({ err: error, modelId }, 'training could not start');
        const zipping = error instanceof ZippingError;
        const retryAfter = error instanceof EngineError ? error.retryAfterSeconds : undefined;
        // Put back to pending so the next try starts again from a clean state.
        const backToPending = () => updateModelIn(db, modelId, ['training'], { status: 'pending' });
        await jobs.attemptFailed(error, {
          operation: 'train',
          isLastAttempt: attempt.lastAttempt,
          // Reading a photo into the zip failed: retrying will not help.
          final: zipping,
          // The engine said when to come back: a new start job then, without using up retries.
          async defer() {
            if (retryAfter === undefined || attempt.deferrals >= maxStartDeferrals) return false;
            await backToPending();
            await queue.send(
              startTrainingJob,
              { modelId, deferrals: attempt.deferrals + 1 },
              { startAfterSeconds: Math.max(1, Math.ceil(retryAfter)) },
            );
            return true;
          },
          beforeRetry: backToPending,
          end: () => fail(modelId, zipping ? trainingMessages.zippingFailed : reason),
        });
      }
    },

    /** The check-training job: a poll of the engine for a training with no news. */
    async check(modelId: string): Promise<void> {
      let going: boolean;
      try {
        const model = await findModelById(db, modelId);
        // A training the engine has is asked about (a lost webhook); one without news for the
        // timeout, whatever left it so, is given up.
        going = model !== undefined && (await jobs.reconcile(model)) === 'open';
      } catch (error) {
        // A database hiccup must not end the chain of polls: ask again later (if even sending
        // that fails, the job is retried; the sweep is the last resort).
        logger.warn({ err: error, modelId }, 'training could not be checked; will ask again');
        going = true;
      }
      if (going) await scheduleCheck(modelId);
    },

    /**
     * The periodic sweep: every training without news for the timeout is settled from the
     * engine's answer or failed, cancelled at the engine and refunded once, even one whose start
     * died before the engine's reference was saved.
     */
    sweep: jobs.sweep,

    /** A model being deleted: its training at the engine, if still running there, is stopped. */
    async cancel(model: ModelRow): Promise<void> {
      if (inProgress(model) && model.engineReference && model.engine === engine.name)
        await cancelAtEngine(
          model.engineReference,
          model.id,
          "cancelled a deleted model's training",
        );
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

const inProgress = (model: ModelRow) => model.status === 'pending' || model.status === 'training';

/** Reading a training photo into the zip failed (not the upload): retrying will not help. */
class ZippingError extends Error {
  override readonly name = 'ZippingError';
}

/** Stores the zip of the photos (`image_N.jpg`), streamed; tells zipping from upload failures. */
async function storeZip(storage: Storage, zipKey: string, photos: PhotoRow[]): Promise<void> {
  let readFailure: unknown;
  const reading = {
    read: (key: string) =>
      storage.read(key).catch((error: unknown) => {
        readFailure = error;
        throw error;
      }),
  };
  const zip = zipStoredFiles(
    reading,
    photos.map((photo, index) => ({ name: `image_${index + 1}.jpg`, key: photo.storageKey })),
  );
  // The put reports the failure; it may attach its own listener only after a first read failed.
  zip.on('error', () => {});
  try {
    await storage.put(zipKey, zip, 'application/zip');
  } catch (error) {
    if (readFailure) throw new ZippingError('a photo could not be read', { cause: readFailure });
    throw error;
  }
}

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
