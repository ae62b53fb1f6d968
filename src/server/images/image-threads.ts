import os from 'node:os';
import type { AnalysisTasks } from './analysis-tasks.ts';
import { ThreadPool, type RunOptions } from './thread-pool.ts';
import type { upscaleTile } from './upscale-tile.ts';

/**
 * The process's image threads (decision 036): one pool of worker threads, each with one tfjs
 * WASM runtime, shared by the image analysis (`analysis.ts`: faces, NSFW, variety) and the
 * super-resolution (`upscale.ts`). A runtime costs 60-80 MB before its first model, so the
 * worker process runs two (one per core) instead of one for the analysis and two for the tiles.
 *
 * The analysis runs on the first `analysisThreads` threads only, so its models load in few; the
 * tiles use every thread. Threads beyond the analysis's stop after a minute without work (a WASM
 * heap never shrinks); the analysis's stay, with their models loaded.
 */

export type ImageThreadTasks = AnalysisTasks & { upscaleTile: typeof upscaleTile };
export type ImageTaskName = keyof ImageThreadTasks;

export interface ImageThreadRequest<K extends ImageTaskName = ImageTaskName> {
  task: K;
  args: Parameters<ImageThreadTasks[K]>;
}

export interface ThreadError {
  name: string;
  message: string;
  stack: string | undefined;
}

export type ImageThreadReply<K extends ImageTaskName = ImageTaskName> =
  { result: Awaited<ReturnType<ImageThreadTasks[K]>> } | { error: ThreadError };

const entry = new URL('./image-worker-entry.mjs', import.meta.url);
const idleThreadLifetimeMs = 60_000;

let pool: ThreadPool<ImageThreadReply> | null = null;
let analysisThreads = 0;

function threads(): ThreadPool<ImageThreadReply> {
  pool ??= new ThreadPool<ImageThreadReply>({
    entry,
    size: Math.max(os.availableParallelism(), analysisThreads),
    name: 'tfjs',
    idleMs: idleThreadLifetimeMs,
    keepWarm: analysisThreads,
  });
  return pool;
}

/**
 * Sets how many of the threads the analysis uses (ANALYSIS_THREADS); the threads running at
 * another setting are stopped, and what they had not answered is rejected.
 */
export function setAnalysisThreads(count: number): void {
  if (count === analysisThreads) return;
  analysisThreads = count;
  void closeImageThreads('the image threads were resized');
}

export interface ImageTaskOptions extends Pick<RunOptions, 'signal' | 'group' | 'transfer'> {
  /** The task is the analysis's: it runs on one of the analysis's threads. */
  analysis?: boolean;
}

/** Runs `task` on an image thread; its error is rethrown here with both threads' stacks. */
export async function runOnImageThread<K extends ImageTaskName>(
  task: K,
  args: Parameters<ImageThreadTasks[K]>,
  options: ImageTaskOptions = {},
): Promise<Awaited<ReturnType<ImageThreadTasks[K]>>> {
  const { analysis, ...run } = options;
  const reply = (await threads().run(
    { task, args } satisfies ImageThreadRequest<K>,
    analysis ? { ...run, threads: Math.max(1, analysisThreads) } : run,
  )) as ImageThreadReply<K>;
  if ('error' in reply) throw threadError(reply.error);
  return reply.result;
}

/** Starts the analysis's threads, each running `task` first (a warm-up); rethrows its error. */
export async function startAnalysisThreads<K extends ImageTaskName>(
  task: K,
  args: Parameters<ImageThreadTasks[K]>,
): Promise<void> {
  const replies = await threads().startAll({ task, args }, Math.max(1, analysisThreads));
  for (const reply of replies) if ('error' in reply) throw threadError(reply.error);
}

/** Drops the group's tasks that no thread has started (after one of them failed). */
export function forgetImageTasks(group: symbol): void {
  pool?.forget(group);
}

/** Stops every thread now; what they had not answered is rejected. A later task starts them. */
export async function closeImageThreads(reason: string): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close(reason);
}

/** The thread's error as an error of this thread: same name and message, both stacks. */
function threadError({ name, message, stack }: ThreadError): Error {
  const error = new Error(message);
  error.name = name;
  const here = error.stack?.split('\n').slice(1).join('\n') ?? '';
  const there = stack?.split('\n').slice(1).join('\n') ?? '';
  error.stack = `${name}: ${message}\n${there}\n    --- in an image thread, called from:\n${here}`;
  return error;
}
