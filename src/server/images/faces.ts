import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, FaceResult, Human, Point } from '@vladmandic/human';
import sharp from 'sharp';
import { photos } from '../../common/product/photos.ts';
import { chromaSpread, isColourless } from './colourfulness.ts';
import {
  alignedFace,
  describeAlignedFace,
  greyIdentityModel,
  identityModel,
  type IdentityModel,
} from './identity.ts';
import { getTf, serialised, wasmDir, withoutWasmHandlers } from './tf.ts';
import { varietyPatchOf, type GreyImage } from './variety.ts';

/**
 * Face analysis with @vladmandic/human on the tfjs WASM backend: offline (models ship in the
 * package), no GPU, no native tfjs. One instance per process, loaded on first use, and one
 * `detect` at a time (tfjs keeps global state). Who the face is comes from `identity.ts`, on the
 * face aligned by the mesh's landmarks. The rules that judge a photo live in `photo-checks.ts`;
 * this file only measures.
 */

/** Pixels in the upright (EXIF-rotated) full-size image. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Points in pixels of the upright full-size image. `leftEye` is the eye on the left of the
 * picture (the person's right eye), `rightEye` the one on the right.
 */
export interface FaceLandmarks {
  leftEye: [number, number];
  rightEye: [number, number];
  nose: [number, number];
  mouth: [number, number];
}

export interface DetectedFace {
  box: FaceBox;
  /** The detector's confidence, 0..1. */
  score: number;
  /**
   * The face descriptor (`identityModel`'s, 256 numbers); compare two with `faceSimilarity`.
   * Empty when the face has no landmarks to align it by.
   */
  embedding: number[];
  /**
   * Variance of the Laplacian of the face box in grey, resized to `sharpnessSize` square first,
   * so the figure does not depend on the photo's resolution. Higher is sharper.
   */
  sharpness: number;
  landmarks: FaceLandmarks | null;
  /**
   * The face's outline from the mesh, around the forehead, cheeks, jaw and chin (pixels of the
   * upright full-size image); empty without a mesh.
   */
  outline: [number, number][];
  /**
   * The grey picture around the face, aligned by the eyes, that the variety check registers
   * against the draft's other photos (`variety.ts`); null without landmarks.
   */
  variety: Buffer | null;
  /**
   * With `{ grey: true }` and landmarks: the face seen without its colour, for pictures that have
   * none (see `profileSimilarity`).
   */
  grey?: GreyFace;
}

export interface GreyFace {
  /** The descriptor of the face's luminance (`greyIdentityModel`): compare with a grey profile. */
  embedding: number[];
  /** The colour spread of the descriptor's crop (`chromaSpread`): low when it has no colour. */
  chromaSpread: number;
}

export interface FaceAnalysisOptions {
  /** Also describe each face from its luminance (`DetectedFace.grey`): one more model run each. */
  grey?: boolean;
}

export interface PhotoAnalysis {
  /** The upright (EXIF-rotated) full-size image. */
  width: number;
  height: number;
  faces: DetectedFace[];
}

/** The longest side the detector sees; boxes are mapped back to full-size pixels. */
export const detectionMaxSide = 1024;
/** The side of the square the face box is resized to before measuring sharpness. */
export const sharpnessSize = 256;

const humanConfig: Partial<Config> = {
  debug: false,
  backend: 'wasm',
  // Every photo is a new picture: never reuse a previous frame's results.
  cacheSensitivity: 0,
  filter: { enabled: false },
  face: {
    enabled: true,
    detector: {
      // Rotation-aware: selfies are often tilted.
      rotation: true,
      maxDetected: 10,
      // Low on purpose: `photo-checks.ts` decides which faces count.
      minConfidence: 0.3,
      skipFrames: 0,
      skipTime: 0,
    },
    // The landmarks (and the descriptor, aligned by them) come from the mesh.
    mesh: { enabled: true },
    // human's own descriptor (faceres) separates people less well than `identityModel`.
    description: { enabled: false },
    iris: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
    gear: { enabled: false },
  } as Config['face'],
  body: { enabled: false } as Config['body'],
  hand: { enabled: false } as Config['hand'],
  object: { enabled: false } as Config['object'],
  gesture: { enabled: false },
  segmentation: { enabled: false } as Config['segmentation'],
};

let loading: Promise<Human> | null = null;

async function createHuman(): Promise<Human> {
  const require = createRequire(import.meta.url);
  // human's package "exports" resolve "node" to the tfjs-node build; load the WASM build by path.
  const humanDir = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const { Human: HumanClass } = require(path.join(humanDir, 'dist/human.node-wasm.js')) as {
    Human: new (config: Partial<Config>) => Human;
  };
  await getTf();
  const human = new HumanClass({
    ...humanConfig,
    wasmPath: wasmDir,
    modelBasePath: `file://${path.join(humanDir, 'models')}/`,
  });
  await withoutWasmHandlers(async () => {
    await human.load();
    await human.init();
  });
  return human;
}

