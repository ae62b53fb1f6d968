import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { ZodError } from 'zod';
import { messages } from '../../../common/messages.ts';
import { photos as photoRules } from '../../../common/product.ts';
import {
  analyzePhoto,
  type DetectedFace,
  type FaceLandmarks,
  type PhotoAnalysis,
} from '../../images/faces.ts';
import { countedFaces } from '../../images/photo-checks.ts';
import type { Storage } from '../storage/storage.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
  GenerationRequest,
} from './generation-engine.ts';
import { readLikenessProfile, type LikenessCrop, type LikenessProfile } from './local-training.ts';
import { previewBadgeOverlay } from './preview-badge.ts';
import { EngineError } from './training-engine.ts';

/**
 * The `local` generation engine: no GPU, no network, well under a second per image. It makes a
 * *preview*: the user's face from the likeness profile (see local-training.ts) composed into the
 * preset's picture, not an AI render, and the picture says so with a "Preview" badge.
 *
 * 1. Finds the face in the preset picture and its eye, nose and mouth landmarks (remembered per
 *    picture content, so a preset's next previews skip the detection).
 * 2. Picks the profile crop closest in pose (the nose's offset along and across the eye line),
 *    a mirrored crop when that matches much better.
 * 3. Maps the crop onto the preset face with the similarity transform (scale, rotation,
 *    translation) that best lays its eyes and mouth on the preset's (least squares).
 * 4. Matches its colour to the preset face's: per-channel mean and spread in CIELAB over the face
 *    region (a monochrome or duotone style gives a face in its tones), then replaces the crop's
 *    broad shading with the preset face's (masked blur), so the light falls as in the picture.
 * 5. Blends it through a feathered egg-shaped mask over the inner face (eyebrows to chin, not the
 *    hair or the ears); outside the eyes-nose-mouth zone, whatever in the crop is not skin-like
 *    (its hair, its background beside a narrow face) is left out. Nothing outside the mask's
 *    bounding box changes.
 * 6. Draws the small "Preview" badge (preview-badge.ts) in the bottom-right corner and encodes a
 *    JPEG of the preset's size.
 *
 * The pixel work runs in plain loops over the face region only (a few tens of milliseconds);
 * the time goes to the face detection of a preset picture not seen before.
 */

export const localGenerationRules = {
  /**
   * The face mask in face units: `u` across (× the eye distance, from the eyes' midpoint), `v`
   * down (× the eyes-to-mouth distance, from the eye line). The eyebrows sit about 0.4 v above
   * the eye line and the chin about 1.55 v below it, so the ellipse spans -0.76 to 1.6 v; it is
   * `taper` narrower towards the chin (an egg), and its sides stop inside the cheeks.
   */
  ellipse: { centreV: 0.42, radiusU: 1.04, radiusV: 1.18, taper: 0.2 },
  /** The mask is fully the user's face inside this share of the radius, then fades to 0 at 1. */
  solid: 0.78,
  /**
   * How much of the preset face's shading replaces the crop's (0 = only the global colour
   * match), and the blur radius that separates shading from features (× the ellipse's width).
   */
  shading: 0.8,
  shadingRadius: 0.5,
  skin: {
    /** The crop's reference skin colour is its mean inside this share of the radius. */
    core: 0.5,
    /**
     * The features (eyes, eyebrows, nose, mouth), in face units: always the user's. Elsewhere
     * only skin-like crop pixels are used.
     */
    features: { top: -0.6, eyesBottom: 0.3, bottom: 1.3, eyesHalfWidth: 0.7, mouthHalfWidth: 0.55 },
    /**
     * Skin-like: the Lab distance to the reference (lightness weighted a little down, since the
     * light varies across a face) is below `near`, fading to not at all beyond `far`. Tuned on
     * person A's crops: the dark purple hair beside her cheek in one sits 15-25 from her skin
     * (with lightness weighted 0.6 and 12-24 it came through as a streak).
     */
    lightnessWeight: 0.9,
    near: 10,
    far: 20,
    /** The skin map is smoothed (× the ellipse's width), then eroded, so it has no hard edge. */
    smoothing: 0.08,
  },
  /** Colour matching never stretches a channel's spread by more than this (noise, flat faces). */
  maxSpreadGain: 1.8,
  /** A mirrored crop is only used when its pose is this much closer (faces are not symmetric). */
  mirrorPenalty: 0.12,
  /** Later (lower-quality) crops cost this much more per rank when poses are alike. */
  rankPenalty: 0.03,
  jpegQuality: 90,
  /** Preset pictures whose face is remembered (by content hash). */
  presetCacheSize: 100,
} as const;

