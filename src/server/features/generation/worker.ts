import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { metrics } from '../../observability/metrics.ts';
import sharp from 'sharp';
import { generationEvents } from '../../../common/api/generation.ts';
import { catalogMessages } from '../../../common/messages/catalog.ts';
import { generationMessages } from '../../../common/messages/generation.ts';
import { modelsMessages } from '../../../common/messages/models.ts';
import { identity } from '../../../common/product/identity.ts';
import type { Gender } from '../../../common/product/training.ts';
import { EngineError } from '../../adapters/engine/training-engine.ts';
import {
  type GenerationEngine,
  type GenerationOutcome,
  providerHdLongSide,
} from '../../adapters/engine/generation-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { classifyNsfw, profileSimilarity } from '../../images/analysis.ts';
import { countEngineError, createEngineJobs, type EndingFiles } from '../../jobs/engine-job.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import type { Credits } from '../billing/credits.ts';
import type { Costs } from '../costs/service.ts';
import type { EnginePreset } from '../catalog/service.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ModelRow } from '../studio/repository.ts';
import type { FaceAnalyzer } from '../studio/validation.ts';
import {
  countBulkOutcome,
  findGenerationById,
  lockGenerationById,
  quietGenerations,
  updateGeneration,
  type GenerationRow,
} from './repository.ts';
import { generationReference, publishBulkJobUpdated } from './service.ts';

export interface GenerationWorkerDeps {
  db: Database;
  storage: Storage;
  events: EventBus;
  engine: GenerationEngine;
  faces: FaceAnalyzer;
  sources: {
    modelById(id: string): Promise<ModelRow | undefined>;
    enginePreset(id: string): Promise<EnginePreset | undefined>;
  };
  /** Transactions with work after their commit (events, files); billing's balance events too. */
  unitOfWork: UnitOfWork;
  credits: Pick<Credits, 'refund'>;
  /** What the operator paid the provider for each picture, re-roll and upscale. */
  costs: Pick<Costs, 'record'>;
  /**
   * A generation whose job started or last heard from the engine this long ago is reconciled by
   * the sweep: collected from the provider when it has ended there, otherwise canceled, failed
   * and refunded.
   */
  staleAfterMinutes: number;
  /** Images the NSFW classifier flags at this threshold are blocked, whichever engine made them. */
  nsfwThreshold: number;
  /** Pictures made again when one does not look enough like the user (0: none). */
  likenessRerolls: number;
  /** The site's address: local storage signs paths, and an engine's upscaler needs the whole URL. */
  publicUrl: string;
  logger: FastifyBaseLogger;
}

/** How long the upscaler may take to fetch the picture from our storage (it is queued first). */
const hdSourceUrlTtlSeconds = 900;

/** How long the sweep waits for a provider to say how one job went (and to hand over its image). */
const reconcileTimeoutMs = 60_000;

/** How a generation ends; `reference`: the provider's job it ended with, when it names one. */
type Ending = { reference?: string | null } & (
  | { status: 'complete'; image?: StoredResult; likenessRefunded?: boolean; blocked?: boolean }
  | { status: 'failed'; reason: string }
);

interface StoredResult {
  imageKey: string;
  thumbnailKey: string;
  width: number;
  height: number;
  likeness: number | null;
}

/** A stored picture's files (none without one). */
function fileKeys(result: StoredResult | null): string[] {
  return result ? [result.imageKey, result.thumbnailKey] : [];
}

/** Below the re-roll threshold: the face measures as someone else's (null: not measured). */
function looksLikeSomeoneElse(likeness: number | null): boolean {
  return likeness !== null && likeness < identity.rerollBelowSimilarity;
}

/** The seed of a generation's re-roll: new for each try, the same for a retry of that try. */
export function rerollSeed(generationId: string, reroll: number): number {
  return createHash('sha256').update(`${generationId}:reroll:${reroll}`).digest().readUInt32BE(0);
}

/** The stored picture a generation holds while a re-roll is made, if it holds one. */
function heldResult(row: GenerationRow): StoredResult | null {
  if (!row.imageKey || !row.thumbnailKey || row.width === null || row.height === null) return null;
  return {
    imageKey: row.imageKey,
    thumbnailKey: row.thumbnailKey,
    width: row.width,
    height: row.height,
    likeness: row.likeness,
  };
}