function getHuman(): Promise<Human> {
  if (!loading) {
    loading = createHuman();
    // A failed load (e.g. a missing model file) is retried on the next call, not cached.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

let detectionBuffer = new Float32Array(0);

/**
 * The pixels as the float32 values the detector computes on, in one array kept for the next
 * photo: tfjs copies them into the WASM heap when the tensor is made, and detections run one at
 * a time (`serialised`). A new 9 MB array per photo made a third of the analysis garbage
 * collection. Floats, not int32: human casts an int32 picture to float32 first, one more pass
 * over it in WASM for the same values.
 */
function detectionInput(pixels: Uint8Array): Float32Array {
  if (detectionBuffer.length < pixels.length) detectionBuffer = new Float32Array(pixels.length);
  const values = detectionBuffer.subarray(0, pixels.length);
  values.set(pixels);
  return values;
}

async function detect(image: RawImage): Promise<FaceResult[]> {
  const human = await getHuman();
  return serialised(async () => {
    const tensor = human.tf.tensor3d(
      detectionInput(image.data),
      [image.height, image.width, 3],
      'float32',
    );
    try {
      const result = await human.detect(tensor);
      if (result.error) throw new Error(`Face detection failed: ${result.error}`);
      return result.face;
    } finally {
      human.tf.dispose(tensor);
    }
  });
}

/** Loads the models and runs one detection, so the first real photo does not pay for it. */
export async function warmUp(): Promise<void> {
  const width = 256;
  const data = await sharp({
    create: { width, height: width, channels: 3, background: { r: 128, g: 128, b: 128 } },
  })
    .raw()
    .toBuffer();
  await detect({ data, width, height: width });
  await describe({ data, width, height: width }, blankFacePoints(width));
}

/** Where a face would be in a square of this side, for a warm-up run of the descriptor. */
function blankFacePoints(side: number): FaceLandmarks {
  return {
    leftEye: [side * 0.35, side * 0.45],
    rightEye: [side * 0.65, side * 0.45],
    nose: [side * 0.5, side * 0.6],
    mouth: [side * 0.5, side * 0.75],
  };
}

/** The face's descriptor on its aligned crop (points in pixels of `image`). */
function describe(
  image: RawImage,
  points: FaceLandmarks,
  model: IdentityModel = identityModel,
): Promise<number[]> {
  return serialised(() => describeAlignedFace(model, alignedFace(image, points, model)));
}

/** The face without its colour: its grey descriptor and how much colour its crop has. */
async function describeGrey(image: RawImage, points: FaceLandmarks): Promise<GreyFace> {
  // The crop the descriptor sees, in plain 0..255 pixels.
  const { inputSize, framing } = identityModel;
  const crop = alignedFace(image, points, { inputSize, framing, scale: 1, offset: 0 });
  return {
    embedding: await describe(image, points, greyIdentityModel),
    chromaSpread: chromaSpread(crop, inputSize),
  };
}

/**
 * Finds the faces of a photo. `input` is an encoded JPEG, PNG or WebP; it is decoded upright
 * (EXIF orientation applied) under the product's pixel limit, scaled down so its longest side
 * is at most `detectionMaxSide` for the detector, and every figure is given back in full-size
 * pixels. Throws when the bytes cannot be decoded. `{ grey: true }` adds each face's grey
 * descriptor (`DetectedFace.grey`).
 */
export async function analyzePhoto(
  input: Buffer,
  options: FaceAnalysisOptions = {},
): Promise<PhotoAnalysis> {
  return analyzeDecodedPhoto(await decodeForAnalysis(input), options);
}

/** A photo as `analyzePhoto` looks at it: upright, its longest side at most `detectionMaxSide`. */
export interface DecodedPhoto {
  image: RawImage;
  /** The upright full size, which every figure of the analysis is given in. */
  width: number;
  height: number;
}

/**
 * The decoding half of `analyzePhoto`: sharp's work, on libuv's threads. Done apart, the next
 * photos decode while the models look at this one (analysis.ts). Throws when the bytes cannot be
 * decoded.
 */
export async function decodeForAnalysis(input: Buffer): Promise<DecodedPhoto> {
  const { data, info, width, height } = await decodeUpright(input, detectionMaxSide);
  if (info.channels !== 3) throw new Error(`Expected 3 colour channels, got ${info.channels}`);
  return { image: { data, width: info.width, height: info.height }, width, height };
}

/** The models' half of `analyzePhoto`, on a photo `decodeForAnalysis` decoded. */
export async function analyzeDecodedPhoto(
  { image, width, height }: DecodedPhoto,
  options: FaceAnalysisOptions = {},
): Promise<PhotoAnalysis> {
  const toFullX = width / image.width;
  const toFullY = height / image.height;

  // The grey picture the sharpness and the variety patch are measured on: sharp makes it on
  // libuv's threads while the detector runs here (wasted on a photo without a face).
  const greyImage = greyOf(image);
  greyImage.catch(() => undefined); // its error is thrown where it is used: a face's Promise.all
  const results = await detect(image);
  const faces: DetectedFace[] = [];
  for (const face of results) {
    const [bx, by, bw, bh] = face.box;
    // Clip to the picture: the detector's box may reach past an edge.
    const left = Math.max(0, Math.floor(bx));
    const top = Math.max(0, Math.floor(by));
    const right = Math.min(image.width, Math.ceil(bx + bw));
    const bottom = Math.min(image.height, Math.ceil(by + bh));
    if (right - left < 2 || bottom - top < 2) continue;
    const point = ([x, y]: [number, number]): [number, number] => [x * toFullX, y * toFullY];
    const landmarks = faceLandmarks(face);
    // sharp's work (the sharpness crop, the variety patch) runs on libuv's threads while the
    // descriptors run here: together rather than one after the other.
    const [embedding, faceSharpness, variety, grey] = await Promise.all([
      landmarks ? describe(image, landmarks) : [],
      greyImage.then((picture) =>
        sharpness(picture, { x: left, y: top, width: right - left, height: bottom - top }),
      ),
      landmarks && greyImage.then((picture) => varietyPatchOf(picture, landmarks)),
      options.grey && landmarks ? describeGrey(image, landmarks) : undefined,
    ]);
    faces.push({
      box: {
        x: left * toFullX,
        y: top * toFullY,
        width: (right - left) * toFullX,
        height: (bottom - top) * toFullY,
      },
      score: face.boxScore,
      embedding,
      sharpness: faceSharpness,
      outline: (face.annotations?.silhouette ?? []).map(([x, y]) => point([x, y])),
      landmarks: landmarks && {
        leftEye: point(landmarks.leftEye),
        rightEye: point(landmarks.rightEye),
        nose: point(landmarks.nose),
        mouth: point(landmarks.mouth),
      },
      variety,
      ...(grey && { grey }),
    });
  }
  return { width, height, faces };
}

/** The longest side the small-face search looks at (full size when smaller). */
export const smallFaceSearchMaxSide = 2048;
/** The square tiles it cuts that view into; neighbours overlap by a quarter. */
export const smallFaceTile = 512;

/**
 * Looks for faces too small for `analyzePhoto` to see: at `detectionMaxSide` a face a few
 * percent of the photo wide is under the detector's smallest size (quality/tiny-face's 41 px face
 * in 1600 px is 26 px there). The photo is searched in overlapping tiles at up to
 * `smallFaceSearchMaxSide` instead, where such a face is two to four times larger. Only boxes and
 * scores, in full-size pixels: enough to say "Face too small" rather than "No face found". Slower
 * than `analyzePhoto` (one detection per tile, 12 for a 1600x1200 photo), so it is meant for
 * photos in which that found no face.
 */
export async function findSmallFaces(input: Buffer): Promise<{ box: FaceBox; score: number }[]> {
  const { scale, ...view } = await decodeUpright(input, smallFaceSearchMaxSide);
  const starts = (length: number) => {
    if (length <= smallFaceTile) return [0];
    const stride = Math.round(smallFaceTile * 0.75);
    const list: number[] = [];
    for (let at = 0; at + smallFaceTile < length; at += stride) list.push(at);
    list.push(length - smallFaceTile);
    return list;
  };
  const found: { box: FaceBox; score: number }[] = [];
  for (const top of starts(view.info.height)) {
    for (const left of starts(view.info.width)) {
      const tileWidth = Math.min(smallFaceTile, view.info.width);
      const tileHeight = Math.min(smallFaceTile, view.info.height);
      const data = await sharp(view.data, {
        raw: { width: view.info.width, height: view.info.height, channels: 3 },
      })
        .extract({ left, top, width: tileWidth, height: tileHeight })
        .raw()
        .toBuffer();
      for (const face of await detect({ data, width: tileWidth, height: tileHeight })) {
        const [bx, by, bw, bh] = face.box;
        found.push({
          box: {
            x: (left + bx) / scale,
            y: (top + by) / scale,
            width: bw / scale,
            height: bh / scale,
          },
          score: face.boxScore,
        });
      }
    }
  }
  return found.sort((a, b) => b.score - a.score);
}

/**
 * The photo upright (EXIF orientation applied) as sRGB pixels, shrunk so its longer side is at
 * most `maxSide`; with its full upright size and the scale between the two.
 */
async function decodeUpright(input: Buffer, maxSide: number) {
  const decoder = () => sharp(input, { limitInputPixels: photos.maxPixels });
  const metadata = await decoder().metadata();
  const width = metadata.autoOrient.width;
  const height = metadata.autoOrient.height;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const { data, info } = await decoder()
    .rotate()
    .resize({
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      fit: 'fill',
    })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info, width, height, scale };
}

function centre(points: Point[] | undefined): [number, number] | null {
  if (!points || points.length === 0) return null;
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p[0];
    y += p[1];
  }
  return [x / points.length, y / points.length];
}