type Point = readonly [number, number];

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** The profile crop to use, and whether to mirror it. */
export interface CropChoice {
  crop: LikenessCrop;
  mirrored: boolean;
}

type LandmarkedFace = DetectedFace & { landmarks: FaceLandmarks };

export function createLocalGenerationEngine({ storage }: { storage: Storage }): GenerationEngine {
  // Content hash of a preset picture → its face's landmarks (null: no usable face). Presets
  // are few and rarely change; a replaced picture has another hash.
  const presetFaces = new Map<string, FaceLandmarks | null>();

  const failed = (reason: string): GenerationOutcome => ({
    status: 'failed',
    error: reason,
    reason,
    reference: null,
  });
  const checkAborted = (signal: AbortSignal) => {
    if (signal.aborted) throw new EngineError('The preview was cancelled', { transient: true });
  };

  /** The user model's likeness profile; null when it is not one (unreadable, wrong shape). */
  async function readProfile(key: string): Promise<LikenessProfile | null> {
    try {
      return await readLikenessProfile(storage, key);
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof ZodError) return null;
      throw error;
    }
  }

  /** The preset face's landmarks; undefined when the picture cannot be decoded. */
  async function findPresetFace(bytes: Buffer): Promise<FaceLandmarks | null | undefined> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (presetFaces.has(hash)) {
      const landmarks = presetFaces.get(hash)!;
      // Most recently used last, so the oldest is evicted first.
      presetFaces.delete(hash);
      presetFaces.set(hash, landmarks);
      return landmarks;
    }
    let analysis: PhotoAnalysis;
    try {
      analysis = await analyzePhoto(bytes);
    } catch {
      return undefined;
    }
    const landmarks = mainFace(analysis)?.landmarks ?? null;
    presetFaces.set(hash, landmarks);
    if (presetFaces.size > localGenerationRules.presetCacheSize) {
      presetFaces.delete(presetFaces.keys().next().value!);
    }
    return landmarks;
  }

  return {
    name: 'local',
    makesPreviews: true,

    async generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationOutcome> {
      checkAborted(signal);
      const imageKey = request.preset?.imageKey ?? null;
      if (!imageKey || !(await storage.exists(imageKey))) {
        return failed(messages.generation.presetPictureMissing);
      }
      if (!(await storage.exists(request.weights))) {
        return failed(messages.generation.likenessMissing);
      }
      const [presetBytes, profile] = await Promise.all([
        storage.read(imageKey),
        readProfile(request.weights),
      ]);
      if (!profile) return failed(messages.generation.likenessMissing);

      checkAborted(signal);
      const target = await findPresetFace(presetBytes);
      if (target === undefined) return failed(messages.generation.presetPictureMissing);
      if (target === null) return failed(messages.generation.presetNoFace);

      checkAborted(signal);
      const choice = chooseCrop(profile.crops, target);
      if (!choice || !(await storage.exists(choice.crop.key))) {
        return failed(messages.generation.likenessMissing);
      }
      const [preset, crop] = await Promise.all([
        decode(sharp(presetBytes, { limitInputPixels: photoRules.maxPixels }).rotate()),
        storage.read(choice.crop.key).then((bytes) => decode(sharp(bytes))),
      ]);

      checkAborted(signal);
      composeFace(preset, crop, choice, target);
      const jpeg = await sharp(preset.data, {
        raw: { width: preset.width, height: preset.height, channels: 3 },
      })
        .composite([previewBadgeOverlay(preset.width, preset.height)])
        .jpeg({ quality: localGenerationRules.jpegQuality })
        .toBuffer();
      return {
        status: 'succeeded',
        image: { bytes: jpeg, contentType: 'image/jpeg' },
        reference: null,
      };
    },
  };
}

