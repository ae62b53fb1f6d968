import {
  type GeneratedImage,
  type GenerationEngine,
  type GenerationOutcome,
  type GenerationRequest,
  type PreviewRequest,
  providerHdLongSide,
  type UpscaleRequest,
} from './generation-engine.ts';
import { errorFor, isRecord, type ProviderResponse, successBody } from './provider-http.ts';
import { EngineError } from './training-engine.ts';

/**
 * What the GPU-service generation engines (replicate-generation.ts, fal-generation.ts) share:
 * starting a job without losing it to an abort, following it until it ends without outliving
 * the job's signal, and copying the image out of the provider (its URL expires: Replicate keeps
 * outputs 1 h). What differs between providers (request shapes, reading their verdicts) stays in
 * the adapters.
 */

/** The polling and download settings both engines take. */
export interface FollowOptions {
  /** The first pause between polls (default 1 s); it grows by half up to `maxPollIntervalMs`. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Transient poll failures in a row tolerated before giving up (default 5). */
  maxPollFailures?: number;
  /** The largest image accepted (default 20 MB). */
  maxImageBytes?: number;
  downloadTimeoutMs?: number;
}

export interface FollowSettings {
  timing: PollTiming;
  maxPollFailures: number;
  /** For downloadedOutcome (with the provider and the job's signal). */
  image: { maxBytes: number; timeoutMs: number };
}

/** The options with their defaults filled in. */
export function followSettings(options: FollowOptions): FollowSettings {
  return {
    timing: { firstMs: options.pollIntervalMs ?? 1000, maxMs: options.maxPollIntervalMs ?? 5000 },
    maxPollFailures: options.maxPollFailures ?? 5,
    image: {
      maxBytes: options.maxImageBytes ?? 20 * 1024 * 1024,
      timeoutMs: options.downloadTimeoutMs ?? 60_000,
    },
  };
}

/**
 * The transient error thrown when the job's signal aborts; `job` names the provider's job once it
 * has one, and `canceled` says whether it was canceled or left running for a retry to resume.
 */
export function interruptedError(provider: string, job?: string, canceled = true): EngineError {
  return new EngineError(
    job
      ? `The generation was interrupted before ${provider} finished it (${job}, ${canceled ? 'canceled' : 'left running'})`
      : `The generation was interrupted before ${provider} accepted it`,
    { transient: true },
  );
}

export interface JobStart {
  provider: string;
  /** Sends the create/submit request (not called when the signal has already aborted). */
  send: () => Promise<ProviderResponse>;
  /** The field of a success answer that holds the job's id (`id`, `request_id`). */
  idField: string;
  /** The message of the (transient) error thrown when a success answer lacks the id. */
  missingId: string;
  /** Best effort, never throws: ends a job we no longer wait for. */
  cancel: (id: string) => Promise<void>;
  signal: AbortSignal;
}

/** The job the provider accepted (its id and the answer's body), or the outcome a refusal is. */
export type StartedJob =
  | { started: true; id: string; body: Record<string, unknown> }
  | { started: false; outcome: GenerationOutcome };

/**
 * Sends the request that creates the provider's job, within the job's signal.
 *
 * Network trouble, timeouts, 408/429/5xx and unreadable answers throw a transient EngineError
 * (the job retries). A final (4xx) refusal is returned as a `failed` outcome rather than thrown:
 * it means our request is wrong, the weights are gone or not ours, or the account cannot run
 * them. Retrying the same request cannot help, and the user's credit should come back with the
 * provider's own reason.
 */
export async function startJob(start: JobStart): Promise<StartedJob> {
  const { provider, signal } = start;
  if (signal.aborted) throw interruptedError(provider);
  const sending = start.send();
  const sent = await unlessAborted(sending, signal);
  if (sent.aborted) {
    // The job may exist already (Replicate's sync mode holds the answer up to a minute). Cancel
    // it as soon as its id arrives rather than dropping the connection and losing the id.
    void sending
      .then((response) => {
        const id = jobId(response, start.idField);
        return id ? start.cancel(id) : undefined;
      })
      .catch(() => undefined);
    throw interruptedError(provider);
  }
  const response = sent.value;
  if (response.status >= 400) {
    const error = errorFor(provider, response);
    if (error.transient) throw error;
    return { started: false, outcome: { status: 'failed', error: error.message, reference: null } };
  }
  const body = successBody(provider, response);
  const id = body[start.idField];
  if (typeof id !== 'string' || !id) throw new EngineError(start.missingId, { transient: true });
  return { started: true, id, body };
}