/** Eye centres, nose tip and mouth centre from the face mesh, in detection-image pixels. */
function faceLandmarks(face: FaceResult): FaceLandmarks | null {
  const a = face.annotations;
  if (!a) return null;
  const eyeA = centre([...(a.leftEyeUpper0 ?? []), ...(a.leftEyeLower0 ?? [])]);
  const eyeB = centre([...(a.rightEyeUpper0 ?? []), ...(a.rightEyeLower0 ?? [])]);
  const nose = centre(a.noseTip);
  const mouth = centre([...(a.lipsUpperOuter ?? []), ...(a.lipsLowerOuter ?? [])]);
  if (!eyeA || !eyeB || !nose || !mouth) return null;
  const [leftEye, rightEye] = eyeA[0] <= eyeB[0] ? [eyeA, eyeB] : [eyeB, eyeA];
  return { leftEye, rightEye, nose, mouth };
}

/**
 * The picture in grey, one byte a pixel, as sharp's `greyscale()` makes it. sharp converts to grey
 * before it resizes (and per pixel, so an `extract` before it changes nothing): a pipeline ending
 * in `greyscale()` gives the same bytes from this picture as from the colour one, and the colour
 * is converted once per photo rather than once per measurement.
 */
async function greyOf(image: RawImage): Promise<GreyImage> {
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .greyscale()
    .raw()
    .toBuffer();
  return { data, width: image.width, height: image.height, channels: 1 };
}