async function decode(image: Sharp): Promise<Pixels> {
  const { data, info } = await image
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The picture's main face: the largest counted face that has landmarks. */
function mainFace(analysis: PhotoAnalysis): LandmarkedFace | null {
  const faces = countedFaces(analysis).filter(
    (face): face is LandmarkedFace => face.landmarks !== null,
  );
  faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  return faces[0] ?? null;
}

/**
 * The head's pose from the landmarks: `yaw` is the nose's offset from the eyes' midpoint along
 * the eye line (× the eye distance; negative = towards the left of the picture), `pitch` its
 * offset across it (× the eyes-to-mouth distance). Roll does not count.
 */
function poseOf(landmarks: FaceLandmarks): { yaw: number; pitch: number } {
  const { leftEye, rightEye, nose, mouth } = landmarks;
  const dx = rightEye[0] - leftEye[0];
  const dy = rightEye[1] - leftEye[1];
  const eyeDistance = Math.hypot(dx, dy) || 1;
  const ux = dx / eyeDistance;
  const uy = dy / eyeDistance;
  const midX = (leftEye[0] + rightEye[0]) / 2;
  const midY = (leftEye[1] + rightEye[1]) / 2;
  const mouthDown = (mouth[0] - midX) * -uy + (mouth[1] - midY) * ux || 1;
  return {
    yaw: ((nose[0] - midX) * ux + (nose[1] - midY) * uy) / eyeDistance,
    pitch: ((nose[0] - midX) * -uy + (nose[1] - midY) * ux) / mouthDown,
  };
}

/** The landmarks of a `size`-wide crop seen in a mirror. */
function mirror(landmarks: FaceLandmarks, size: number): FaceLandmarks {
  const flip = ([x, y]: [number, number]): [number, number] => [size - x, y];
  return {
    leftEye: flip(landmarks.rightEye),
    rightEye: flip(landmarks.leftEye),
    nose: flip(landmarks.nose),
    mouth: flip(landmarks.mouth),
  };
}

/**
 * The crop whose pose is closest to the target's (the crops come best first, and a later one
 * must be closer by `rankPenalty` per rank); mirrored when that is closer by `mirrorPenalty`.
 * Crops without landmarks cannot be aligned and are skipped.
 */
export function chooseCrop(crops: LikenessCrop[], target: FaceLandmarks): CropChoice | null {
  const want = poseOf(target);
  let best: (CropChoice & { cost: number }) | null = null;
  for (const [rank, crop] of crops.entries()) {
    if (!crop.landmarks) continue;
    for (const mirrored of [false, true]) {
      const pose = poseOf(mirrored ? mirror(crop.landmarks, crop.size) : crop.landmarks);
      const cost =
        Math.abs(pose.yaw - want.yaw) +
        0.5 * Math.abs(pose.pitch - want.pitch) +
        rank * localGenerationRules.rankPenalty +
        (mirrored ? localGenerationRules.mirrorPenalty : 0);
      if (!best || cost < best.cost) best = { crop, mirrored, cost };
    }
  }
  return best && { crop: best.crop, mirrored: best.mirrored };
}

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty. */
interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** The least-squares similarity transform taking `from` onto `to` (no reflection). */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): Similarity {
  const n = from.length;
  let fx = 0;
  let fy = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]![0] / n;
    fy += from[i]![1] / n;
    tx += to[i]![0] / n;
    ty += to[i]![1] / n;
  }
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]![0] - fx;
    const py = from[i]![1] - fy;
    const qx = to[i]![0] - tx;
    const qy = to[i]![1] - ty;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = norm > 0 ? dot / norm : 1;
  const b = norm > 0 ? cross / norm : 0;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