function jobId(response: ProviderResponse, field: string): string | undefined {
  const body = response.body;
  if (response.status >= 300 || !isRecord(body)) return undefined;
  const id = body[field];
  return typeof id === 'string' && id ? id : undefined;
}

export interface Following<T> {
  provider: string;
  /** What the provider calls the job, for messages (`prediction`, `request`). */
  kind: string;
  /** The job's id. */
  reference: string;
  /**
   * One poll: what the job ended as, or undefined while it runs. An EngineError it throws is
   * sorted as below; any other error is thrown as it is.
   */
  poll: () => Promise<T | undefined>;
  /**
   * Best effort, never throws: ends the job when we stop waiting for it. Absent when the caller
   * holds the job's reference: the job then stays running for a retry to resume (or the
   * reconciler to collect or cancel).
   */
  cancel?: () => Promise<void>;
  signal: AbortSignal;
  timing: PollTiming;
  /** Transient poll failures in a row tolerated before giving up. */
  maxPollFailures: number;
}

/** A final (non-transient) poll error: the generation fails with its message. */
export type PollFailure = { status: 'failed'; error: string; reference: string };

/**
 * Polls the provider's job, pausing first and growing the pause between polls, until `poll`
 * reports its end (returned), the job's signal aborts, or polling fails for good.
 *
 * Transient errors while polling do not end the generation at once: the job is still running
 * (and billed), so `maxPollFailures` in a row are tolerated (a 429's Retry-After respected)
 * before the job is canceled (when ours to cancel) and the last error thrown. A final error (a
 * 4xx: the job vanished) is returned as a PollFailure: retrying cannot help. When the signal
 * aborts, the job is canceled (likewise) and a transient EngineError thrown.
 */
export async function followUntilDone<T>(following: Following<T>): Promise<T | PollFailure> {
  const { signal, timing, reference } = following;
  const interrupted = async () => {
    await following.cancel?.();
    return interruptedError(
      following.provider,
      `${following.kind} ${reference}`,
      following.cancel !== undefined,
    );
  };
  let delay = timing.firstMs;
  let failures = 0;
  for (;;) {
    await pause(delay, signal);
    if (signal.aborted) throw await interrupted();
    try {
      const polled = await unlessAborted(following.poll(), signal);
      if (polled.aborted) throw await interrupted();
      if (polled.value !== undefined) return polled.value;
      failures = 0;
      delay = nextPause(delay, timing);
    } catch (error) {
      // Once the signal has aborted, the error (the interruption above, or a failure the abort
      // caused) is thrown as it is: there is nothing left to retry.
      if (!(error instanceof EngineError) || signal.aborted) throw error;
      if (!error.transient) return { status: 'failed', error: error.message, reference };
      failures += 1;
      if (failures > following.maxPollFailures) {
        await following.cancel?.();
        throw error;
      }
      delay = Math.max(nextPause(delay, timing), (error.retryAfterSeconds ?? 0) * 1000);
    }
  }
}

/** The downloaded image as the outcome: succeeded with it, or failed with why it is not one. */
export async function downloadedOutcome(
  url: string,
  reference: string,
  options: ImageDownload,
): Promise<GenerationOutcome> {
  const downloaded = await downloadImage(url, options);
  return downloaded.ok
    ? { status: 'succeeded', image: downloaded.image, reference }
    : { status: 'failed', error: downloaded.error, reference };
}

export interface ImageDownload {
  /** The provider's name for messages. */
  provider: string;
  maxBytes: number;
  timeoutMs: number;
  /** The job's signal: an abort interrupts the download (a transient error). */
  signal: AbortSignal;
}

