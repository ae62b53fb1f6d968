import os from 'node:os';
import { Worker, type Transferable } from 'node:worker_threads';

/**
 * A small pool of worker threads that run one message at a time each: the image work that would
 * otherwise hold the event loop (tfjs models on WASM, pixel loops) goes to a thread, the calling
 * thread only posts the input and waits for the reply. Used by the image threads
 * (`image-threads.ts`: the super-resolution and the face and NSFW analysis); decisions 031, 036.
 *
 * Threads start on first use (or all at once with `startAll`), each loads its own runtime and
 * models once, and a thread that dies is replaced by the next message. An idle thread does not
 * keep the process alive (it is unref'd), so a process that forgets to close its pool still
 * exits; `close` terminates the threads and rejects what they had not answered.
 */

/**
 * The size of a pool that leaves a core to the event loop and other work: one thread per core
 * but one, at most two, at least one (the image analysis's default, ANALYSIS_THREADS; measured
 * in bench/results/event-loop.md).
 */
export function smallPoolSize(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(2, cores - 1));
}

export interface ThreadPoolOptions {
  /** The module each thread runs (an `.mjs` entry beside the code, see image-worker-entry.mjs). */
  entry: URL;
  workerData?: unknown;
  /** Threads at most; at least 1. */
  size: number;
  /** What a thread is called in errors: "a <name> thread failed". */
  name: string;
  /** Threads all idle this long are stopped (a WASM heap never shrinks); never when unset. */
  idleMs?: number;
  /** The first threads, which `idleMs` leaves running (their models stay loaded); 0 if unset. */
  keepWarm?: number;
}

export interface RunOptions {
  /** Buffers that move to the thread instead of being copied (the caller no longer owns them). */
  transfer?: Transferable[];
  /** A tag to drop queued messages by (`forget`), e.g. the tiles of one picture. */
  group?: symbol;
  /**
   * Abandons the message: one still queued is dropped, one a thread is running is answered with
   * the signal's reason at once (the thread finishes it and its reply is discarded).
   */
  signal?: AbortSignal;
  /**
   * Runs the message only on one of the pool's first `threads` threads (in the order they
   * started): work whose models should load in few threads (the image analysis) shares the pool
   * with work that uses every thread (the super-resolution's tiles).
   */
  threads?: number;
}

interface Job<Reply> {
  message: unknown;
  transfer: Transferable[];
  group: symbol | undefined;
  /** The first threads the message may run on. */
  threads: number;
  settled: boolean;
  resolve(reply: Reply): void;
  reject(error: unknown): void;
}

interface PoolThread<Reply> {
  worker: Worker;
  job: Job<Reply> | null;
}