/**
 * Makes the image of one generation and ends it exactly once: complete (with the stored image,
 * or blocked by the safety checker), or failed with a reason and its credit refunded. A picture
 * whose face measures as someone else's is made again (`likenessRerolls` times at most, at the
 * operator's cost); the most alike is kept, and if even that one measures as someone else's the
 * credit is refunded and the picture says so.
 */
export function createGenerationWorker(deps: GenerationWorkerDeps) {
  const { db, storage, events, engine, faces, sources, logger } = deps;
  metrics.likenessRerollThreshold.set(identity.rerollBelowSimilarity);
  metrics.likenessRerollsAllowed.set(deps.likenessRerolls);

  async function publish(row: GenerationRow) {
    await events
      .publish(row.userId, {
        type: generationEvents.generationUpdated,
        data: { generationId: row.id, status: row.status, bulkJobId: row.bulkJobId },
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'generation event not published'));
  }

  const jobs = createEngineJobs<
    GenerationRow,
    Ending,
    { model: ModelRow; outcome: GenerationOutcome }
  >(deps, {
    logAs: { name: 'generation', idField: 'generationId' },
    engine: engine.name,
    lock: lockGenerationById,
    isOpen: (row) => row.status === 'processing',
    write: async (tx, row, ending) =>
      (await updateGeneration(tx, row.id, {
        status: ending.status,
        completedAt: new Date(),
        engineReference: ending.reference ?? row.engineReference,
        ...(ending.status === 'failed'
          ? { failureReason: ending.reason }
          : {
              hasNsfwContent: ending.blocked ?? false,
              likenessRefunded: ending.likenessRefunded ?? false,
              ...(ending.image ?? {}),
            }),
      }))!,
    refunds: (ending) => ending.status === 'failed' || ending.likenessRefunded === true,
    refundReference: generationReference,
    publish,
    async alongside(tx, ended, ending, afterCommit) {
      const job = ended.bulkJobId
        ? await countBulkOutcome(
            tx,
            ended.bulkJobId,
            ending.status === 'failed' ? 'failed' : 'completed',
          )
        : undefined;
      afterCommit(async () => {
        if (ending.status === 'complete' && ending.likenessRefunded)
          metrics.likenessRefunds.inc({ engine: engine.name });
        if (job) await publishBulkJobUpdated(events, logger, job);
      });
    },
    stale: quietGenerations,
    staleAfterMinutes: deps.staleAfterMinutes,
    // Still billing at the provider, or may be: no one will collect it now.
    cancel: async (row) => {
      if (row.engineReference) await engine.jobs?.cancel(row.engineReference);
    },
    reconciliation: {
      /** A finished provider job of a generation whose model is still there; the sweep collects it. */
      async ask(row) {
        if (!row.engineReference || !engine.jobs) return undefined;
        const model = await sources.modelById(row.userModelId);
        if (!model) return undefined;
        const outcome = await engine.jobs.check(
          row.engineReference,
          AbortSignal.timeout(reconcileTimeoutMs),
        );
        return outcome && { model, outcome };
      },
      // The sweep makes no new try: a picture below the bar ends as it is.
      take: async (row, { model, outcome }) =>
        (await conclude(row, model, outcome, AbortSignal.timeout(reconcileTimeoutMs), false)) ===
        true
          ? 'ended'
          : 'already ended',
      givenUp: (row) => givenUp(row, generationMessages.timedOut),
    },
  });

  async function end(generationId: string, ending: Ending, files?: EndingFiles): Promise<boolean> {
    return (await jobs.end(generationId, ending, files)) !== undefined;
  }

  /**
   * Stores the image (JPEG) and a preview (WebP) under the user's folder, and scores the face.
   * Each try of a generation has its own files (a re-roll's beside the picture held).
   */
  async function store(row: GenerationRow, model: ModelRow, bytes: Buffer): Promise<StoredResult> {
    const image = sharp(bytes, { limitInputPixels: 40_000_000, failOn: 'error' }).rotate();
    const { data, info } = await image.jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data)
      .resize({ width: 480, withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer();
    const name = row.likenessRerolls === 0 ? row.id : `${row.id}-${row.likenessRerolls}`;
    const imageKey = userStorageKey(row.userId, 'generations', `${name}.jpg`);
    const thumbnailKey = userStorageKey(row.userId, 'generations', `${name}-thumb.webp`);
    await storage.put(imageKey, data, 'image/jpeg');
    await storage.put(thumbnailKey, thumbnail, 'image/webp');
    return {
      imageKey,
      thumbnailKey,
      width: info.width,
      height: info.height,
      likeness: await likenessOf(data, model),
    };
  }

  /**
   * How much the image's face looks like the model's training faces (null when not measurable):
   * in grey when the picture has no colour and the model a grey profile (`profileSimilarity`).
   */
  async function likenessOf(bytes: Buffer, model: ModelRow): Promise<number | null> {
    if (!model.faceEmbedding) return null;
    const profile = { embedding: model.faceEmbedding, greyEmbedding: model.faceEmbeddingGrey };
    try {
      const analysis = await faces.analyze(bytes, { grey: profile.greyEmbedding !== null });
      return analysis.faces.reduce<number | null>((top, face) => {
        // Null for a model trained before decision 022 (another descriptor): likeness unknown.
        const score = profileSimilarity(face, profile);
        return score !== null && (top === null || score > top) ? score : top;
      }, null);
    } catch (error) {
      logger.warn({ err: error }, 'likeness could not be measured');
      return null;
    }
  }

  async function promptAndPreset(row: GenerationRow, model: ModelRow) {
    if (row.presetId) {
      const preset = await sources.enginePreset(row.presetId);
      if (!preset) return undefined;
      return { prompt: preset.prompt.replaceAll('{trigger}', model.triggerWord), preset };
    }
    return { prompt: `photo of ${model.triggerWord}, ${row.promptText ?? ''}`, preset: undefined };
  }

  /** Notes news of the generation's job (or, with null, that it is back in the queue). */
  async function heard(generationId: string, values: { engineReference?: string } = {}) {
    await updateGeneration(db, generationId, { heardAt: new Date(), ...values });
  }

  async function deleteFiles(result: StoredResult | null) {
    for (const key of fileKeys(result)) await storage.delete(key).catch(() => {});
  }

  /**
   * The kept picture in HD when the engine has an upscaler and it is smaller than
   * `providerHdLongSide` (decision 040): the provider enlarges it from our signed URL, and the
   * result (re-encoded JPEG) becomes the generation's image (the download), beside the original;
   * the thumbnail stays the small WebP made from the original (the list's variant). A job retried
   * after storing it finds the HD file and does not pay again. Any failure keeps the picture as
   * it is, logged and counted: HD never fails a generation or costs the user their credit.
   */
  async function inHd(
    row: GenerationRow,
    kept: StoredResult,
    signal: AbortSignal,
  ): Promise<StoredResult> {
    if (!engine.upscale || Math.max(kept.width, kept.height) >= providerHdLongSide) return kept;
    const hdKey = kept.imageKey.replace(/\.jpg$/, '-hd.jpg');
    try {
      let data: Buffer;
      if (await storage.exists(hdKey)) data = await storage.read(hdKey);
      else {
        const imageUrl = new URL(
          await storage.signedUrl(kept.imageKey, { expiresIn: hdSourceUrlTtlSeconds }),
          deps.publicUrl,
        ).toString();
        const image = await engine.upscale(
          { generationId: row.id, imageUrl, width: kept.width, height: kept.height },
          signal,
        );
        await deps.costs.record({
          kind: 'upscale',
          engine: engine.name,
          reference: row.id,
          callId: hdKey,
        });
        data = await sharp(image.bytes, { limitInputPixels: 40_000_000, failOn: 'error' })
          .rotate()
          .jpeg({ quality: 90 })
          .toBuffer();
      }
      const { width = 0, height = 0 } = await sharp(data).metadata();
      if (Math.max(width, height) <= Math.max(kept.width, kept.height))
        throw new EngineError(`the upscaler answered ${width}x${height}`, { transient: false });
      await storage.put(hdKey, data, 'image/jpeg');
      return { ...kept, imageKey: hdKey, width, height };
    } catch (error) {
      logger.warn(
        { err: error, generationId: row.id },
        'the picture was not made HD: kept as made',
      );
      countEngineError(engine.name, 'upscale', error);
      await storage.delete(hdKey).catch(() => {});
      return kept;
    }
  }

  /**
   * Ends the generation complete with `kept`, in HD when it can be (`inHd`). `kept` is `made` by
   * this attempt or held by the row; `superseded`, the row's picture it replaces, goes after the
   * commit. When the generation ended meanwhile, what this attempt wrote goes instead.
   */
  async function completeWith(
    row: GenerationRow,
    kept: StoredResult,
    how: {
      likenessRefunded: boolean;
      reference: string | null;
      signal: AbortSignal;
      made: boolean;
      superseded?: StoredResult | null;
    },
  ): Promise<boolean> {
    const shown = await inHd(row, kept, how.signal);
    // The original goes before the generation ends: a worker stopped in between leaves only the
    // HD file, which the job's retry finds and uses, never an original nobody points at.
    if (shown !== kept) await storage.delete(kept.imageKey).catch(() => {});
    return end(
      row.id,
      {
        status: 'complete',
        image: shown,
        likenessRefunded: how.likenessRefunded,
        reference: how.reference,
      },
      {
        written: how.made ? fileKeys(shown) : shown !== kept ? [shown.imageKey] : [],
        superseded: fileKeys(how.superseded ?? null),
      },
    );
  }

  /**
   * Holds `kept` (the most alike picture so far) on the generation and counts a re-roll, so the
   * next attempt of the job makes the picture again; false when the generation ended meanwhile.
   * The picture `dropped` from the row goes once that has committed.
   */
  async function holdForReroll(
    row: GenerationRow,
    kept: StoredResult,
    dropped: StoredResult | null,
  ): Promise<boolean> {
    const holding = await jobs.whileOpen(row.id, async (tx, locked, afterCommit) => {
      if (locked.likenessRerolls !== row.likenessRerolls) return false;
      await updateGeneration(tx, row.id, {
        ...kept,
        likenessRerolls: row.likenessRerolls + 1,
        engineReference: null,
        heardAt: new Date(),
      });
      afterCommit(() => deleteFiles(dropped));
      return true;
    });
    return holding === true;
  }

  /**
   * Ends the generation as the engine's outcome says, storing the image of a success; answers
   * 'reroll' when the picture is to be made again.
   */
  async function conclude(
    row: GenerationRow,
    model: ModelRow,
    outcome: GenerationOutcome,
    signal: AbortSignal,
    mayReroll = true,
  ): Promise<boolean | 'reroll'> {
    // The provider made a picture (or flagged one): the operator pays for the call.
    if (outcome.status !== 'failed' && outcome.reference)
      await deps.costs.record({
        kind: row.likenessRerolls === 0 ? 'picture' : 'reroll',
        engine: engine.name,
        reference: row.id,
        callId: outcome.reference,
      });
    if (outcome.status === 'succeeded') {
      // Our own check on every engine's image: a flagged one ends as a provider's flag does.
      const { flagged, scores } = await classifyNsfw(outcome.image.bytes, deps.nsfwThreshold);
      if (flagged) {
        logger.warn({ generationId: row.id, scores }, 'the NSFW check blocked a generated image');
        outcome = { status: 'blocked', reference: outcome.reference };
      }
    }
    const held = heldResult(row);
    if (outcome.status !== 'succeeded' && held) {
      // A re-roll that failed or was blocked: the user keeps the picture held, below the bar.
      logger.warn({ generationId: row.id, outcome: outcome.status }, 'a likeness re-roll failed');
      return completeWith(row, held, {
        likenessRefunded: true,
        reference: outcome.reference,
        signal,
        made: false,
      });
    }
    if (outcome.status === 'failed') {
      if (!outcome.reason)
        logger.warn({ generationId: row.id, error: outcome.error }, 'engine failed the generation');
      return end(row.id, {
        status: 'failed',
        reason: outcome.reason ?? generationMessages.failed,
        reference: outcome.reference,
      });
    }
    if (outcome.status === 'blocked')
      return end(row.id, { status: 'complete', blocked: true, reference: outcome.reference });
    const stored = await store(row, model, outcome.image.bytes);
    metrics.likenessChecks.inc({
      engine: engine.name,
      attempt: row.likenessRerolls === 0 ? 'first' : 'reroll',
      result:
        stored.likeness === null
          ? 'unmeasured'
          : looksLikeSomeoneElse(stored.likeness)
            ? 'below'
            : 'above',
    });
    const kept = held && (held.likeness ?? 0) >= (stored.likeness ?? 0) ? held : stored;
    // The new picture, when it is the one dropped, is no row's: it goes before anything commits,
    // so a worker stopped afterwards leaves no file behind. The held one is the row's until the
    // commit below, so it can only go after it.
    if (kept !== stored) await deleteFiles(stored);
    const dropped = kept === stored ? held : null;
    const belowBar = looksLikeSomeoneElse(kept.likeness);
    if (belowBar && mayReroll && row.likenessRerolls < deps.likenessRerolls) {
      if (!(await holdForReroll(row, kept, dropped))) {
        if (kept === stored) await deleteFiles(stored);
        return false;
      }
      logger.info(
        { generationId: row.id, likeness: kept.likeness, reroll: row.likenessRerolls + 1 },
        'the picture does not look like the user: made again',
      );
      return 'reroll';
    }
    return completeWith(row, kept, {
      likenessRefunded: belowBar,
      reference: outcome.reference,
      signal,
      made: kept === stored,
      superseded: dropped,
    });
  }

  /**
   * The ending of a generation nobody will collect: a re-roll that never came back leaves the user
   * the picture held (below the bar, refunded); otherwise it fails with `reason` and a refund.
   */
  function givenUp(row: GenerationRow, reason: string): Ending {
    const held = heldResult(row);
    return held
      ? { status: 'complete', image: held, likenessRefunded: true }
      : { status: 'failed', reason };
  }

  /** One picture of the generation, concluded; 'reroll' when it is to be made again. */
  async function makePicture(
    generationId: string,
    job: { isLastAttempt: boolean; signal: AbortSignal },
  ): Promise<boolean | 'reroll' | void> {
    const row = await findGenerationById(db, generationId);
    if (!row || row.status !== 'processing') return;
    const model = await sources.modelById(row.userModelId);
    if (!model?.weights)
      return end(generationId, { status: 'failed', reason: modelsMessages.notReady });
    const request = await promptAndPreset(row, model);
    if (!request)
      return end(generationId, { status: 'failed', reason: catalogMessages.modelNotFound });
    await heard(generationId);
    let outcome: GenerationOutcome;
    try {
      // An earlier attempt's provider job is resumed, never paid for twice.
      outcome =
        row.engineReference && engine.jobs
          ? await engine.jobs.resume(row.engineReference, job.signal)
          : await engine.generate(
              {
                generationId,
                userId: row.userId,
                weights: model.weights,
                triggerWord: model.triggerWord,
                gender: model.gender as Gender,
                prompt: request.prompt,
                ...(row.likenessRerolls > 0 && {
                  seed: rerollSeed(generationId, row.likenessRerolls),
                }),
                preset: request.preset
                  ? { id: request.preset.id, scene: request.preset.scene }
                  : null,
              },
              job.signal,
              (reference) => heard(generationId, { engineReference: reference }),
            );
    } catch (error) {
      logger.warn({ err: error, generationId }, 'engine call failed');
      return jobs.attemptFailed(error, {
        operation: 'generate',
        isLastAttempt: job.isLastAttempt,
        // Back in the queue: waiting there for its retry is not "no news".
        beforeRetry: () => updateGeneration(db, generationId, { heardAt: null }),
        // No attempt is left to collect the provider's job: it is stopped there. The provider's
        // own words stay in the log; the user gets ours.
        end: () => jobs.giveUp(generationId, givenUp(row, generationMessages.failed)),
      });
    }
    return conclude(row, model, outcome, job.signal);
  }

  return {
    async generate(generationId: string, job: { isLastAttempt: boolean; signal: AbortSignal }) {
      // Each pass makes one picture; a re-roll makes the next in the same job.
      while ((await makePicture(generationId, job)) === 'reroll');
    },

    /**
     * Reconciles generations without news for too long (their worker died): each is collected
     * from the provider when its job ended there, otherwise canceled there, failed and refunded.
     */
    sweep: jobs.sweep,
  };
}
