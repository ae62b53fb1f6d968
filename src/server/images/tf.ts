import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

/**
 * The one tfjs runtime of a process (or of a worker thread): tfjs-core on the WASM backend, the
 * same module instance @vladmandic/human uses, so every model (faces, segmentation, pose, NSFW,
 * super-resolution) shares one backend and one memory. Models are read from files inside npm
 * packages: nothing is downloaded at run time.
 *
 * tfjs keeps global state: run one model at a time per runtime (`serialised`).
 */

const require = createRequire(import.meta.url);

/** The folder of an installed package (its package.json's folder). */
export function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

export const wasmDir = `${packageDir('@tensorflow/tfjs-backend-wasm')}/dist/`;

let ready: Promise<typeof tf> | null = null;

/** tfjs on the WASM backend, ready to run. Safe to call from anywhere, any number of times. */
export function getTf(): Promise<typeof tf> {
  if (!ready) {
    ready = (async () => {
      setWasmPaths(wasmDir);
      registerFileLoader();
      await withoutWasmHandlers(() => tf.setBackend('wasm'));
      await tf.ready();
      return tf;
    })();
    ready.catch(() => {
      ready = null;
    });
  }
  return ready;
}

let fileLoaderRegistered = false;
/** tfjs-node would read `file://` URLs; without it, models are read from disk here. */
export function registerFileLoader(): void {
  if (fileLoaderRegistered) return;
  fileLoaderRegistered = true;
  // A router answers null for URLs that are not its own (tfjs's typing says otherwise).
  tf.io.registerLoadRouter(((url: string | string[]) =>
    typeof url === 'string' && url.startsWith('file://')
      ? tf.io.fromMemory(readModelArtifacts(url.slice('file://'.length)))
      : null) as unknown as Parameters<typeof tf.io.registerLoadRouter>[0]);
}

/** A tfjs model's `model.json`, as tfjs writes it. */
export interface ModelJson {
  modelTopology: tf.io.ModelArtifacts['modelTopology'];
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
}

/**
 * One artifacts object from a model's JSON and its weight shards, each read by `readShard` from
 * its path in the weights manifest and joined in the manifest's order.
 */
export function modelArtifacts(
  json: ModelJson,
  readShard: (shardPath: string) => Buffer,
): tf.io.ModelArtifacts {
  const specs: tf.io.WeightsManifestEntry[] = [];
  const buffers: Buffer[] = [];
  for (const group of json.weightsManifest) {
    specs.push(...group.weights);
    for (const part of group.paths) buffers.push(readShard(part));
  }
  const all = Buffer.concat(buffers);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    signature: json.signature,
    userDefinedMetadata: json.userDefinedMetadata,
    weightSpecs: specs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer,
  };
}

/** A tfjs graph model's JSON and its weight shards, read from disk into one artifacts object. */
export function readModelArtifacts(modelJsonPath: string): tf.io.ModelArtifacts {
  const json = JSON.parse(readFileSync(modelJsonPath, 'utf8')) as ModelJson;
  return modelArtifacts(json, (part) => readFileSync(path.join(path.dirname(modelJsonPath), part)));
}

/** Loads a graph model from a `model.json` path on disk (inside an npm package). */
export async function loadGraphModelFile(modelJsonPath: string): Promise<GraphModel> {
  await getTf();
  return loadGraphModel(tf.io.fromMemory(readModelArtifacts(modelJsonPath)));
}

/**
 * The WASM module adds process-wide handlers that rethrow every uncaught exception and unhandled
 * rejection from inside its own (minified) code; take them back off so errors keep Node's own
 * handling and readable stacks.
 */
export async function withoutWasmHandlers<T>(task: () => Promise<T>): Promise<T> {
  const uncaught = process.listeners('uncaughtException');
  const unhandled = process.listeners('unhandledRejection');
  try {
    return await task();
  } finally {
    for (const listener of process.listeners('uncaughtException'))
      if (!uncaught.includes(listener)) process.off('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection'))
      if (!unhandled.includes(listener)) process.off('unhandledRejection', listener);
  }
}

// One model run at a time per runtime: a promise chain as a mutex.
let queue: Promise<unknown> = Promise.resolve();
export function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}
