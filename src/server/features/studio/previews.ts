import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { studioEvents, type ModelPreview } from '../../../common/api/studio.ts';
import type { Gender } from '../../../common/product/training.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
} from '../../adapters/engine/generation-engine.ts';
import type { PresetScene } from '../../adapters/engine/studio/scene.ts';
import { EngineError } from '../../adapters/engine/training-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import { classifyNsfw } from '../../images/analysis.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import type { Costs } from '../costs/service.ts';
import type { EventBus } from '../events/event-bus.ts';
import { makePreviewsJob } from './jobs.ts';
import {
  endPreview,
  findModelById,
  insertPreviews,
  listPreviewsOfModel,
  listPreviewsOfModels,
  type ModelRow,
  type PhotoRow,
  type PreviewRow,
} from './repository.ts';

/**
 * Training previews (decision 039): when a model's training starts, four pictures of the user in
 * four styles, made from their validated photos by the generation engine's `preview` (a zero-shot
 * identity model; offline, the local compositor), so the dashboard shows something of them within
 * a minute instead of a 15-30 minute wait. Free for the user (no credit is spent or refunded: the
 * operator pays the engine), checked by the NSFW classifier like every engine output, labelled as
 * previews, and kept with the model.
 */

export const previewRules = {
  /** Previews per training, each of another category's first preset (catalog order). */
  count: 4,
  /**
   * How long a training's photos are kept for previews still being made when the training ends
   * first (the local engine trains in seconds): their deletion waits this long.
   */
  photoGraceSeconds: 300,
  /** A preview still "being made" after this long (its job lost) is no longer shown. */
  shownWhileMakingMinutes: 10,
} as const;

/** A preset as previews use it: the catalog's narrow view (catalog service `enginePresets`). */
export interface PreviewPreset {
  id: string;
  categoryId: string;
  displayName: string;
  /** `{trigger}` stands for the person. */
  prompt: string;
  scene: PresetScene | null;
}

export interface PreviewsDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  engine: Pick<GenerationEngine, 'name' | 'preview'>;
  sources: {
    /** Visible presets in catalog order (categories in order, then their presets). */
    presets(): Promise<PreviewPreset[]>;
    /** Any preset by id, visible or not (a queued preview still finds one hidden since). */
    preset(id: string): Promise<PreviewPreset | undefined>;
  };
  /** TRAINING_PREVIEWS: off, no previews are made. */
  enabled: boolean;
  /** What the operator paid the provider for each preview (decision 037). */
  costs: Pick<Costs, 'record'>;
  nsfwThreshold: number;
  publicUrl: string;
  logger: FastifyBaseLogger;
}

/** The first preset of each of the first `count` categories, in catalog order. */
export function choosePreviewPresets(presets: PreviewPreset[], count: number): PreviewPreset[] {
  const chosen: PreviewPreset[] = [];
  for (const preset of presets) {
    if (chosen.length === count) break;
    if (!chosen.some((other) => other.categoryId === preset.categoryId)) chosen.push(preset);
  }
  return chosen;
}

/** The person as a zero-shot model's prompt names them (there is no trigger word). */
const subjects: Record<Gender, string> = {
  man: 'the man',
  woman: 'the woman',
  other: 'the person',
};

/** The clearest faces first, as the featured image is chosen. */
function bestFirst(photos: PhotoRow[]): PhotoRow[] {
  const quality = (photo: PhotoRow) => (photo.face ? photo.face.score * photo.face.sharpness : 0);
  return [...photos].sort((a, b) => quality(b) - quality(a));
}