function invert(t: Similarity): Similarity {
  const d = t.a * t.a + t.b * t.b || 1;
  const a = t.a / d;
  const b = -t.b / d;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

/** The inner-face ellipse of a face, in its picture's pixels. */
export interface FaceEllipse {
  cx: number;
  cy: number;
  /** Unit vector along the eye line (the ellipse's `radiusU` axis). */
  ux: number;
  uy: number;
  radiusU: number;
  radiusV: number;
}

export function faceEllipse(landmarks: FaceLandmarks): FaceEllipse {
  const { leftEye, rightEye, mouth } = landmarks;
  const dx = rightEye[0] - leftEye[0];
  const dy = rightEye[1] - leftEye[1];
  const eyeDistance = Math.hypot(dx, dy) || 1;
  const ux = dx / eyeDistance;
  const uy = dy / eyeDistance;
  const midX = (leftEye[0] + rightEye[0]) / 2;
  const midY = (leftEye[1] + rightEye[1]) / 2;
  // Down the face: perpendicular to the eye line, towards the mouth.
  const down = Math.max(eyeDistance * 0.6, (mouth[0] - midX) * -uy + (mouth[1] - midY) * ux);
  const e = localGenerationRules.ellipse;
  return {
    cx: midX - uy * down * e.centreV,
    cy: midY + ux * down * e.centreV,
    ux,
    uy,
    radiusU: eyeDistance * e.radiusU,
    radiusV: down * e.radiusV,
  };
}

/** The ellipse's bounding box, clipped to the picture, in whole pixels. */
export function ellipseBounds(
  e: FaceEllipse,
  width: number,
  height: number,
): { left: number; top: number; right: number; bottom: number } {
  const halfW = Math.hypot(e.radiusU * e.ux, e.radiusV * e.uy);
  const halfH = Math.hypot(e.radiusU * e.uy, e.radiusV * e.ux);
  return {
    left: Math.max(0, Math.floor(e.cx - halfW)),
    top: Math.max(0, Math.floor(e.cy - halfH)),
    right: Math.min(width, Math.ceil(e.cx + halfW)),
    bottom: Math.min(height, Math.ceil(e.cy + halfH)),
  };
}

/**
 * Puts the crop's face onto the preset face, in place: warp (bilinear), mask, colour and
 * shading match in Lab, blend. Only pixels inside the mask's bounding box (`ellipseBounds`) are
 * touched.
 */
function composeFace(
  preset: Pixels,
  crop: Pixels,
  choice: CropChoice,
  target: FaceLandmarks,
): void {
  const source = choice.mirrored
    ? mirror(choice.crop.landmarks!, crop.width)
    : choice.crop.landmarks!;
  const toCrop = invert(
    fitSimilarity(
      [source.leftEye, source.rightEye, source.mouth],
      [target.leftEye, target.rightEye, target.mouth],
    ),
  );
  const ellipse = faceEllipse(target);
  const bounds = ellipseBounds(ellipse, preset.width, preset.height);
  const w = bounds.right - bounds.left;
  const h = bounds.bottom - bounds.top;
  if (w <= 0 || h <= 0) return;

  // Per pixel of the region: the ellipse's feather, the warped crop and the preset (in Lab).
  const size = w * h;
  const feather = new Float32Array(size);
  const features = new Uint8Array(size);
  const warped = new Float32Array(size * 3);
  const original = new Float32Array(size * 3);
  const rules = localGenerationRules;
  const edge = 6; // px of fade at the crop's own border, should the ellipse reach past it
  // The crop's mean colour in the face's core (mostly skin): the reference skin colour.
  const core = { mean: [0, 0, 0], weight: 0 };
  const lab: [number, number, number] = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    const py = bounds.top + y + 0.5;
    for (let x = 0; x < w; x++) {
      const px = bounds.left + x + 0.5;
      const i = y * w + x;
      const relX = px - ellipse.cx;
      const relY = py - ellipse.cy;
      const u = (relX * ellipse.ux + relY * ellipse.uy) / ellipse.radiusU;
      const v = (-relX * ellipse.uy + relY * ellipse.ux) / ellipse.radiusV;
      // Narrower towards the chin: an egg rather than an ellipse.
      const r = Math.hypot(u / (1 - rules.ellipse.taper * Math.max(0, v)), v);
      if (r >= 1) continue;
      // Where this pixel comes from in the crop (continuous coordinates, pixel centres at +0.5).
      let sx = toCrop.a * px - toCrop.b * py + toCrop.tx;
      const sy = toCrop.b * px + toCrop.a * py + toCrop.ty;
      if (choice.mirrored) sx = crop.width - sx;
      const inside = Math.min(sx, sy, crop.width - sx, crop.height - sy) / edge;
      if (inside <= 0) continue;
      // In face units (eye distances across, eyes-to-mouth distances down): the features.
      const faceU = Math.abs(u) * rules.ellipse.radiusU;
      const faceV = rules.ellipse.centreV + v * rules.ellipse.radiusV;
      const zone = rules.skin.features;
      if (
        faceV > zone.top &&
        faceV < zone.bottom &&
        faceU < (faceV < zone.eyesBottom ? zone.eyesHalfWidth : zone.mouthHalfWidth)
      ) {
        features[i] = 1;
      }
      feather[i] = (1 - smoothstep(rules.solid, 1, r)) * Math.min(1, inside);
      sampleBilinear(crop, sx - 0.5, sy - 0.5, lab);
      rgbToLab(lab[0], lab[1], lab[2], lab);
      warped[i * 3] = lab[0];
      warped[i * 3 + 1] = lab[1];
      warped[i * 3 + 2] = lab[2];
      const o = ((bounds.top + y) * preset.width + bounds.left + x) * 3;
      rgbToLab(preset.data[o]!, preset.data[o + 1]!, preset.data[o + 2]!, lab);
      original[i * 3] = lab[0];
      original[i * 3 + 1] = lab[1];
      original[i * 3 + 2] = lab[2];
      if (r < rules.skin.core) {
        for (let c = 0; c < 3; c++) core.mean[c]! += warped[i * 3 + c]!;
        core.weight++;
      }
    }
  }
  if (core.weight < 1) return;
  for (let c = 0; c < 3; c++) core.mean[c]! /= core.weight;

  // Outside the features, only the crop's skin is used, not its hair or background beside a
  // narrower face. Smoothed then eroded, so the mask has no hard edge and no stray strands.
  const skin = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    if (feather[i]! > 0) skin[i] = features[i] ? 1 : skinLikeness(warped, i, core.mean);
  }
  const smoothSkin = blur(skin, w, h, 1, Math.max(1, ellipse.radiusU * rules.skin.smoothing));
  // The final mask, and the colour statistics of both faces under it.
  const mask = new Float32Array(size);
  const sums = { src: [0, 0, 0, 0, 0, 0], dst: [0, 0, 0, 0, 0, 0], weight: 0 };
  for (let i = 0; i < size; i++) {
    const m = feather[i]! * smoothstep(0.45, 0.85, smoothSkin[i]!);
    if (m <= 0) continue;
    mask[i] = m;
    for (let c = 0; c < 3; c++) {
      const s = warped[i * 3 + c]!;
      const d = original[i * 3 + c]!;
      sums.src[c]! += m * s;
      sums.src[c + 3]! += m * s * s;
      sums.dst[c]! += m * d;
      sums.dst[c + 3]! += m * d * d;
    }
    sums.weight += m;
  }
  if (sums.weight < 1) return;

  const gain = [0, 0, 0];
  const srcMean = [0, 0, 0];
  const dstMean = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    srcMean[c] = sums.src[c]! / sums.weight;
    dstMean[c] = sums.dst[c]! / sums.weight;
    const srcStd = Math.sqrt(Math.max(0, sums.src[c + 3]! / sums.weight - srcMean[c]! ** 2));
    const dstStd = Math.sqrt(Math.max(0, sums.dst[c + 3]! / sums.weight - dstMean[c]! ** 2));
    gain[c] = srcStd > 1e-3 ? Math.min(rules.maxSpreadGain, dstStd / srcStd) : 1;
  }

  // The global match, then the shading: the crop's low frequencies (its light, its skin's
  // broad tones) are replaced by the preset face's, measured with a masked blur so nothing from
  // outside the face takes part. The crop keeps its features (the high frequencies).
  const matched = new Float32Array(size * 3);
  const weighted = new Float32Array(size * 3);
  const presetFace = new Float32Array(size * 3);
  for (let i = 0; i < size; i++) {
    const m = mask[i]!;
    if (m <= 0) continue;
    for (let c = 0; c < 3; c++) {
      const value = (warped[i * 3 + c]! - srcMean[c]!) * gain[c]! + dstMean[c]!;
      matched[i * 3 + c] = value;
      weighted[i * 3 + c] = value * m;
      presetFace[i * 3 + c] = original[i * 3 + c]! * m;
    }
  }
  const radius = Math.max(2, Math.round(ellipse.radiusU * rules.shadingRadius));
  const lowWeight = blur(mask, w, h, 1, radius);
  const lowMatched = blur(weighted, w, h, 3, radius);
  const lowTarget = blur(presetFace, w, h, 3, radius);
  const shading = rules.shading;

  const rgb: [number, number, number] = [0, 0, 0];
  const out = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const m = mask[i]!;
      if (m <= 0) continue;
      const norm = lowWeight[i]! > 1e-4 ? 1 / lowWeight[i]! : 0;
      for (let c = 0; c < 3; c++) {
        const correction = (lowTarget[i * 3 + c]! - lowMatched[i * 3 + c]!) * norm;
        out[c] = matched[i * 3 + c]! + shading * correction;
      }
      labToRgb(out[0]!, out[1]!, out[2]!, rgb);
      const o = ((bounds.top + y) * preset.width + bounds.left + x) * 3;
      for (let c = 0; c < 3; c++) {
        const value = preset.data[o + c]! * (1 - m) + rgb[c]! * m;
        preset.data[o + c] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  }
}