export class ThreadPool<Reply> {
  private threads: PoolThread<Reply>[] = [];
  private queue: Job<Reply>[] = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!(options.size >= 1))
      throw new RangeError(`a thread pool needs a thread, not ${options.size}`);
  }

  get size(): number {
    return this.options.size;
  }

  /** Threads running now (started and not stopped). */
  get running(): number {
    return this.threads.length;
  }

  /** Posts `message` to the first free thread; resolves with its reply. */
  run(message: unknown, options: RunOptions = {}): Promise<Reply> {
    clearTimeout(this.idleTimer);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<Reply>((resolve, reject) => {
      const job: Job<Reply> = {
        message,
        transfer: options.transfer ?? [],
        group: options.group,
        threads: Math.min(this.options.size, options.threads ?? this.options.size),
        settled: false,
        resolve: (reply) => {
          if (job.settled) return;
          job.settled = true;
          signal?.removeEventListener('abort', abort);
          resolve(reply);
        },
        reject: (error) => {
          if (job.settled) return;
          job.settled = true;
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      };
      const abort = () => {
        this.queue = this.queue.filter((queued) => queued !== job);
        job.reject(signal!.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /**
   * Starts every thread not running yet (of the first `threads`), each running `message` first
   * (a warm-up: every thread loads its models before real work comes); resolves with their
   * replies.
   */
  startAll(message: unknown, threads = this.options.size): Promise<Reply[]> {
    clearTimeout(this.idleTimer);
    const replies: Promise<Reply>[] = [];
    while (this.threads.length < Math.min(threads, this.options.size)) {
      const thread = this.startThread();
      replies.push(
        new Promise<Reply>((resolve, reject) => {
          const job: Job<Reply> = {
            message,
            transfer: [],
            group: undefined,
            threads: this.options.size,
            settled: false,
            resolve: (reply) => {
              job.settled = true;
              resolve(reply);
            },
            reject: (error) => {
              job.settled = true;
              reject(error);
            },
          };
          this.post(thread, job);
        }),
      );
    }
    return Promise.all(replies);
  }

  /** Drops the group's messages that no thread has started (after one of them failed). */
  forget(group: symbol): void {
    this.queue = this.queue.filter((job) => job.group !== group);
  }

  /** Terminates every thread; what they had not answered is rejected with `reason`. */
  async close(reason: string): Promise<void> {
    clearTimeout(this.idleTimer);
    const threads = this.threads;
    const queue = this.queue;
    this.threads = [];
    this.queue = [];
    for (const job of [...queue, ...threads.flatMap((thread) => thread.job ?? [])])
      job.reject(new Error(reason));
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    // In order, each message to the first free thread it may run on; one that must wait for a
    // busy thread does not hold back the messages after it that may run elsewhere.
    for (const job of [...this.queue]) {
      const thread =
        this.threads.slice(0, job.threads).find((candidate) => candidate.job === null) ??
        (this.threads.length < job.threads ? this.startThread() : null);
      if (!thread) continue;
      this.queue.splice(this.queue.indexOf(job), 1);
      this.post(thread, job);
    }
    const keepWarm = this.options.keepWarm ?? 0;
    if (
      this.options.idleMs !== undefined &&
      this.threads.length > keepWarm &&
      this.threads.every((thread) => thread.job === null)
    ) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopIdleThreads(), this.options.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Stops the threads beyond `keepWarm` (all idle: a message would have cleared the timer). */
  private async stopIdleThreads(): Promise<void> {
    const stopping = this.threads.slice(this.options.keepWarm ?? 0);
    this.threads = this.threads.filter((thread) => !stopping.includes(thread));
    await Promise.all(stopping.map((thread) => thread.worker.terminate()));
  }

  private post(thread: PoolThread<Reply>, job: Job<Reply>): void {
    thread.job = job;
    // A thread at work keeps the process alive; an idle one does not hold it open.
    thread.worker.ref();
    try {
      thread.worker.postMessage(job.message, job.transfer);
    } catch (error) {
      // A message that cannot be cloned: the caller's mistake, the thread stays free.
      thread.job = null;
      thread.worker.unref();
      job.reject(error);
    }
  }

  private startThread(): PoolThread<Reply> {
    const worker = new Worker(this.options.entry, {
      workerData: this.options.workerData,
      // The entry registers tsx itself; inheriting the parent's tsx flags would hook it twice.
      execArgv: [],
    });
    const thread: PoolThread<Reply> = { worker, job: null };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const job = thread.job;
      thread.job = null;
      worker.unref();
      // An abandoned job's reply is dropped (`settled`); the thread is free again either way.
      job?.resolve(reply);
      this.dispatch();
    });
    const lose = (error: Error) => {
      if (!this.threads.includes(thread)) return;
      this.threads = this.threads.filter((other) => other !== thread);
      thread.job?.reject(error);
      this.dispatch();
    };
    const { name } = this.options;
    worker.on('error', (error) => lose(new Error(`a ${name} thread failed`, { cause: error })));
    worker.on('exit', (code) => lose(new Error(`a ${name} thread exited (code ${code})`)));
    this.threads.push(thread);
    return thread;
  }
}
