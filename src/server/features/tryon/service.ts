import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { tryOnEvents, type TryOn } from '../../../common/api/tryon.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { costs } from '../../../common/product/credits.ts';
import { tryOn as tryOnRules } from '../../../common/product/tryon.ts';
import { EngineError } from '../../adapters/engine/training-engine.ts';
import {
  makesPreviews,
  type TryOnEngine,
  type TryOnState,
} from '../../adapters/engine/tryon-engine.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import { prepareStatement, type PreparedStatement, type RunPrepared } from '../../db/statement.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { AppError } from '../../http/app-error.ts';
import { classifyNsfw } from '../../images/analysis.ts';
import type { NormalizedPhoto } from '../../images/intake.ts';
import { createEngineJobs } from '../../jobs/engine-job.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { userStorageKey } from '../account/storage-keys.ts';
import { type Credits, onePayer } from '../billing/credits.ts';
import type { Costs } from '../costs/service.ts';
import type { EventBus } from '../events/event-bus.ts';
import { runTryOnJob } from './jobs.ts';
import {
  acceptTryOnSql,
  findTryOn,
  findTryOnById,
  listTryOns,
  lockTryOnById,
  staleTryOns,
  tryOnFromJson,
  updateTryOn,
  type AcceptTryOnColumns,
  type TryOnRow,
} from './repository.ts';

export interface TryOnServiceDeps {
  db: Database;
  storage: Storage;
  queue: JobQueue;
  events: EventBus;
  engine: TryOnEngine;
  /** The stored image of one of the user's complete generations (404 otherwise). */
  generationImageKey(userId: string, generationId: string): Promise<string>;
  /** Billing's door: the try-on gate, its credit and the refund of a failed one. */
  credits: Pick<Credits, 'checkTier' | 'inStatement' | 'refund'>;
  /** Named statements run on their own (the accept, decision 051). */
  runPrepared: RunPrepared;
  /** What the operator paid the try-on provider for each run. */
  costs: Pick<Costs, 'record'>;
  /** Transactions with work after their commit (events): a run's ending and its refund. */
  unitOfWork: UnitOfWork;
  publicUrl: string;
  /** Results the NSFW classifier flags at this threshold are blocked, whichever engine made them. */
  nsfwThreshold: number;
  logger: FastifyBaseLogger;
}

/** The person: a fresh upload, or one of the user's generated images. */
export type PersonSource = { upload: NormalizedPhoto } | { generationId: string };

const tryOnReference = (id: string) => `tryon:${id}`;

/** What the engine says of a run that has ended. */
type EndedState = Exclude<TryOnState, { status: 'running' }>;

/** The provider's word on a run that ended in a failure worth another run (see TryOnState). */
const wantsAnotherRun = (state: TryOnState) => state.status === 'failed' && state.retry === true;

/** A try-on's ending, in its row's columns. */
interface TryOnEnding {
  status: 'completed' | 'failed' | 'blocked';
  failureReason: string | null;
  resultKey: string | null;
}

/** A step of ours (not the provider's) that failed, with the user's words for it; retried. */
class StepFailed extends Error {
  constructor(userMessage: string, cause: unknown) {
    super(userMessage, { cause });
  }
}

/** How long a run waits for the provider before handing the job back to the queue. */
const runDeadlineMs = 4 * 60_000;