export function createTrainingPreviews(deps: PreviewsDeps) {
  const { db, storage, queue, events, engine, sources, logger } = deps;

  async function publish(row: PreviewRow): Promise<void> {
    await events
      .publish(row.userId, {
        type: studioEvents.previewUpdated,
        data: { modelId: row.userModelId, previewId: row.id, status: row.status },
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'preview event not published'));
  }

  /** Stores the picture and its small copy under the model's folder (deleted with it). */
  async function store(row: PreviewRow, bytes: Buffer) {
    const { data, info } = await sharp(bytes, { limitInputPixels: 40_000_000, failOn: 'error' })
      .rotate()
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize({ width: 480, withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer();
    const folder = [row.userId, 'models', row.userModelId, 'previews'] as const;
    const imageKey = userStorageKey(...folder, `${row.id}.jpg`);
    const thumbnailKey = userStorageKey(...folder, `${row.id}-thumb.webp`);
    await storage.put(imageKey, data, 'image/jpeg');
    await storage.put(thumbnailKey, thumbnail, 'image/webp');
    return { imageKey, thumbnailKey, width: info.width, height: info.height };
  }

  /** Ends the preview once with what the engine made (or why not), and tells its owner. */
  async function settle(row: PreviewRow, outcome: GenerationOutcome): Promise<void> {
    // The provider made a picture (or flagged one): the operator pays for the call.
    if (outcome.status !== 'failed' && outcome.reference)
      await deps.costs.record({
        kind: 'preview',
        engine: deps.engine.name,
        reference: row.id,
        callId: outcome.reference,
      });
    if (outcome.status === 'succeeded') {
      // Every engine output passes our own check; a flagged preview is never stored or shown.
      const { flagged, scores } = await classifyNsfw(outcome.image.bytes, deps.nsfwThreshold);
      if (flagged) {
        logger.warn({ previewId: row.id, scores }, 'the NSFW check blocked a training preview');
        outcome = { status: 'blocked', reference: outcome.reference };
      }
    }
    if (outcome.status === 'failed')
      logger.warn({ previewId: row.id, error: outcome.error }, 'a training preview failed');
    const stored = outcome.status === 'succeeded' ? await store(row, outcome.image.bytes) : null;
    const ended = await endPreview(db, row.id, {
      status: stored ? 'complete' : outcome.status,
      ...stored,
    });
    if (!ended && stored) {
      // The model was deleted meanwhile (its folder with it): these files came after.
      for (const key of [stored.imageKey, stored.thumbnailKey])
        await storage.delete(key).catch(() => {});
    }
    if (ended) await publish(ended);
  }

  async function makeOne(
    model: ModelRow,
    row: PreviewRow,
    photos: { key: string; url: string }[],
    attempt: { lastAttempt: boolean; signal: AbortSignal },
  ): Promise<void> {
    const preset = await sources.preset(row.presetId);
    if (!preset || !engine.preview)
      return settle(row, { status: 'failed', error: 'preset or engine gone', reference: null });
    let outcome: GenerationOutcome;
    try {
      outcome = await engine.preview(
        {
          previewId: row.id,
          userId: model.userId,
          gender: model.gender as Gender,
          photos,
          prompt: preset.prompt.replaceAll('{trigger}', subjects[model.gender as Gender]),
          preset: { id: preset.id, scene: preset.scene },
        },
        attempt.signal,
      );
    } catch (error) {
      const transient = !(error instanceof EngineError) || error.transient;
      // The job is retried; previews already made are kept, the others made then.
      if (transient && !attempt.lastAttempt) throw error;
      logger.error({ err: error, previewId: row.id }, 'a training preview could not be made');
      outcome = { status: 'failed', error: String(error), reference: null };
    }
    await settle(row, outcome);
  }

  return {
    /** Whether this process makes previews at all (the setting, and an engine that can). */
    get enabled(): boolean {
      return deps.enabled && engine.preview !== undefined;
    },

    /**
     * The presets a new model's previews will show (none when off): read before the model's
     * transaction, which `plan` then joins (the catalog reads outside it).
     */
    async choose(): Promise<PreviewPreset[]> {
      if (!this.enabled) return [];
      return choosePreviewPresets(await sources.presets(), previewRules.count);
    },

    /**
     * In the model-creation transaction: the previews (being made) and their job, so they exist
     * exactly when the training does. Nothing without presets to show.
     */
    async plan(
      tx: Executor,
      model: ModelRow,
      photos: PhotoRow[],
      presets: PreviewPreset[],
    ): Promise<void> {
      if (presets.length === 0) return;
      await insertPreviews(
        tx,
        presets.map((preset, position) => ({
          id: randomUUID(),
          userId: model.userId,
          userModelId: model.id,
          presetId: preset.id,
          presetName: preset.displayName,
          position,
          engine: engine.name,
        })),
      );
      const photoKeys = bestFirst(photos.filter((photo) => photo.status === 'passed')).map(
        (photo) => photo.storageKey,
      );
      await queue.send(makePreviewsJob, { modelId: model.id, photoKeys }, { tx });
    },

    /** The make-previews job: the model's previews still being made, one after the other. */
    async make(
      modelId: string,
      photoKeys: string[],
      attempt: { lastAttempt: boolean; signal: AbortSignal },
    ): Promise<void> {
      const model = await findModelById(db, modelId);
      if (!model) return;
      const waiting = (await listPreviewsOfModel(db, modelId)).filter(
        (row) => row.status === 'processing',
      );
      if (waiting.length === 0) return;
      const photos = await Promise.all(
        photoKeys.map(async (key) => ({
          key,
          // Local storage signs paths on this site; an engine elsewhere needs the whole address.
          url: new URL(await storage.signedUrl(key), deps.publicUrl).toString(),
        })),
      );
      for (const row of waiting) await makeOne(model, row, photos, attempt);
    },

    /** The previews shown for these models of the user (being made or made), by model id. */
    async forModels(
      tx: Executor,
      userId: string,
      modelIds: string[],
    ): Promise<Map<string, ModelPreview[]>> {
      const rows = await listPreviewsOfModels(tx, userId, modelIds);
      const since = Date.now() - previewRules.shownWhileMakingMinutes * 60_000;
      const byModel = new Map<string, ModelPreview[]>();
      for (const row of rows) {
        const shown =
          row.status === 'complete' ||
          (row.status === 'processing' && row.createdAt.getTime() > since);
        if (!shown) continue;
        const list = byModel.get(row.userModelId) ?? [];
        list.push(await toPreview(row));
        byModel.set(row.userModelId, list);
      }
      return byModel;
    },
  };

  async function toPreview(row: PreviewRow): Promise<ModelPreview> {
    const complete = row.status === 'complete' && row.imageKey && row.thumbnailKey;
    return {
      id: row.id,
      presetId: row.presetId,
      presetName: row.presetName,
      status: complete ? 'complete' : 'processing',
      imageUrl: complete ? await storage.signedUrl(row.imageKey!) : null,
      thumbnailUrl: complete ? await storage.signedUrl(row.thumbnailKey!) : null,
      width: complete ? row.width : null,
      height: complete ? row.height : null,
    };
  }
}

export type TrainingPreviews = ReturnType<typeof createTrainingPreviews>;