/** The image, or why the provider's answer is not one (a final verdict: the generation fails). */
export type DownloadResult = { ok: true; image: GeneratedImage } | { ok: false; error: string };

const allowedTypes = new Set<GeneratedImage['contentType']>([
  'image/jpeg',
  'image/png',
  'image/webp',
]);

/**
 * Downloads a generated image, bounded in time and size, and checks it is one: the declared
 * content type must be JPEG, PNG or WebP and the bytes must start like one (the type reported is
 * the bytes'). `data:` URLs (inline outputs) are decoded in place.
 *
 * Network trouble, timeouts, 408/429/5xx throw a transient EngineError (a retry may work). A 4xx
 * (an expired or missing file), a non-image or an oversized file is a final `{ ok: false }`.
 */
export async function downloadImage(url: string, options: ImageDownload): Promise<DownloadResult> {
  const { provider, maxBytes } = options;
  if (url.startsWith('data:')) return decodeDataUrl(url, maxBytes, provider);
  if (!/^https?:\/\//i.test(url))
    return { ok: false, error: `${provider} returned an image address that is not a URL` };
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let response: Response;
  let bytes: Buffer | undefined;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
    if (!response.ok) {
      await response.body?.cancel();
      const { status } = response;
      if (status === 408 || status === 429 || status >= 500)
        throw new EngineError(`${provider}'s image could not be downloaded (HTTP ${status})`, {
          transient: true,
        });
      return { ok: false, error: `${provider}'s image could not be downloaded (HTTP ${status})` };
    }
    const declared = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!allowedTypes.has(declared.toLowerCase() as GeneratedImage['contentType'])) {
      await response.body?.cancel();
      return {
        ok: false,
        error: `${provider} returned a file that is not an image (${declared || 'no content type'})`,
      };
    }
    const length = Number(response.headers.get('content-length'));
    if (Number.isFinite(length) && length > maxBytes) {
      await response.body?.cancel();
      return { ok: false, error: tooLarge(provider, maxBytes) };
    }
    bytes = await readBounded(response, maxBytes);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    const interrupted = options.signal.aborted;
    const timedOut = !interrupted && signal.aborted;
    throw new EngineError(
      interrupted
        ? `The download of ${provider}'s image was interrupted`
        : timedOut
          ? `${provider}'s image did not download within ${Math.round(options.timeoutMs / 1000)} s`
          : `${provider}'s image could not be downloaded (${describe(error)})`,
      { transient: true },
    );
  }
  if (bytes === undefined) return { ok: false, error: tooLarge(provider, maxBytes) };
  return checked(bytes, provider);
}