export function createTryOnService(deps: TryOnServiceDeps) {
  const { db, storage, queue, events, engine, logger } = deps;

  async function signed(key: string | null, downloadName?: string): Promise<string | null> {
    if (!key || !(await storage.exists(key))) return null;
    return storage.signedUrl(key, downloadName ? { downloadName } : {});
  }

  async function toTryOn(row: TryOnRow): Promise<TryOn> {
    const done = row.status === 'completed';
    return {
      id: row.id,
      status: row.status as TryOn['status'],
      failureReason:
        row.status === 'failed' || row.status === 'blocked' ? (row.failureReason ?? null) : null,
      personImageUrl: await signed(row.personKey),
      garmentImageUrl: await signed(row.garmentKey),
      resultImageUrl: done ? await signed(row.resultKey) : null,
      downloadUrl: done ? await signed(row.resultKey, `try-on-${row.id.slice(0, 8)}.jpg`) : null,
      // The engine that made it, not today's setting.
      isPreview: makesPreviews(row.engine),
      createdAt: row.createdAt.toISOString(),
      completedAt: row.completedAt?.toISOString() ?? null,
    };
  }

  async function publish(row: TryOnRow) {
    await events
      .publish(row.userId, {
        type: tryOnEvents.tryOnUpdated,
        data: { tryOnId: row.id, status: row.status },
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'try-on event not published'));
  }

  const jobs = createEngineJobs<TryOnRow, TryOnEnding, EndedState>(deps, {
    logAs: { name: 'try-on', idField: 'tryOnId' },
    engine: engine.name,
    lock: lockTryOnById,
    isOpen: (row) => row.status === 'processing',
    write: async (tx, row, ending) =>
      (await updateTryOn(tx, row.id, { ...ending, completedAt: new Date() }))!,
    // A blocked try-on is not refunded, as a blocked generated image is not.
    refunds: (ending) => ending.status === 'failed',
    refundReference: tryOnReference,
    publish,
    stale: staleTryOns,
    staleAfterMinutes: tryOnRules.staleAfterMinutes,
    // FASHN has no cancel (contract §3.2): a run given up ends by itself.
    reconciliation: {
      /** FASHN's result or failure; none while the run goes on (or asks for another run). */
      async ask(row) {
        if (!row.engineReference) return undefined;
        const state = await engine.status(row.engineReference);
        return state.status === 'running' || wantsAnotherRun(state) ? undefined : state;
      },
      take: async (row, state) => ((await end(row.id, state)) ? 'ended' : 'already ended'),
      // A provider that cannot be asked right now is asked again by the next sweep.
      asksAgain: (error) => error instanceof EngineError && error.transient,
      givenUp: () => ({
        status: 'failed',
        failureReason: tryonMessages.errors.timedOut,
        resultKey: null,
      }),
    },
  });

  /**
   * Ends a try-on once: completed with its stored result, failed with a reason and a refund, or
   * blocked by a safety filter (the provider's, or our NSFW check) with a reason and no refund.
   * Answers whether this call ended it.
   */
  async function end(id: string, state: EndedState): Promise<boolean> {
    const row = await findTryOnById(db, id);
    if (!row || row.status !== 'processing') return false;
    if (state.status === 'succeeded') {
      // Our own check on every engine's result: a flagged one ends as a provider's flag does.
      const { flagged, scores } = await classifyNsfw(state.image.bytes, deps.nsfwThreshold);
      if (flagged) {
        logger.warn({ tryOnId: id, scores }, 'the NSFW check blocked a try-on result');
        state = { status: 'failed', error: tryonMessages.errors.contentModeration, blocked: true };
      }
    }
    if (state.status === 'failed')
      return (
        (await jobs.end(id, {
          status: state.blocked === true ? 'blocked' : 'failed',
          failureReason: state.error,
          resultKey: null,
        })) !== undefined
      );
    // A key per ending: when the webhook and the poller end the try-on together, the one that
    // comes second deletes its own copy, never the stored result.
    const resultKey = userStorageKey(
      row.userId,
      'tryon-results',
      `${id}-${randomUUID().slice(0, 8)}.jpg`,
    );
    const jpeg = await sharp(state.image.bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toBuffer();
    await storage.put(resultKey, jpeg, 'image/jpeg');
    const ended = await jobs.end(
      id,
      { status: 'completed', failureReason: null, resultKey },
      { written: [resultKey] },
    );
    return ended !== undefined;
  }

  /** The run job: start the engine, then follow it until it ends (a webhook may end it first). */
  async function run(id: string, job: { isLastAttempt: boolean; signal: AbortSignal }) {
    const row = await findTryOnById(db, id);
    if (!row || row.status !== 'processing') return;
    try {
      let reference = row.engineReference;
      if (!reference) {
        const started = await engine.start({
          tryOnId: id,
          userId: row.userId,
          personUrl: await absoluteUrl(row.personKey, tryonMessages.personSignedUrlFailed),
          personKey: row.personKey,
          garmentUrl: await absoluteUrl(row.garmentKey, tryonMessages.garmentSignedUrlFailed),
          garmentKey: row.garmentKey,
          options: tryOnRules.engineOptions,
          webhookUrl: engine.inProcess
            ? null
            : engine.webhookUrl(`${deps.publicUrl}/api/webhooks/tryon/${engine.name}`, id),
        });
        if (started.state && started.state.status !== 'running') {
          await end(id, started.state);
          return;
        }
        reference = started.reference;
        if (!reference) {
          await end(id, { status: 'failed', error: tryonMessages.errors.generic });
          return;
        }
        await updateTryOn(db, id, { engineReference: reference });
        await deps.costs.record({
          kind: 'tryon',
          engine: engine.name,
          reference: id,
          callId: reference,
        });
      }
      const deadline = Date.now() + runDeadlineMs;
      for (let pause = 1000; Date.now() < deadline; pause = Math.min(pause * 1.5, 5000)) {
        if (job.signal.aborted) throw new EngineError('stopped', { transient: true });
        const current = await findTryOnById(db, id);
        if (current?.status !== 'processing') return; // the webhook ended it
        const state = await engine.status(reference);
        if (wantsAnotherRun(state) && !job.isLastAttempt) {
          // The next attempt starts a new run.
          await updateTryOn(db, id, { engineReference: null });
          throw new EngineError('the provider asks for another run', { transient: true });
        }
        if (state.status !== 'running') {
          await end(id, state);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      throw new EngineError('the try-on is still running', { transient: true });
    } catch (error) {
      logger.warn({ err: error, tryOnId: id }, 'try-on run did not finish');
      // The provider's own words stay in the log; the user gets ours.
      const reason = error instanceof StepFailed ? error.message : tryonMessages.errors.generic;
      await jobs.attemptFailed(error, {
        operation: 'tryon',
        isLastAttempt: job.isLastAttempt,
        end: () => end(id, { status: 'failed', error: reason }),
      });
    }
  }

  /**
   * An in-process engine's run, while the start request waits a bounded time for it (the queued
   * job, delayed, takes over if this process stops first).
   */
  async function runWhileAnswering(id: string): Promise<void> {
    // An in-process run has no provider to poll, so nothing would ever look at an abort.
    const never = new AbortController().signal;
    const running = run(id, { isLastAttempt: false, signal: never }).catch((error: unknown) =>
      logger.warn({ err: error, tryOnId: id }, 'try-on left to its job'),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      running,
      new Promise((resolve) => (timer = setTimeout(resolve, tryOnRules.startAnswerWaitMs))),
    ]);
    clearTimeout(timer);
  }

  /** Stores an upload; a storage failure is answered in the specification's words for it. */
  async function store(key: string, jpeg: Buffer, failure: string): Promise<void> {
    try {
      await storage.put(key, jpeg, 'image/jpeg');
    } catch (error) {
      logger.error({ err: error, key }, 'try-on upload not stored');
      throw new AppError('INTERNAL', failure);
    }
  }

  /** The provider's link to a picture; a failure to sign it ends the try-on in its own words. */
  async function absoluteUrl(key: string, failure: string): Promise<string> {
    try {
      return new URL(await storage.signedUrl(key), deps.publicUrl).toString();
    } catch (error) {
      throw new StepFailed(failure, error);
    }
  }

  /** The accept's statement and its charge, made on first use. */
  let accepted:
    { statement: PreparedStatement; charge: ReturnType<Credits['inStatement']> } | undefined;
  function acceptStatement() {
    if (!accepted) {
      const charge = deps.credits.inStatement(
        { gate: 'tryOn', reason: 'tryon', amount: costs.creditsPerTryOn },
        { payers: onePayer(sql`${sql.placeholder('userId')}::text`), items: 'items' },
      );
      const query = acceptTryOnSql({
        charge,
        jobs: queue.insertStatement(runTryOnJob, {
          from: 'job_source',
          as: 'jobs',
          ...(engine.inProcess ? { startAfterSeconds: tryOnRules.inProcessJobDelaySeconds } : {}),
        }),
        referencePrefix: tryOnReference(''),
        engine: engine.name,
      });
      accepted = { statement: prepareStatement('tryon-accept', query), charge };
    }
    return accepted;
  }

  /**
   * The credit, its ledger row, the try-on and its job in one statement that commits on its own
   * (decision 051); the refusal is then told from what it read. The events go out after it, the
   * balance's first.
   */
  async function accept(row: {
    id: string;
    userId: string;
    personKey: string;
    garmentKey: string;
  }) {
    const { statement, charge } = acceptStatement();
    const [answer] = await deps.runPrepared<AcceptTryOnColumns>(statement, {
      tryOnId: row.id,
      userId: row.userId,
      personKey: row.personKey,
      garmentKey: row.garmentKey,
      jobContext: queue.jobContext(),
    });
    if (!answer) throw new Error('the accept statement answered no row');
    await charge.settle(row.userId, answer);
    if (!answer.try_on) throw new Error('a paid try-on was not inserted');
    const inserted = tryOnFromJson(answer.try_on);
    void publish(inserted); // after the balance's, not awaited (as `settle`'s)
    return inserted;
  }

  return {
    toTryOn,

    /** The tier comes first, before a byte of the upload is read. */
    async assertTier(userId: string): Promise<void> {
      await deps.credits.checkTier(userId, 'tryOn');
    },

    /**
     * Stores the pictures under the user's person-uploads/ and garment-uploads/ folders and, in one
     * statement, spends the credit, records the try-on and enqueues it.
     */
    async create(
      userId: string,
      person: PersonSource | undefined,
      garment: NormalizedPhoto | undefined,
    ): Promise<TryOn> {
      if (!person || !garment) throw new AppError('BAD_REQUEST', tryonMessages.selectBoth);
      const id = randomUUID();
      const stamp = `${Date.now()}-${id.slice(0, 8)}`;
      const written: string[] = [];
      try {
        let personKey: string;
        if ('upload' in person) {
          personKey = userStorageKey(userId, 'person-uploads', `${stamp}.jpg`);
          written.push(personKey);
          await store(personKey, person.upload.jpeg, tryonMessages.personUploadFailed);
        } else {
          personKey = await deps.generationImageKey(userId, person.generationId);
        }
        const garmentKey = userStorageKey(userId, 'garment-uploads', `${stamp}.jpg`);
        written.push(garmentKey);
        await store(garmentKey, garment.jpeg, tryonMessages.garmentUploadFailed);
        const row = await accept({ id, userId, personKey, garmentKey });
        if (!engine.inProcess) return toTryOn(row);
        await runWhileAnswering(id);
        return toTryOn((await findTryOnById(db, id)) ?? row);
      } catch (error) {
        await Promise.all(written.map((key) => storage.delete(key).catch(() => {})));
        throw error;
      }
    },

    /** Newest first, a page at a time; `cursor` is the last try-on of the previous page. */
    async list(userId: string, cursor?: string) {
      const page = await listTryOns(db, userId, tryOnRules.listPageSize + 1, cursor);
      const rows = page.slice(0, tryOnRules.listPageSize);
      return {
        tryOns: await Promise.all(rows.map(toTryOn)),
        nextCursor: page.length > rows.length ? rows.at(-1)!.id : null,
      };
    },

    async get(userId: string, id: string): Promise<TryOn> {
      const row = await findTryOn(db, userId, id);
      if (!row) throw new AppError('NOT_FOUND', tryonMessages.notFound);
      return toTryOn(row);
    },

    run,

    /**
     * Settles try-ons with no outcome for too long (their job died), from the engine's word when
     * it has one, else failed as timed out and refunded: answers how many ended.
     */
    sweep: jobs.sweep,

    /**
     * A webhook told us a try-on changed: re-read its state from the provider (never the body).
     * `early`: the run's id is not recorded yet (the provider answered the webhook before the run
     * request), so the provider should deliver again.
     */
    async webhook(id: string): Promise<'unknown' | 'early' | 'handled'> {
      const row = await findTryOnById(db, id);
      if (!row) return 'unknown';
      if (row.status !== 'processing') return 'handled';
      if (!row.engineReference) return 'early';
      const state = await engine.status(row.engineReference);
      // A run worth repeating is the job's to repeat.
      if (state.status !== 'running' && !wantsAnotherRun(state)) await end(id, state);
      return 'handled';
    },
  };
}

export type TryOnService = ReturnType<typeof createTryOnService>;
