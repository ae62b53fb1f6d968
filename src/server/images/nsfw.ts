import { createRequire } from 'node:module';
import path from 'node:path';
import type * as tfCore from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { loadLayersModel, type LayersModel } from '@tensorflow/tfjs-layers';
import sharp from 'sharp';
import { photos } from '../../common/product/photos.ts';
import { getTf, type ModelJson, modelArtifacts, serialised } from './tf.ts';
import type { RgbImage } from './rgb-image.ts';

/**
 * NSFW classification with the models nsfwjs ships (MobileNetV2, MobileNetV2-mid, InceptionV3),
 * run on the shared tfjs WASM runtime. The weights are read from the package's own files: nsfwjs'
 * `load()` is not used because it imports the `@tensorflow/tfjs` bundle, which registers the CPU
 * and WebGL backends beside ours. The pre-processing is nsfwjs': the picture squashed to the
 * model's square, RGB scaled to 0..1.
 */

export const nsfwClasses = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof nsfwClasses)[number];
export type NsfwScores = Record<NsfwClass, number>;

export interface NsfwVerdict {
  flagged: boolean;
  scores: NsfwScores;
}

interface ModelFiles {
  folder: string;
  format: 'layers' | 'graph';
  size: number;
}

export const nsfwModels = {
  MobileNetV2: { folder: 'mobilenet_v2', format: 'layers', size: 224 },
  MobileNetV2Mid: { folder: 'mobilenet_v2_mid', format: 'graph', size: 224 },
  InceptionV3: { folder: 'inception_v3', format: 'layers', size: 299 },
} as const satisfies Record<string, ModelFiles>;
export type NsfwModelName = keyof typeof nsfwModels;

/**
 * The model the app runs. On the benchmark's ordinary pictures (bench/results/nsfw.md) its
 * highest Porn + Hentai is 0.21 where MobileNetV2 reaches 0.68 (a dark example picture), and it
 * is the faster of the two on WASM; InceptionV3 is ten times slower. nsfwjs puts it at 93%
 * accuracy against MobileNetV2's 90%.
 */
export const nsfwModel: NsfwModelName = 'MobileNetV2Mid';

/**
 * The rule: a picture is flagged when the explicit classes together (Porn + Hentai) reach the
 * threshold, or when Sexy alone reaches the point halfway from the threshold to certainty:
 * swimwear and underwear (a try-on's garments) score Sexy, and only a near-certain Sexy is
 * refused on its own. Drawing and Neutral never count.
 */
export function isFlagged(scores: NsfwScores, threshold: number): boolean {
  return scores.Porn + scores.Hentai >= threshold || scores.Sexy >= (1 + threshold) / 2;
}

type Model = GraphModel | LayersModel;
const loading = new Map<NsfwModelName, Promise<Model>>();

const require = createRequire(import.meta.url);
// nsfwjs' "exports" hide its package.json and model files; its main entry is dist/cjs/index.js.
const modelsDir = path.resolve(path.dirname(require.resolve('nsfwjs')), '../models');

/**
 * The package keeps each model as browserify bundles: `model.min.js` exports the model JSON,
 * each `group1-shardXofN.min.js` a shard of the weights in base64.
 */
function readBundledModel(files: ModelFiles): tfCore.io.ModelArtifacts {
  const folder = path.join(modelsDir, files.folder);
  // Without the model's own metadata, as always: mobilenet_v2_mid carries a signature there, which
  // tfjs would take over the graph's to name its inputs and outputs.
  const { userDefinedMetadata: _metadata, ...json } = require(
    path.join(folder, 'model.min.js'),
  ) as ModelJson;
  return modelArtifacts(json, (shard) =>
    Buffer.from(require(path.join(folder, `${shard}.min.js`)) as string, 'base64'),
  );
}

async function loadModel(name: NsfwModelName): Promise<Model> {
  const tf = await getTf();
  const files: ModelFiles = nsfwModels[name];
  const handler = tf.io.fromMemory(readBundledModel(files));
  return files.format === 'graph' ? loadGraphModel(handler) : loadLayersModel(handler);
}

function getModel(name: NsfwModelName): Promise<Model> {
  let model = loading.get(name);
  if (!model) {
    model = loadModel(name);
    loading.set(name, model);
    // A failed load is retried on the next call, not cached.
    model.catch(() => loading.delete(name));
  }
  return model;
}

/** The picture squashed to the model's square, as nsfwjs feeds it: RGB bytes, upright. */
async function modelInput(image: Buffer | RgbImage, size: number): Promise<Buffer> {
  const decoder = Buffer.isBuffer(image)
    ? sharp(image, { limitInputPixels: photos.maxPixels }).rotate()
    : sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  return decoder
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
}

/** The model's five probabilities for a picture (encoded bytes, or RGB pixels). */
export async function nsfwScores(
  image: Buffer | RgbImage,
  modelName: NsfwModelName = nsfwModel,
): Promise<NsfwScores> {
  const { size } = nsfwModels[modelName];
  const [pixels, model, tf] = await Promise.all([
    modelInput(image, size),
    getModel(modelName),
    getTf(),
  ]);
  // nsfwjs' scale: each channel 0..1.
  const input = Float32Array.from(pixels, (value) => value / 255);
  const probabilities = await serialised(async () => {
    // Every nsfwjs model has one output: the five probabilities.
    const output = tf.tidy(
      () => model.predict(tf.tensor4d(input, [1, size, size, 3])) as tfCore.Tensor,
    );
    try {
      return await output.data();
    } finally {
      output.dispose();
    }
  });
  return Object.fromEntries(
    nsfwClasses.map((name, index) => [name, probabilities[index] ?? 0]),
  ) as NsfwScores;
}

/** Classifies a picture and applies the rule (`isFlagged`) at the given threshold. */
export async function classifyNsfw(
  image: Buffer | RgbImage,
  threshold: number,
): Promise<NsfwVerdict> {
  const scores = await nsfwScores(image);
  return { flagged: isFlagged(scores, threshold), scores };
}

/** Loads the model and runs it once, so the first real picture does not pay for it. */
export async function warmUp(modelName: NsfwModelName = nsfwModel): Promise<void> {
  const { size } = nsfwModels[modelName];
  await nsfwScores(
    { data: Buffer.alloc(size * size * 3, 128), width: size, height: size },
    modelName,
  );
}
