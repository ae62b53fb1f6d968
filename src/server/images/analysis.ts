import { createHash } from 'node:crypto';
import {
  analysisTasks,
  asBuffer,
  type AnalysisTaskName,
  type AnalysisTasks,
  type RgbPixels,
  type WarmUpModels,
} from './analysis-tasks.ts';
import {
  decodeForAnalysis,
  type DecodedPhoto,
  type FaceAnalysisOptions,
  type FaceBox,
  type PhotoAnalysis,
} from './faces.ts';
import { isFlagged, type NsfwScores, type NsfwVerdict } from './nsfw.ts';
import { metrics } from '../observability/metrics.ts';
import {
  closeImageThreads,
  runOnImageThread,
  setAnalysisThreads,
  startAnalysisThreads,
} from './image-threads.ts';
import { smallPoolSize } from './thread-pool.ts';

/**
 * The image analysis of the request and job paths, off the event loop (decision 031): face
 * detection, landmarks, descriptor, sharpness and variety patch (`faces.ts`), the small-face
 * search, the variety score (`variety.ts`) and the NSFW classification (`nsfw.ts`) run on a
 * few of the process's image threads (`image-threads.ts`), each with its own tfjs WASM runtime and the
 * models loaded once. The functions here have the signatures of those modules' own, so callers
 * only change where they import from; with 0 threads they run on the calling thread as before
 * (the floor bench/event-loop.ts compares against).
 */

export type {
  DetectedFace,
  FaceAnalysisOptions,
  FaceBox,
  FaceLandmarks,
  FaceProfile,
  PhotoAnalysis,
} from './faces.ts';
export { faceSimilarity, meanDescriptor, profileSimilarity } from './faces.ts';
export type { NsfwScores, NsfwVerdict } from './nsfw.ts';

/** Until the runtime says (ANALYSIS_THREADS): `smallPoolSize`, one thread on two cores. */
let threads = smallPoolSize();
setAnalysisThreads(threads);
let users = 0;

/**
 * A process's use of the analysis (the runtime's `start`): sets the number of threads (0: on the
 * calling thread) and answers the function that gives the use back; the threads stop when the
 * last use is given back (several apps in one test process share them).
 */
export function openAnalysis(options: { threads: number }): { close(): Promise<void> } {
  if (!Number.isInteger(options.threads) || options.threads < 0)
    throw new RangeError(`analysis threads must be a whole number from 0, not ${options.threads}`);
  // The first use sets the size; threads started before it at another size are replaced.
  if (users === 0) {
    if (threads !== options.threads) remembered.clear();
    threads = options.threads;
    setAnalysisThreads(threads);
  }
  users++;
  let closed = false;
  return {
    async close() {
      if (closed) return;
      closed = true;
      users--;
      if (users === 0) await closeAnalysis();
    },
  };
}

/** The number of threads the analysis uses (0: the calling thread). */
export function analysisThreads(): number {
  return threads;
}

/** Stops the threads now; what they had not answered is rejected. A later call starts them again. */
export async function closeAnalysis(): Promise<void> {
  closings++;
  await closeImageThreads(closedMessage);
}

const closedMessage = 'the image analysis was closed';
/** How many times the analysis was closed: a photo decoded across a close is not analysed. */
let closings = 0;

export interface AnalysisOptions {
  /** Abandons the analysis (see `RunOptions.signal` in thread-pool.ts). */
  signal?: AbortSignal;
}

/**
 * The answers for photos analysed lately, by task, options and SHA-256 of the bytes: the analysis
 * is a pure function of them, and the same photo comes back (an upload retried, a photo deleted
 * and added again, the same photos in a second model, a training reading its validated photos).
 * Hashing 4 MB takes about 10 ms; analysing it, 150 to 250 ms. Only settled answers are kept, so
 * one caller's abandoned analysis never fails another's; each caller gets its own copy.
 */
const remembered = new Map<string, unknown>();
const rememberedLimit = 256;
const rememberedTasks = new Set<AnalysisTaskName>(['analyzePhoto', 'findSmallFaces', 'nsfwScores']);

async function call<K extends AnalysisTaskName>(
  task: K,
  args: Parameters<AnalysisTasks[K]>,
  options: AnalysisOptions = {},
  run: () => Promise<Awaited<ReturnType<AnalysisTasks[K]>>> = () => compute(task, args, options),
): Promise<Awaited<ReturnType<AnalysisTasks[K]>>> {
  options.signal?.throwIfAborted();
  const [input, ...rest] = args;
  if (!rememberedTasks.has(task) || !Buffer.isBuffer(input)) return run();
  const digest = createHash('sha256').update(input).digest('base64');
  const key = `${task}:${JSON.stringify(rest)}:${digest}`;
  if (remembered.has(key)) {
    const answer = remembered.get(key);
    // Most recently used last: the first key is the one to forget.
    remembered.delete(key);
    remembered.set(key, answer);
    metrics.analysisMemo.inc({ task, outcome: 'hit' });
    return structuredClone(answer) as Awaited<ReturnType<AnalysisTasks[K]>>;
  }
  const answer = await run();
  metrics.analysisMemo.inc({ task, outcome: 'miss' });
  remembered.set(key, structuredClone(answer));
  if (remembered.size > rememberedLimit) remembered.delete(remembered.keys().next().value!);
  return answer;
}

