import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs-core';
import {
  loadLayersModel,
  model as functionalModel,
  type LayersModel,
  type SymbolicTensor,
} from '@tensorflow/tfjs-layers';
import { getTf, readModelArtifacts, serialised } from './tf.ts';

/**
 * The super-resolution of one tile (`upscale.ts` cuts the picture into tiles), run on an image
 * thread (`image-worker.ts`) with that thread's tfjs WASM runtime, each model loaded once.
 */

/** A rectangle in pixels. */
export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TileRequest {
  /** The tile with its context around it, RGB, 3 bytes a pixel. */
  pixels: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  /** The tile without its context, in the request's pixels: the part whose output comes back. */
  keep: PixelRect;
}

/**
 * The ESRGAN models end with a nearest-neighbour upsampling of 48 channels by the scale, then a
 * 3x3 convolution to RGB at the output's size. That convolution is folded here into one at the
 * input's size with a 48-channel result (every output pixel of an input pixel's block, in RGB)
 * and a depth-to-space: the same picture (within 0.0005 of a level) without the 48 channels at
 * 16 times the pixels, which took most of the memory and made tiles beyond ~150 px slower per
 * pixel.
 */
interface FoldedModel {
  /** The model up to the layer before the upsampling. */
  features: LayersModel;
  kernel: tf.Tensor4D;
  bias: tf.Tensor1D;
  scale: number;
}

async function loadFoldedModel(modelJsonPath: string): Promise<FoldedModel> {
  await getTf();
  const loaded = await loadLayersModel(tf.io.fromMemory(readModelArtifacts(modelJsonPath)));
  const [beforeUpsampling, upsampling, toRgb] = loaded.layers.slice(-3);
  const upsamplingConfig = upsampling?.getConfig() ?? {};
  const toRgbConfig = toRgb?.getConfig() ?? {};
  const scale = (upsamplingConfig.size as number[] | undefined)?.[0];
  if (
    upsampling?.getClassName() !== 'UpSampling2D' ||
    upsamplingConfig.interpolation !== 'nearest' ||
    !scale ||
    JSON.stringify(upsamplingConfig.size) !== JSON.stringify([scale, scale]) ||
    toRgb?.getClassName() !== 'Conv2D' ||
    JSON.stringify(toRgbConfig.kernelSize) !== '[3,3]' ||
    JSON.stringify(toRgbConfig.strides) !== '[1,1]' ||
    JSON.stringify(toRgbConfig.dilationRate) !== '[1,1]' ||
    toRgbConfig.padding !== 'same' ||
    toRgbConfig.activation !== 'linear' ||
    toRgbConfig.useBias !== true
  )
    throw new Error(`${modelJsonPath} does not end in upsampling and a 3x3 convolution to RGB`);
  const [kernel, bias] = toRgb!.getWeights();
  const features = functionalModel({
    inputs: loaded.inputs,
    outputs: beforeUpsampling!.output as SymbolicTensor,
  });
  return { features, ...foldConvolution(kernel!, bias!, scale), scale };
}

function foldConvolution(
  kernel: tf.Tensor,
  bias: tf.Tensor,
  scale: number,
): { kernel: tf.Tensor4D; bias: tf.Tensor1D } {
  const [, , inputs, outputs] = kernel.shape as [number, number, number, number];
  const weights = kernel.dataSync();
  const biases = bias.dataSync();
  const foldedOutputs = scale * scale * outputs;
  const folded = new Float32Array(3 * 3 * inputs * foldedOutputs);
  const foldedBias = new Float32Array(foldedOutputs);
  for (let row = 0; row < scale; row++) {
    for (let column = 0; column < scale; column++) {
      // Output channel order of depth-to-space: the block's row, its column, then RGB.
      const firstOutput = (row * scale + column) * outputs;
      foldedBias.set(biases, firstOutput);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          // The upsampled pixel this tap reads is a copy of this input pixel (-1, 0 or +1).
          const inputY = Math.floor((row + dy) / scale) + 1;
          const inputX = Math.floor((column + dx) / scale) + 1;
          for (let input = 0; input < inputs; input++) {
            const from = (((dy + 1) * 3 + dx + 1) * inputs + input) * outputs;
            const to = ((inputY * 3 + inputX) * inputs + input) * foldedOutputs + firstOutput;
            for (let output = 0; output < outputs; output++)
              folded[to + output]! += weights[from + output]!;
          }
        }
      }
    }
  }
  return {
    kernel: tf.tensor4d(folded, [3, 3, inputs, foldedOutputs]),
    bias: tf.tensor1d(foldedBias),
  };
}

const loaded = new Map<string, Promise<FoldedModel>>();

/** `request.keep` upscaled by the layers model at `modelJsonPath`: RGB, 3 bytes a pixel. */
export async function upscaleTile(
  modelJsonPath: string,
  request: TileRequest,
): Promise<Uint8Array<ArrayBuffer>> {
  let model = loaded.get(modelJsonPath);
  if (!model) {
    model = loadFoldedModel(modelJsonPath);
    loaded.set(modelJsonPath, model);
    // A failed load fails this tile; the next tile tries again.
    model.catch(() => loaded.delete(modelJsonPath));
  }
  return serialised(async () => runTile(request, await model));
}

function runTile(request: TileRequest, model: FoldedModel): Uint8Array<ArrayBuffer> {
  const kept = tf.tidy(() => {
    // The ESRGAN RDN models take and give 0-255 floats (their package's `inputRange`).
    const input = tf.tensor4d(
      Float32Array.from(request.pixels),
      [1, request.height, request.width, 3],
      'float32',
    );
    const features = model.features.predict(input) as tf.Tensor4D;
    const blocks = tf.add(tf.conv2d(features, model.kernel, 1, 'same'), model.bias);
    const { left, top, width, height } = request.keep;
    const keptBlocks = tf.slice(blocks, [0, top, left, 0], [1, height, width, -1]);
    return tf.depthToSpace(keptBlocks as tf.Tensor4D, model.scale, 'NHWC');
  });
  try {
    // Float to byte conversion through a clamped array rounds and clamps to 0-255 in one step,
    // read straight from the WASM heap: `data()` would first copy the floats out (4 bytes a
    // value, 7 MB for a 192 px tile), a large short-lived allocation on every tile that the
    // thread's malloc keeps as fragmented memory.
    const floats = (tf.backend() as BackendWasm).typedArrayFromHeap(kept);
    const bytes = new Uint8ClampedArray(floats.length);
    bytes.set(floats);
    return new Uint8Array(bytes.buffer);
  } finally {
    kept.dispose();
  }
}
