import { parentPort } from 'node:worker_threads';
import {
  analysisTasks,
  type AnalysisReply,
  type AnalysisRequest,
  type AnalysisTaskName,
} from './analysis-tasks.ts';

/**
 * One thread of the image analysis pool (`analysis.ts`): its own tfjs WASM runtime, each model
 * loaded once on first use (or by a warm-up task), then one task at a time. Started through
 * `analysis-worker-entry.mjs`, which makes this TypeScript loadable in the thread.
 */

const port = parentPort;
if (!port) throw new Error('analysis-worker.ts runs as a worker thread only');

port.on('message', (request: AnalysisRequest) => {
  const task = analysisTasks[request.task] as (...args: unknown[]) => Promise<unknown>;
  void (async () => {
    if (!(request.task in analysisTasks)) throw new Error(`no analysis task ${request.task}`);
    return task(...request.args);
  })().then(
    (result) => port.postMessage({ result } as AnalysisReply<AnalysisTaskName>),
    (error: unknown) => {
      const reply: AnalysisReply = {
        error:
          error instanceof Error
            ? { name: error.name, message: error.message, stack: error.stack }
            : { name: 'Error', message: String(error), stack: undefined },
      };
      port.postMessage(reply);
    },
  );
});