async function compute<K extends AnalysisTaskName>(
  task: K,
  args: Parameters<AnalysisTasks[K]>,
  options: AnalysisOptions,
): Promise<Awaited<ReturnType<AnalysisTasks[K]>>> {
  if (threads === 0) {
    options.signal?.throwIfAborted();
    const run = analysisTasks[task] as (
      ...args: unknown[]
    ) => Promise<Awaited<ReturnType<AnalysisTasks[K]>>>;
    return run(...args);
  }
  return runOnImageThread(task, args, { analysis: true, signal: options.signal }) as Promise<
    Awaited<ReturnType<AnalysisTasks[K]>>
  >;
}

/** `faces.ts`'s `analyzePhoto` on an analysis thread (`{ grey: true }` as there). */
export async function analyzePhoto(
  input: Buffer,
  options: AnalysisOptions & FaceAnalysisOptions = {},
): Promise<PhotoAnalysis> {
  const faceOptions: FaceAnalysisOptions | undefined = options.grey ? { grey: true } : undefined;
  const analysis = await call(
    'analyzePhoto',
    faceOptions ? [input, faceOptions] : [input],
    options,
    // On threads, the photo is decoded here (sharp works on libuv's threads, off the event loop)
    // and only the models' half goes to the analysis thread: the photos that arrive together
    // decode on the other core while the thread analyses the first (issue 18).
    threads === 0
      ? undefined
      : async () => {
          const closingsBefore = closings;
          const decoded = await decodeInTurn(input, options.signal);
          if (closings !== closingsBefore) throw new Error(closedMessage);
          return compute(
            'analyzeDecodedPhoto',
            faceOptions ? [decoded, faceOptions] : [decoded],
            options,
          );
        },
  );
  // Cloned across threads, a Buffer arrives as a Uint8Array.
  for (const face of analysis.faces) if (face.variety) face.variety = asBuffer(face.variety);
  return analysis;
}

/**
 * The photos being decoded for the analysis threads: as many at once as there are threads, one
 * photo ahead of each. More would fill libuv's four threads, where the analysis's own sharp work
 * (the sharpness crop, the variety patch) would then wait behind them.
 */
let decodesRunning = 0;
const decodesWaiting: (() => void)[] = [];

async function decodeInTurn(input: Buffer, signal?: AbortSignal): Promise<DecodedPhoto> {
  if (decodesRunning < Math.max(1, threads)) decodesRunning++;
  // A finished decode hands its place to the next one waiting (see `finally`).
  else await new Promise<void>((resolve) => decodesWaiting.push(resolve));
  try {
    signal?.throwIfAborted();
    return await decodeForAnalysis(input);
  } finally {
    const next = decodesWaiting.shift();
    if (next) next();
    else decodesRunning--;
  }
}

/** `faces.ts`'s `findSmallFaces` on an analysis thread. */
export function findSmallFaces(
  input: Buffer,
  options: AnalysisOptions = {},
): Promise<{ box: FaceBox; score: number }[]> {
  return call('findSmallFaces', [input], options);
}

/** `variety.ts`'s `varietyScore` on an analysis thread (a few milliseconds of pixel loops). */
export function varietyScore(
  a: Uint8Array,
  b: Uint8Array,
  options: AnalysisOptions = {},
): Promise<number> {
  return call('varietyScore', [a, b], options);
}

/** `nsfw.ts`'s `nsfwScores` (the product's model) on an analysis thread. */
export function nsfwScores(
  image: Buffer | RgbPixels,
  options: AnalysisOptions = {},
): Promise<NsfwScores> {
  return call('nsfwScores', [image], options);
}

/** `nsfw.ts`'s `classifyNsfw` on an analysis thread. */
export async function classifyNsfw(
  image: Buffer | RgbPixels,
  threshold: number,
  options: AnalysisOptions = {},
): Promise<NsfwVerdict> {
  const scores = await nsfwScores(image, options);
  return { flagged: isFlagged(scores, threshold), scores };
}

/**
 * Loads the models before the first real picture: on every thread (all started now), or on the
 * calling thread with 0 threads.
 */
export async function warmUpAnalysis(models: WarmUpModels): Promise<void> {
  if (threads === 0) return analysisTasks.warmUp(models);
  await startAnalysisThreads('warmUp', [models]);
}