/**
 * A box blur run three times (close to a Gaussian of sigma ≈ radius), per channel of an
 * interleaved `channels`-wide image; edges clamp. Wide blurs run on a grid `radius / 8` times
 * coarser and are interpolated back: the result is smooth anyway, and it costs far less.
 */
function blur(
  input: Float32Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
): Float32Array {
  const factor = Math.max(1, Math.floor(radius / 8));
  if (factor === 1) return boxBlur(input, width, height, channels, radius);
  const smallWidth = Math.ceil(width / factor);
  const smallHeight = Math.ceil(height / factor);
  const small = new Float32Array(smallWidth * smallHeight * channels);
  const counts = new Float32Array(smallWidth * smallHeight);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = ((y / factor) | 0) * smallWidth + ((x / factor) | 0);
      counts[cell]!++;
      for (let c = 0; c < channels; c++) {
        small[cell * channels + c]! += input[(y * width + x) * channels + c]!;
      }
    }
  }
  for (let cell = 0; cell < counts.length; cell++) {
    for (let c = 0; c < channels; c++) small[cell * channels + c]! /= counts[cell]!;
  }
  const blurred = boxBlur(small, smallWidth, smallHeight, channels, radius / factor);
  const output = new Float32Array(input.length);
  for (let y = 0; y < height; y++) {
    // Cell centres sit at (k + 0.5) × factor.
    const sy = Math.max(0, Math.min(smallHeight - 1, (y + 0.5) / factor - 0.5));
    const y0 = sy | 0;
    const y1 = Math.min(smallHeight - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.max(0, Math.min(smallWidth - 1, (x + 0.5) / factor - 0.5));
      const x0 = sx | 0;
      const x1 = Math.min(smallWidth - 1, x0 + 1);
      const fx = sx - x0;
      for (let c = 0; c < channels; c++) {
        const a = blurred[(y0 * smallWidth + x0) * channels + c]!;
        const b = blurred[(y0 * smallWidth + x1) * channels + c]!;
        const d = blurred[(y1 * smallWidth + x0) * channels + c]!;
        const e = blurred[(y1 * smallWidth + x1) * channels + c]!;
        const top = a + (b - a) * fx;
        output[(y * width + x) * channels + c] = top + (d + (e - d) * fx - top) * fy;
      }
    }
  }
  return output;
}

