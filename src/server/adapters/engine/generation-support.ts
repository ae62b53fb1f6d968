import type { GeneratedImage } from './generation-engine.ts';
import { EngineError } from './training-engine.ts';

/**
 * What the GPU-service generation engines share: copying the image out of the provider (its URL
 * expires: Replicate keeps outputs 1 h) and waiting between polls without outliving the job.
 */

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
