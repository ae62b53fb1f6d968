import { parentPort } from 'node:worker_threads';
import type { Transferable } from 'node:worker_threads';
import { analysisTasks } from './analysis-tasks.ts';
import type { ImageThreadReply, ImageThreadRequest, ImageThreadTasks } from './image-threads.ts';
import { upscaleTile } from './upscale-tile.ts';

/**
 * One image thread (`image-threads.ts`): its own tfjs WASM runtime, each model loaded on first
 * use (or by a warm-up task), then one task at a time: the image analysis's tasks and the
 * super-resolution of a tile. Started through `image-worker-entry.mjs`, which makes this
 * TypeScript loadable in the thread.
 */

const tasks: ImageThreadTasks = { ...analysisTasks, upscaleTile };

const port = parentPort;
if (!port) throw new Error('image-worker.ts runs as a worker thread only');

port.on('message', (request: ImageThreadRequest) => {
  void (async () => {
    if (!Object.hasOwn(tasks, request.task)) throw new Error(`no image task ${request.task}`);
    const task = tasks[request.task] as (...args: unknown[]) => Promise<unknown>;
    return task(...request.args);
  })().then(
    (result) => {
      // A tile's pixels move back to the caller instead of being copied.
      const transfer: Transferable[] =
        result instanceof Uint8Array && result.buffer instanceof ArrayBuffer ? [result.buffer] : [];
      port.postMessage({ result } as ImageThreadReply, transfer);
    },
    (error: unknown) =>
      port.postMessage({
        error:
          error instanceof Error
            ? { name: error.name, message: error.message, stack: error.stack }
            : { name: 'Error', message: String(error), stack: undefined },
      } satisfies ImageThreadReply),
  );
});