function boxBlur(
  input: Float32Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
): Float32Array {
  const a = Float32Array.from(input);
  const b = new Float32Array(input.length);
  const r = Math.max(1, Math.round(radius / Math.sqrt(3)));
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, width, height, channels, r, true);
    boxPass(b, a, width, height, channels, r, false);
  }
  return a;
}

/** One box pass along rows (`horizontal`) or columns, from `src` into `dst`. */
function boxPass(
  src: Float32Array,
  dst: Float32Array,
  width: number,
  height: number,
  channels: number,
  r: number,
  horizontal: boolean,
): void {
  const lines = horizontal ? height : width;
  const length = horizontal ? width : height;
  const step = (horizontal ? 1 : width) * channels;
  const lineStep = (horizontal ? width : 1) * channels;
  const scale = 1 / (2 * r + 1);
  const last = length - 1;
  for (let line = 0; line < lines; line++) {
    for (let c = 0; c < channels; c++) {
      const base = line * lineStep + c;
      let sum = 0;
      for (let k = -r; k <= r; k++) sum += src[base + (k < 0 ? 0 : k > last ? last : k) * step]!;
      for (let k = 0; k < length; k++) {
        dst[base + k * step] = sum * scale;
        const add = k + r + 1 > last ? last : k + r + 1;
        const remove = k - r < 0 ? 0 : k - r;
        sum += src[base + add * step]! - src[base + remove * step]!;
      }
    }
  }
}