/** The body, or undefined as soon as it grows past `maxBytes` (the rest is not read). */
async function readBounded(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function decodeDataUrl(url: string, maxBytes: number, provider: string): DownloadResult {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (!match?.[2])
    return { ok: false, error: `${provider} returned an image in a form that cannot be read` };
  // Base64 is 4/3 of the bytes: refuse before decoding.
  if ((match[3]!.length * 3) / 4 > maxBytes + 3)
    return { ok: false, error: tooLarge(provider, maxBytes) };
  return checked(Buffer.from(match[3]!, 'base64'), provider);
}

function checked(bytes: Buffer, provider: string): DownloadResult {
  const contentType = sniff(bytes);
  if (!contentType)
    return { ok: false, error: `${provider} returned a file that is not a readable image` };
  return { ok: true, image: { bytes, contentType } };
}

/** The image type the bytes start like. */
export function sniff(bytes: Buffer): GeneratedImage['contentType'] | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(pngSignature)) return 'image/png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function tooLarge(provider: string, maxBytes: number): string {
  return `${provider} returned an image larger than ${Math.round(maxBytes / (1024 * 1024))} MB`;
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/** Waits `ms`, or less when `signal` aborts first (never rejects). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Settles with the work's result, or with `aborted` as soon as `signal` aborts. */
export async function unlessAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
): Promise<{ aborted: false; value: T } | { aborted: true }> {
  if (signal.aborted) return { aborted: true };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<{ aborted: true }>((resolve) => {
    onAbort = () => resolve({ aborted: true });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const settled = work.then((value) => ({ aborted: false as const, value }));
  // A failure after the abort won the race is nobody's business (and no unhandled rejection).
  settled.catch(() => undefined);
  try {
    return await Promise.race([settled, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** How the engines poll: the first pause, growing by half each time up to a ceiling. */
export interface PollTiming {
  firstMs: number;
  maxMs: number;
}

export function nextPause(current: number, timing: PollTiming): number {
  return Math.min(timing.maxMs, Math.round(current * 1.5));
}

/** The image of an ended upscale, or a final error that says how it ended. */
export function upscaledImage(provider: string, outcome: GenerationOutcome): GeneratedImage {
  if (outcome.status === 'succeeded') return outcome.image;
  throw new EngineError(
    outcome.status === 'failed'
      ? `The upscale failed on ${provider}: ${outcome.error}`
      : `${provider}'s upscaler finished without an image`,
    { transient: false },
  );
}

/** The answer to a preview request without a photo: nothing to send. */
export const noPhotoToPreview: GenerationOutcome = {
  status: 'failed',
  error: 'No validated photo to make a preview from',
  reference: null,
};

/**
 * The whole-number scale that takes a picture's long side to at least `longSide` (×2 for FLUX's
 * 768×1024), within what the upscalers accept (fal's `scale` goes up to 8); 1 when it is there.
 */
export function upscaleFactor(width: number, height: number, longSide: number): number {
  const long = Math.max(width, height);
  if (long >= longSide) return 1;
  return Math.min(8, Math.max(2, Math.ceil(longSide / Math.max(1, long))));
}

/**
 * Runs `work` again after a transient EngineError (pausing 1 s, then 2 s, …), `attempts` times in
 * all, within `signal`; a final error, an abort or the last attempt's error is thrown as it is.
 * For the upscale: the job does not retry it (its failure keeps the picture as it is), so the
 * adapter gives the provider's hiccups a few chances itself.
 */
export async function withTransientRetries<T>(
  work: () => Promise<T>,
  options: { attempts: number; firstPauseMs?: number; signal: AbortSignal },
): Promise<T> {
  const firstPause = options.firstPauseMs ?? 1000;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const retry =
        error instanceof EngineError &&
        error.transient &&
        attempt < options.attempts &&
        !options.signal.aborted;
      if (!retry) throw error;
      await pause(
        Math.max(firstPause * attempt, (error.retryAfterSeconds ?? 0) * 1000),
        options.signal,
      );
      if (options.signal.aborted) throw error;
    }
  }
}

/** Attempts at an upscale in all (transient trouble); the job does not retry it. */
const upscaleAttempts = 3;

/**
 * How a provider's jobs of one kind (generations, upscales, previews) are followed by their id:
 * looked at, concluded and canceled. `T` is what a look says once a job has ended.
 */
export interface JobHandling<T> {
  /**
   * One look at the job: what it ended as, undefined while it runs. An EngineError it throws is
   * sorted by followUntilDone (retried, or a final PollFailure).
   */
  look(id: string, signal: AbortSignal): Promise<T | undefined>;
  /** The outcome of what the job ended as, or of a final poll failure (a download, for one). */
  conclude(
    ended: T | PollFailure,
    id: string,
    signal: AbortSignal,
  ): Promise<GenerationOutcome> | GenerationOutcome;
  /** Best effort, never throws: ends a job we no longer wait for. */
  cancel(id: string): Promise<void>;
}

/** One job to create at a provider, and how its kind is followed. */
export interface ProviderJob<T> extends JobHandling<T> {
  /** Sends the create or submit request. */
  send(): Promise<ProviderResponse>;
}

/**
 * A GPU-service generation engine from its provider's jobs (decision 050). The lifecycle is the
 * same for every provider and lives here: a job is created within the job's signal (a refusal is
 * a `failed` outcome, startJob), its reference handed to `started` at once, then followed until
 * it ends (followUntilDone) and concluded; a job whose reference was handed over is left running
 * when given up, for a retry to resume (`jobs.resume`) or the reconciler to collect
 * (`jobs.check`). `upscale` and `preview` are present only when their model is configured
 * (PROVIDER_HD, TRAINING_PREVIEWS): an upscale is tried again after transient trouble and its
 * failure thrown (upscaledImage); a preview without a photo sends nothing.
 */
export function createProviderGenerationEngine<T, Upscaler, Previewer>(engine: {
  name: 'replicate' | 'fal';
  provider: string;
  /** What the provider calls a job (`prediction`, `request`), for messages. */
  kind: string;
  /** The field of a create answer that holds the job's id (`id`, `request_id`). */
  idField: string;
  /** The message of the (transient) error thrown when a create answer lacks the id. */
  missingId: string;
  /** What a create answer says when the job had ended already (Replicate's sync mode). */
  answered?(answer: Record<string, unknown>): T | undefined;
  settings: FollowSettings;
  /** How generations are followed by reference (the reconciler's and a retry's). */
  generations: JobHandling<T>;
  generation(request: GenerationRequest): ProviderJob<T>;
  upscaler: Upscaler | undefined;
  /** The upscale of our picture at `imageUrl` by a whole `scale` (upscaleFactor). */
  upscale(upscaler: Upscaler, imageUrl: string, scale: number): ProviderJob<T>;
  previewer: Previewer | undefined;
  /** A preview from the user's best photo (its signed URL) and the preset's plain prompt. */
  preview(previewer: Previewer, faceUrl: string, prompt: string): ProviderJob<T>;
}): GenerationEngine {
  const { provider, settings, upscaler, previewer, generations } = engine;

  /** Polls until the job ends; it is canceled on giving up only when nobody else holds its id. */
  const follow = (job: JobHandling<T>, id: string, signal: AbortSignal, handedOver: boolean) =>
    followUntilDone({
      provider,
      kind: engine.kind,
      reference: id,
      poll: () => job.look(id, signal),
      ...(handedOver ? {} : { cancel: () => job.cancel(id) }),
      signal,
      timing: settings.timing,
      maxPollFailures: settings.maxPollFailures,
    });

  /** Creates the job and settles it; `onStarted` is told its reference before any polling. */
  async function run(
    job: ProviderJob<T>,
    signal: AbortSignal,
    onStarted?: (reference: string) => Promise<void>,
  ): Promise<GenerationOutcome> {
    const started = await startJob({
      provider,
      send: () => job.send(),
      idField: engine.idField,
      missingId: engine.missingId,
      cancel: (id) => job.cancel(id),
      signal,
    });
    if (!started.started) return started.outcome;
    const { id } = started;
    await onStarted?.(id);
    const ended =
      engine.answered?.(started.body) ?? (await follow(job, id, signal, Boolean(onStarted)));
    return job.conclude(ended, id, signal);
  }

  return {
    name: engine.name,
    makesPreviews: false,
    generate: (request, signal, onStarted) => run(engine.generation(request), signal, onStarted),
    ...(upscaler !== undefined && {
      upscale: (request: UpscaleRequest, signal: AbortSignal) =>
        withTransientRetries(
          async () => {
            const scale = upscaleFactor(request.width, request.height, providerHdLongSide);
            const job = engine.upscale(upscaler, request.imageUrl, scale);
            return upscaledImage(provider, await run(job, signal));
          },
          { attempts: upscaleAttempts, signal },
        ),
    }),
    ...(previewer !== undefined && {
      preview: async (request: PreviewRequest, signal: AbortSignal) => {
        const face = request.photos[0];
        if (!face) return noPhotoToPreview;
        return run(engine.preview(previewer, face.url, request.prompt), signal);
      },
    }),
    jobs: {
      resume: async (id, signal) =>
        generations.conclude(await follow(generations, id, signal, true), id, signal),
      async check(id, signal) {
        const ended = await generations.look(id, signal);
        return ended && generations.conclude(ended, id, signal);
      },
      cancel: (id) => generations.cancel(id),
    },
  };
}