/** Variance of the 4-neighbour Laplacian of the box, in grey, at `sharpnessSize` square. */
async function sharpness(image: GreyImage, box: FaceBox): Promise<number> {
  const grey = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .resize(sharpnessSize, sharpnessSize, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  return laplacianVariance(grey, sharpnessSize, sharpnessSize);
}

export function laplacianVariance(grey: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumOfSquares = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value =
        grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += value;
      sumOfSquares += value * value;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumOfSquares / n - mean * mean;
}

/**
 * How alike two face descriptors are: their cosine similarity, negatives as 0, so 0..1 (1 = the
 * same face). Unlike `human.match.similarity` (a Euclidean distance) it ignores the vectors'
 * length, so a descriptor can be compared with an L2-normalised mean of several. Descriptors of
 * different lengths come from different models (one stored before decision 022) and say nothing
 * about each other: 0.
 */
export function faceSimilarity(a: number[], b: number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.max(0, Math.min(1, dot / Math.sqrt(normA * normB)));
}

/**
 * The mean of descriptors, each scaled to unit length first, scaled to unit length: a person's
 * face over several photos (a model's profile). Null without descriptors.
 */
export function meanDescriptor(descriptors: number[][]): number[] | null {
  const present = descriptors.filter((descriptor) => descriptor.length > 0);
  if (present.length === 0) return null;
  const mean = new Array<number>(present[0]!.length).fill(0);
  for (const descriptor of present) {
    const norm = Math.hypot(...descriptor) || 1;
    for (let i = 0; i < mean.length; i++) mean[i]! += (descriptor[i] ?? 0) / norm;
  }
  const norm = Math.hypot(...mean) || 1;
  return mean.map((value) => value / norm);
}

/** A model's face: the mean descriptor of its photos, and of their luminance when measured. */
export interface FaceProfile {
  embedding: number[];
  greyEmbedding: number[] | null;
}

/**
 * How alike a face is to a model's profile (`faceSimilarity`). A face without colour of its own
 * (`isColourless`: black and white, sepia, a duotone) is compared in grey when it was described
 * in grey and the profile has a grey descriptor: MobileFace reads colour, so in colour a
 * black-and-white picture loses the likeness the picture itself keeps (decision 033). Null when
 * the face's colour descriptor comes from another model than the profile's (one made before
 * decision 022).
 */
export function profileSimilarity(face: DetectedFace, profile: FaceProfile): number | null {
  if (face.grey && profile.greyEmbedding && isColourless(face.grey.chromaSpread))
    return faceSimilarity(face.grey.embedding, profile.greyEmbedding);
  if (face.embedding.length !== profile.embedding.length) return null;
  return faceSimilarity(face.embedding, profile.embedding);
}