function smoothstep(from: number, to: number, value: number): number {
  const t = Math.max(0, Math.min(1, (value - from) / (to - from)));
  return t * t * (3 - 2 * t);
}

/** 1 for the colour of the face's core, falling to 0 for colours unlike it (hair, background). */
function skinLikeness(lab: Float32Array, i: number, mean: number[]): number {
  const { lightnessWeight, near, far } = localGenerationRules.skin;
  const distance = Math.hypot(
    (lab[i * 3]! - mean[0]!) * lightnessWeight,
    lab[i * 3 + 1]! - mean[1]!,
    lab[i * 3 + 2]! - mean[2]!,
  );
  return 1 - smoothstep(near, far, distance);
}

/** Bilinear sample at pixel-index coordinates (clamped to the image), RGB 0-255. */
function sampleBilinear(image: Pixels, x: number, y: number, out: [number, number, number]): void {
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  const cx = Math.max(0, Math.min(maxX, x));
  const cy = Math.max(0, Math.min(maxY, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(maxX, x0 + 1);
  const y1 = Math.min(maxY, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const d = image.data;
  const i00 = (y0 * image.width + x0) * 3;
  const i10 = (y0 * image.width + x1) * 3;
  const i01 = (y1 * image.width + x0) * 3;
  const i11 = (y1 * image.width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = d[i00 + c]! + (d[i10 + c]! - d[i00 + c]!) * fx;
    const bottom = d[i01 + c]! + (d[i11 + c]! - d[i01 + c]!) * fx;
    out[c] = top + (bottom - top) * fy;
  }
}

// ── sRGB <-> CIELAB (D65) ──────────────────────────────────────────────────────────────────

// The sRGB transfer curve both ways as tables (linearly interpolated): the pixel loops call them
// hundreds of thousands of times per image, and a power per call would dominate their time.
const linearTable = Float64Array.from({ length: 257 }, (_, i) => {
  const v = Math.min(i, 255) / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});
const gammaSteps = 4096;
const gammaTable = Float64Array.from({ length: gammaSteps + 2 }, (_, i) => {
  const v = Math.min(i, gammaSteps) / gammaSteps;
  return 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
});
/** 0-255 sRGB (fractional allowed) to linear 0-1. */
function toLinear(value: number): number {
  const v = value <= 0 ? 0 : value >= 255 ? 255 : value;
  const i = v | 0;
  return linearTable[i]! + (linearTable[i + 1]! - linearTable[i]!) * (v - i);
}
/** Linear 0-1 to 0-255 sRGB, clamped. */
function fromLinear(value: number): number {
  const v = value <= 0 ? 0 : value >= 1 ? gammaSteps : value * gammaSteps;
  const i = v | 0;
  return gammaTable[i]! + (gammaTable[i + 1]! - gammaTable[i]!) * (v - i);
}
const whiteX = 0.95047;
const whiteZ = 1.08883;
function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116;
}
function labFInverse(f: number): number {
  return f > 6 / 29 ? f * f * f : (116 * f - 16) * (27 / 24389);
}

/** Takes 0-255 sRGB (fractional allowed), writes L (0-100), a, b. */
function rgbToLab(r: number, g: number, b: number, out: [number, number, number]): void {
  const lr = toLinear(r);
  const lg = toLinear(g);
  const lb = toLinear(b);
  const fx = labF((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / whiteX);
  const fy = labF(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
  const fz = labF((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / whiteZ);
  out[0] = 116 * fy - 16;
  out[1] = 500 * (fx - fy);
  out[2] = 200 * (fy - fz);
}

/** Takes L, a, b, writes 0-255 sRGB (clamped). */
function labToRgb(l: number, a: number, b: number, out: [number, number, number]): void {
  const fy = (l + 16) / 116;
  const x = labFInverse(fy + a / 500) * whiteX;
  const y = labFInverse(fy);
  const z = labFInverse(fy - b / 200) * whiteZ;
  out[0] = fromLinear(3.2404542 * x - 1.5371385 * y - 0.4985314 * z);
  out[1] = fromLinear(-0.969266 * x + 1.8760108 * y + 0.041556 * z);
  out[2] = fromLinear(0.0556434 * x - 0.2040259 * y + 1.0572252 * z);
}
