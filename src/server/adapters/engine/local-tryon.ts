import type { RgbImage } from '../../images/rgb-image.ts';
import sharp from 'sharp';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { analyzePhoto, type FaceBox, type PhotoAnalysis } from '../../images/analysis.ts';
import { countedFaces } from '../../images/photo-checks.ts';
import { detectPose, torsoFrame, type Keypoint, type TorsoFrame } from '../../images/pose.ts';
import { segmentPerson } from '../../images/segmentation.ts';
import type { Storage } from '../storage/storage.ts';
import { previewBadgeOverlay } from './preview-badge.ts';

import type { TryOnEngine, TryOnRequest, TryOnStart, TryOnState } from './tryon-engine.ts';

/**
 * The `local` try-on engine: no GPU, no network, about a second. It makes a *preview*, not an
 * AI render: the garment cut out, warped onto the person's body and lit by the photo's own
 * light, with a "Preview" badge.
 *
 * 1. The person: the largest counted face (faces.ts), the shoulders, elbows and wrists from
 *    MoveNet (pose.ts; the hips estimated from the shoulders when the selfie stops above
 *    them), and the person matte (segmentation.ts).
 * 2. The garment is cut out of its photo (`cutOutGarment`): a photo with transparency keeps it;
 *    a garment worn by someone (the photo has a face) is the person matte minus the head and
 *    the skin; a flat lay or product shot on a plain backdrop is keyed against the backdrop's
 *    colour model and refined edge-aware (see `keyFlatLay` for why not the selfie model).
 * 3. Garment anchors (collar corners and front, shoulder seams, armpits, hem corners, sleeve
 *    ends) are read off the cut-out's outline, or off the model's pose for a worn garment.
 * 4. Body anchors: the same points on the person, from the pose: the seams on the shoulders,
 *    the collar round the neck, the hem towards the hips, the sleeves down the arms.
 * 5. A thin-plate spline through those pairs warps the garment onto the body.
 * 6. The garment is shaded by the low-frequency luminance of what the person wore there (light
 *    direction, and at a finer scale the folds), then laid in with the face, the hair that falls
 *    below the chin and the forearms kept in front, and clipped to the person's silhouette
 *    outside the torso.
 * 7. The "Preview" badge; a JPEG of the person photo's (upright) size.
 */

export const localTryOnRules = {
  garment: {
    /** The garment photo is worked on at most this size (long side). */
    maxSide: 1024,
    /** The border ring the backdrop colour is estimated from (share of the short side). */
    border: 0.02,
    /**
     * Colour distance (redmean-weighted RGB, 0-765) to the backdrop colour: below `near` a pixel
     * is backdrop, fading to fully garment at `far`. `near` rises to `noiseFactor` times the
     * border's own median spread on a noisy backdrop (JPEG, sensor noise).
     */
    near: 28,
    far: 64,
    noiseFactor: 3,
    /** The border counts as a plain backdrop when this share of it is within `far`. */
    minPlainBorder: 0.6,
    /** A garment photo with this share of transparent border pixels brings its own cut-out. */
    transparentBorder: 0.5,
    /** The garment must cover at least this share of its photo. */
    minCoverage: 0.02,
    /**
     * The guided filter that snaps the keyed matte to the photo's edges: window radius (share of
     * the long side, at least 2 px) and regularisation (on 0..1 intensities: edges weaker than
     * about sqrt(eps) are smoothed over).
     */
    refineRadius: 0.004,
    refineEps: 1e-3,
    /**
     * The neck opening of a flat lay: an enclosed backdrop-coloured hole whose top is within
     * `maxTop` of the garment's height from its top and bottom within `maxBottom` (a white
     * stripe running down the garment is not one), whose centre is within `maxOffCentre` of
     * its width from the middle, and that is at least `minArea` of its box (a print's dot is not).
     */
    neck: { maxTop: 0.15, maxBottom: 0.3, maxOffCentre: 0.1, minArea: 0.003 },
    /** A separate part of the cut-out is kept when at least this share of the largest part. */
    minPartShare: 0.15,
    /** Person-matte value above which a garment-photo pixel is on the model (worn garments). */
    wornMatte: 0.5,
    /**
     * Skin in a worn-garment photo: within this distance (CbCr, 0-255 scale) of the face's skin
     * chroma, which the face samples give (cheeks below the eyes).
     */
    skinChroma: 14,
  },
  outline: {
    /** The row the body column is measured on (share of the garment's height from its top). */
    bodyRow: 0.72,
    /** A body column wider than this share of the garment is sleeves merged in: use `bodyShare`. */
    maxBodyShare: 0.9,
    bodyShare: 0.62,
    /** The seam is this share of the body's width inside its edge (the seam leans in a little). */
    seamInset: 0.04,
    /** The collar corners are searched for within this share of the seam width from the centre. */
    collarReach: 0.32,
  },
  body: {
    /**
     * Where garment anchors land on the person, in shoulder widths (the distance between the
     * MoveNet shoulder joints). The seams sit out and up from the joints (on top of the
     * deltoid); the collar corners at the neck's base, which is above the joint line; the
     * crew-neck front about level with the joints (the sternal notch).
     */
    seamOut: 0.07,
    seamUp: 0.1,
    neckHalfWidth: 0.19,
    neckUp: 0.2,
    /** Garments hang looser than the hips: the hem's half width is at least this × the hips'. */
    hemEase: 1.15,
    /** Arms hang this far from the torso's down direction when no elbow was found (radians). */
    defaultArmAngle: 0.3,
    /** Forearm radius (elbow to wrist), kept in front of the garment. */
    forearmRadius: 0.1,
    /** Shoulders estimated from the face when the pose model found none: face widths. */
    faceShoulderHalf: 1.15,
    faceShoulderDrop: 0.6,
  },
  warp: {
    /** The spline is evaluated on a grid this many pixels apart and interpolated between. */
    gridStep: 4,
    /** Thin-plate smoothing (in shoulder widths²): a little, so no anchor pair can fold it. */
    smoothing: 0.002,
  },
  shade: {
    /**
     * Light: the photo's luminance blurred at `lightBlur` shoulder widths, relative to its median
     * under the garment, to the power `lightStrength`, clamped to `lightRange`.
     */
    lightBlur: 0.2,
    lightStrength: 0.8,
    lightRange: [0.55, 1.25],
    /** Folds: the finer scale's ratio to the light, weaker and clamped tighter. */
    foldBlur: 0.025,
    foldStrength: 0.4,
    foldRange: [0.85, 1.12],
  },
  front: {
    /** The face kept untouched reaches this share of its width past the box's sides. */
    faceMargin: 0.15,
    /** Hair colour: redmean distance to the hair samples' median counted as hair. */
    hairDistance: 70,
    /** Hair is searched down to this many face heights below the chin. */
    hairReach: 1.2,
    /** The person matte is trusted when its mean over the face box is at least this. */
    minMatteOnFace: 0.5,
    /** Outside the torso the garment keeps to where the matte is at least this (fading in). */
    silhouette: [0.15, 0.5],
  },
  blend: {
    /** Edge feather radius, in shoulder widths (at least 1 px). */
    feather: 0.004,
  },
  jpegQuality: 90,
} as const;

interface Rgba {
  /** RGBA, 8 bits per channel. */
  data: Buffer;
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Points of a garment, or where they land on a person. Pairs are ordered by picture side. */
interface Anchors {
  collar: [Point, Point];
  collarFront: Point;
  seams: [Point, Point];
  armpits: [Point, Point];
  hems: [Point, Point];
  sleeves: [Point | null, Point | null];
}

interface Garment {
  image: Rgba;
  anchors: Anchors;
}

/** Why a try-on cannot be made: the words shown to the user. */
class Refusal {
  constructor(readonly error: string) {}
}

export function createLocalTryOnEngine({ storage }: { storage: Storage }): TryOnEngine {
  async function readImage(key: string): Promise<Buffer | Refusal> {
    if (!(await storage.exists(key))) return new Refusal(tryonMessages.errors.imageLoad);
    return storage.read(key);
  }

  async function tryOn(request: TryOnRequest): Promise<TryOnState> {
    const [personBytes, garmentBytes] = await Promise.all([
      readImage(request.personKey),
      readImage(request.garmentKey),
    ]);
    if (personBytes instanceof Refusal) return failed(personBytes);
    if (garmentBytes instanceof Refusal) return failed(garmentBytes);

    const loadError = () => new Refusal(tryonMessages.errors.imageLoad);
    const [analysis, person] = await Promise.all([
      analyzePhoto(personBytes).catch(loadError),
      decodeRgb(personBytes, Infinity).catch(loadError),
    ]);
    if (analysis instanceof Refusal) return failed(analysis);
    if (person instanceof Refusal) return failed(person);
    const face = mainFace(analysis);
    if (!face) return failed(new Refusal(tryonMessages.errors.noFace));
    const garment = await cutOutGarment(garmentBytes).catch(loadError);
    if (garment instanceof Refusal) return failed(garment);

    const frame = torsoFrame(await detectPose(person)) ?? frameFromFace(face);
    const shoulderY = (frame.shoulders.left.y + frame.shoulders.right.y) / 2;
    if (shoulderY >= person.height) return failed(new Refusal(tryonMessages.errors.pose));
    const matte = await segmentPerson(person);
    dress(person, garment, frame, face, matte);

    const jpeg = await sharp(person.data, {
      raw: { width: person.width, height: person.height, channels: 3 },
    })
      .composite([previewBadgeOverlay(person.width, person.height)])
      .jpeg({ quality: localTryOnRules.jpegQuality })
      .toBuffer();
    return { status: 'succeeded', image: { bytes: jpeg, contentType: 'image/jpeg' } };
  }

  return {
    name: 'local',
    inProcess: true,

    async start(request: TryOnRequest): Promise<TryOnStart> {
      return { reference: null, state: await tryOn(request) };
    },

    // Everything happened in `start`: there is nothing to poll.
    async status(): Promise<TryOnState> {
      return { status: 'failed', error: tryonMessages.errors.generic };
    },

    webhookUrl(base: string): string {
      return base;
    },

    readWebhook(): string | null {
      return null;
    },
  };
}

function failed(refusal: Refusal): TryOnState {
  return { status: 'failed', error: refusal.error };
}

/** The photo upright, as RGB, its long side at most `maxSide`. */
async function decodeRgb(bytes: Buffer, maxSide: number): Promise<RgbImage> {
  let pipeline = sharp(bytes, { limitInputPixels: photoRules.maxPixels }).rotate();
  if (Number.isFinite(maxSide))
    pipeline = pipeline.resize({
      width: maxSide,
      height: maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  const { data, info } = await pipeline
    .toColourspace('srgb')
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The picture's main face: the largest counted face. */
function mainFace(analysis: PhotoAnalysis): FaceBox | null {
  const faces = countedFaces(analysis).map((face) => face.box);
  faces.sort((a, b) => b.width * b.height - a.width * a.height);
  return faces[0] ?? null;
}

/** Shoulders guessed from the face box, for a photo the pose model found none in. */
function frameFromFace(face: FaceBox): TorsoFrame {
  const rules = localTryOnRules.body;
  const centre = face.x + face.width / 2;
  const y = face.y + face.height * (1 + rules.faceShoulderDrop);
  const half = face.width * rules.faceShoulderHalf;
  const point = (x: number, py: number): Keypoint => ({ x, y: py, score: 0 });
  const hipY = y + 2 * half * 1.3;
  return {
    shoulders: { left: point(centre - half, y), right: point(centre + half, y) },
    hips: { left: point(centre - half * 0.75, hipY), right: point(centre + half * 0.75, hipY) },
    hipsEstimated: true,
    elbows: { left: null, right: null },
    wrists: { left: null, right: null },
  };
}

// ---------------------------------------------------------------------------------------------
// The garment: cut-out and anchors

/** The garment alone (transparent elsewhere, trimmed to it) and its anchors. */
async function cutOutGarment(bytes: Buffer): Promise<Garment | Refusal> {
  const rules = localTryOnRules.garment;
  const { data, info } = await sharp(bytes, { limitInputPixels: photoRules.maxPixels })
    .rotate()
    .resize({
      width: rules.maxSide,
      height: rules.maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: Rgba = { data, width: info.width, height: info.height };
  const border = borderIndices(image.width, image.height, rules.border);
  const transparent = border.filter((i) => data[i * 4 + 3]! < 128).length;
  let poseAnchors: Anchors | null = null;
  if (transparent < border.length * rules.transparentBorder) {
    const rgb = toRgb(image);
    const analysis = await analyzePhoto(bytes);
    const face = mainFace(analysis);
    if (face) {
      const scale = image.width / analysis.width;
      const scaledFace = {
        x: face.x * scale,
        y: face.y * scale,
        width: face.width * scale,
        height: face.height * scale,
      };
      const frame = torsoFrame(await detectPose(rgb));
      if (!frame) return new Refusal(tryonMessages.errors.noGarment);
      const matte = await segmentPerson(rgb);
      cutOutWorn(image, matte, scaledFace);
      poseAnchors = anchorsFromPose(image, frame);
    } else {
      const alpha = keyFlatLay(image, border);
      if (!alpha) return new Refusal(tryonMessages.errors.noGarment);
      for (let i = 0; i < alpha.length; i++) data[i * 4 + 3] = alpha[i]!;
    }
  }
  keepMainParts(image);
  const box = opaqueBounds(image);
  if (!box || box.count < image.width * image.height * rules.minCoverage)
    return new Refusal(tryonMessages.errors.noGarment);
  const cropped = crop(image, box);
  const shift = (p: Point): Point => ({ x: p.x - box.left, y: p.y - box.top });
  const anchors = poseAnchors ? mapAnchors(poseAnchors, shift) : anchorsFromOutline(cropped);
  if (!anchors) return new Refusal(tryonMessages.errors.noGarment);
  return { image: cropped, anchors };
}

function toRgb(image: Rgba): RgbImage {
  const data = Buffer.alloc(image.width * image.height * 3);
  for (let i = 0, n = image.width * image.height; i < n; i++) {
    data[i * 3] = image.data[i * 4]!;
    data[i * 3 + 1] = image.data[i * 4 + 1]!;
    data[i * 3 + 2] = image.data[i * 4 + 2]!;
  }
  return { data, width: image.width, height: image.height };
}

/**
 * The garment's alpha in a flat-lay or product photo, or null when the backdrop is not plain.
 *
 * Why a colour key and not the selfie segmentation model: that model answers "person", and on
 * the flat-lay fixtures it finds nothing at all (its matte is 0 over the whole T-shirt). A
 * product backdrop is one plain colour by design, so a per-pixel colour distance to it,
 * normalised by the backdrop's own noise, separates it well; a guided filter (edge-aware: it
 * follows the photo's intensity edges) then turns that hard-ish key into a matte that snaps to
 * the garment's real outline and keeps anti-aliased edges soft. Enclosed backdrop-coloured
 * areas (a white print on a shirt on white) cannot be told apart by colour; they are garment
 * when the garment surrounds them, so enclosed holes are filled.
 */
function keyFlatLay(image: Rgba, border: number[]): Uint8Array | null {
  const rules = localTryOnRules.garment;
  const { data, width, height } = image;
  const background = medianColour(data, border, 4);
  const distances = border.map((i) => distance(data, i * 4, background));
  const plain = distances.filter((d) => d < rules.far).length;
  if (plain < border.length * rules.minPlainBorder) return null;
  distances.sort((a, b) => a - b);
  const noise = distances[Math.floor(distances.length / 2)]!;
  const near = Math.max(rules.near, noise * rules.noiseFactor);
  const far = Math.max(rules.far, near + 24);

  const n = width * height;
  const key = new Float32Array(n);
  const grey = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    key[i] = smoothstep(near, far, distance(data, i * 4, background));
    grey[i] = (0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!) / 255;
  }
  const radius = Math.max(2, Math.round(Math.max(width, height) * rules.refineRadius));
  const refined = guidedFilter(grey, key, width, height, radius, rules.refineEps);
  const alpha = new Uint8Array(n);
  for (let i = 0; i < n; i++) alpha[i] = Math.round(255 * Math.max(0, Math.min(1, refined[i]!)));
  fillEnclosedHoles(alpha, width, height);
  // The photo's own alpha (a PNG with a partly transparent backdrop) still counts.
  for (let i = 0; i < n; i++) alpha[i] = Math.round((alpha[i]! * data[i * 4 + 3]!) / 255);
  return alpha;
}

/**
 * The garment worn by a model: the person matte with the head, the hair and the skin taken out,
 * in place. The head is everything above the chin (the face box's bottom) across the face's
 * width and a margin; skin is what shares the face's skin chroma.
 */
function cutOutWorn(image: Rgba, matte: Uint8Array, face: FaceBox): void {
  const rules = localTryOnRules.garment;
  const { data, width, height } = image;
  const skin = faceSkinChroma(data, 4, width, face);
  const chin = face.y + face.height;
  const headLeft = face.x - face.width * 0.5;
  const headRight = face.x + face.width * 1.5;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const onModel = smoothstep(rules.wornMatte - 0.2, rules.wornMatte + 0.2, matte[i]! / 255);
      const head = y < chin && x > headLeft && x < headRight ? 1 : 0;
      const [cb, cr] = chroma(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
      const skinDistance = Math.hypot(cb - skin[0], cr - skin[1]);
      const isSkin = 1 - smoothstep(rules.skinChroma * 0.7, rules.skinChroma * 1.3, skinDistance);
      data[i * 4 + 3] = Math.round(data[i * 4 + 3]! * onModel * (1 - head) * (1 - isSkin));
    }
}

/** The face's skin chroma (Cb, Cr): the median over the cheeks, below the eyes either side. */
function faceSkinChroma(
  data: Buffer,
  channels: number,
  width: number,
  face: FaceBox,
): [number, number] {
  const cbs: number[] = [];
  const crs: number[] = [];
  for (const cx of [0.3, 0.7])
    for (let y = face.y + face.height * 0.5; y < face.y + face.height * 0.65; y++)
      for (let x = face.x + face.width * (cx - 0.08); x < face.x + face.width * (cx + 0.08); x++) {
        const i = (Math.round(y) * width + Math.round(x)) * channels;
        const [cb, cr] = chroma(data[i]!, data[i + 1]!, data[i + 2]!);
        cbs.push(cb);
        crs.push(cr);
      }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? 128;
  return [median(cbs), median(crs)];
}

/** BT.601 chroma (Cb, Cr), 0-255. */
function chroma(r: number, g: number, b: number): [number, number] {
  return [128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b];
}

/** Anchors of a worn garment from the model's pose: the same body rules a person gets. */
function anchorsFromPose(image: Rgba, frame: TorsoFrame): Anchors {
  const body = bodyGeometry(frame);
  const rules = localTryOnRules.body;
  const { u, d, sw, mid } = body;
  const seams = body.seams;
  const collar: [Point, Point] = [
    add(mid, u, -rules.neckHalfWidth * sw, d, -rules.neckUp * sw),
    add(mid, u, rules.neckHalfWidth * sw, d, -rules.neckUp * sw),
  ];
  // The hem: the lowest garment pixel under each shoulder (the picture may cut it off).
  const hemAt = (p: Point): Point => {
    const x = Math.max(0, Math.min(image.width - 1, Math.round(p.x)));
    let y = image.height - 1;
    while (y > 0 && image.data[(y * image.width + x) * 4 + 3]! < 128) y--;
    return { x: p.x, y };
  };
  const sleeve = (elbow: Keypoint | null): Point | null =>
    elbow ? { x: elbow.x, y: elbow.y } : null;
  return {
    collar,
    collarFront: add(mid, u, 0, d, 0),
    seams,
    armpits: [add(seams[0], u, 0.05 * sw, d, 0.5 * sw), add(seams[1], u, -0.05 * sw, d, 0.5 * sw)],
    hems: [hemAt(frame.shoulders.left), hemAt(frame.shoulders.right)],
    sleeves: [sleeve(frame.elbows.left), sleeve(frame.elbows.right)],
  };
}

/**
 * Anchors read off a flat-lay garment's outline (upright, collar at the top): the body column
 * is the run of garment across `bodyRow` (below the sleeves); the seams are its edges' tops;
 * the collar corners the highest points of the top edge near the centre, its front the top
 * edge at the centre; the armpits where the sleeves' undersides meet the body; the hems the
 * body's bottom corners; the sleeve ends the garment's outermost points above the body row.
 */
function anchorsFromOutline(image: Rgba): Anchors | null {
  const rules = localTryOnRules.outline;
  const { data, width, height } = image;
  const opaque = (x: number, y: number) => data[(y * width + x) * 4 + 3]! >= 128;
  const topAt = (x: number): number => {
    const column = Math.max(0, Math.min(width - 1, Math.round(x)));
    for (let y = 0; y < height; y++) if (opaque(column, y)) return y;
    return height;
  };
  const bottomAt = (x: number): number => {
    const column = Math.max(0, Math.min(width - 1, Math.round(x)));
    for (let y = height - 1; y >= 0; y--) if (opaque(column, y)) return y;
    return 0;
  };
  const row = Math.round(height * rules.bodyRow);
  const centre = width / 2;
  let left = Math.round(centre);
  let right = left;
  while (left > 0 && opaque(left - 1, row)) left--;
  while (right < width - 1 && opaque(right + 1, row)) right++;
  if (right - left > width * rules.maxBodyShare || !opaque(Math.round(centre), row)) {
    left = centre - (width * rules.bodyShare) / 2;
    right = centre + (width * rules.bodyShare) / 2;
  }
  const bodyWidth = right - left;
  if (bodyWidth < 8) return null;
  const inset = bodyWidth * rules.seamInset;
  const seams: [Point, Point] = [
    { x: left + inset, y: topAt(left + inset) },
    { x: right - inset, y: topAt(right - inset) },
  ];
  const middle = (left + right) / 2;
  const reach = (seams[1].x - seams[0].x) * rules.collarReach;
  const highest = (from: number, to: number, step: number): Point => {
    let best = { x: from, y: topAt(from) };
    for (let x = from; step > 0 ? x <= to : x >= to; x += step) {
      const y = topAt(x);
      if (y < best.y) best = { x, y };
    }
    return best;
  };
  const collar: [Point, Point] = [
    highest(Math.round(middle), Math.round(middle - reach), -1),
    highest(Math.round(middle), Math.round(middle + reach), 1),
  ];
  const collarFront = { x: middle, y: Math.max(topAt(middle), (collar[0].y + collar[1].y) / 2) };
  const armpit = (edge: number, outward: -1 | 1): Point => {
    const x = Math.round(edge + outward * 2);
    let y = row;
    if (x >= 0 && x < width) {
      while (y > 0 && !opaque(x, y)) y--;
    }
    const seamY = outward < 0 ? seams[0].y : seams[1].y;
    return { x: edge, y: y > seamY ? y : seamY + bodyWidth * 0.4 };
  };
  const outermost = (y: number, outward: -1 | 1): number | null => {
    for (let k = 0; k < width; k++) {
      const x = outward < 0 ? k : width - 1 - k;
      if (opaque(x, y)) return x;
    }
    return null;
  };
  const sleeve = (outward: -1 | 1): Point | null => {
    let best: Point | null = null;
    for (let y = 0; y < row; y++) {
      const x = outermost(y, outward);
      if (x !== null && (!best || outward * (x - best.x) > 0)) best = { x, y };
    }
    if (!best) return null;
    const bodyEdge = outward < 0 ? left : right;
    if (Math.abs(best.x - bodyEdge) < bodyWidth * 0.08) return null;
    // The sleeve end's middle: the span of rows its outermost column covers.
    let top = best.y;
    let bottom = best.y;
    const column = Math.round(best.x - outward * 2);
    while (top > 0 && opaque(column, top - 1)) top--;
    while (bottom < height - 1 && opaque(column, bottom + 1)) bottom++;
    return { x: best.x, y: (top + bottom) / 2 };
  };
  return {
    collar,
    collarFront,
    seams,
    armpits: [armpit(left, -1), armpit(right, 1)],
    hems: [
      { x: left + inset, y: bottomAt(left + inset) },
      { x: right - inset, y: bottomAt(right - inset) },
    ],
    sleeves: [sleeve(-1), sleeve(1)],
  };
}

function mapAnchors(anchors: Anchors, f: (p: Point) => Point): Anchors {
  const maybe = (p: Point | null) => (p ? f(p) : null);
  return {
    collar: [f(anchors.collar[0]), f(anchors.collar[1])],
    collarFront: f(anchors.collarFront),
    seams: [f(anchors.seams[0]), f(anchors.seams[1])],
    armpits: [f(anchors.armpits[0]), f(anchors.armpits[1])],
    hems: [f(anchors.hems[0]), f(anchors.hems[1])],
    sleeves: [maybe(anchors.sleeves[0]), maybe(anchors.sleeves[1])],
  };
}

// ---------------------------------------------------------------------------------------------
// The body: where the anchors land

/** `p` moved `a` along `u` and `b` along `d`. */
function add(p: Point, u: Point, a: number, d: Point, b: number): Point {
  return { x: p.x + u.x * a + d.x * b, y: p.y + u.y * a + d.y * b };
}

interface BodyGeometry {
  /** Along the shoulder line (picture left to right), and down the torso (perpendicular). */
  u: Point;
  d: Point;
  /** Shoulder width (between the joints) and the joints' midpoint. */
  sw: number;
  mid: Point;
  seams: [Point, Point];
}

function bodyGeometry(frame: TorsoFrame): BodyGeometry {
  const rules = localTryOnRules.body;
  const { left, right } = frame.shoulders;
  const sw = Math.max(1, Math.hypot(right.x - left.x, right.y - left.y));
  const u = { x: (right.x - left.x) / sw, y: (right.y - left.y) / sw };
  const d = { x: -u.y, y: u.x };
  const mid = { x: (left.x + right.x) / 2, y: (left.y + right.y) / 2 };
  return {
    u,
    d,
    sw,
    mid,
    seams: [
      add(left, u, -rules.seamOut * sw, d, -rules.seamUp * sw),
      add(right, u, rules.seamOut * sw, d, -rules.seamUp * sw),
    ],
  };
}

/**
 * Where the garment's anchors land on the person. The seams go on the shoulders, which sets the
 * garment's scale (seam to seam); the rest of the garment keeps its own proportions at that
 * scale (`similar`), except: the collar corners close round the neck's base (the collar's depth
 * stays the garment's), the hem follows the torso's axis towards the hips and is at least as
 * wide as the hips with some ease, and the sleeves turn to hang down the arms.
 */
function bodyAnchors(frame: TorsoFrame, garment: Anchors): Anchors {
  const rules = localTryOnRules.body;
  const body = bodyGeometry(frame);
  const { u, d, sw, mid, seams } = body;
  const gu = unit(sub(garment.seams[1], garment.seams[0]));
  const gd = { x: -gu.y, y: gu.x };
  const gMid = midpoint(garment.seams[0], garment.seams[1]);
  const pMid = midpoint(seams[0], seams[1]);
  const scale = length(sub(seams[1], seams[0])) / length(sub(garment.seams[1], garment.seams[0]));
  const along = (p: Point) => dot(sub(p, gMid), gu) * scale;
  const down = (p: Point) => dot(sub(p, gMid), gd) * scale;
  const similar = (p: Point): Point => add(pMid, u, along(p), d, down(p));

  const collar: [Point, Point] = [
    add(mid, u, -rules.neckHalfWidth * sw, d, -rules.neckUp * sw),
    add(mid, u, rules.neckHalfWidth * sw, d, -rules.neckUp * sw),
  ];
  const collarDepth =
    dot(sub(garment.collarFront, midpoint(garment.collar[0], garment.collar[1])), gd) * scale;
  const collarFront = add(midpoint(collar[0], collar[1]), u, 0, d, collarDepth);

  const hips = frame.hips;
  const hipMid = midpoint(hips.left, hips.right);
  const axis = unit(sub(hipMid, mid));
  const hemDown = (down(garment.hems[0]) + down(garment.hems[1])) / 2;
  const hemCentre = {
    x: pMid.x + (axis.x * hemDown) / Math.max(0.5, dot(axis, d)),
    y: pMid.y + (axis.y * hemDown) / Math.max(0.5, dot(axis, d)),
  };
  const hipHalf = length(sub(hips.right, hips.left)) / 2;
  const hemHalf = (side: 0 | 1) =>
    Math.max(Math.abs(along(garment.hems[side])), hipHalf * rules.hemEase);
  const hems: [Point, Point] = [
    add(hemCentre, u, -hemHalf(0), d, 0),
    add(hemCentre, u, hemHalf(1), d, 0),
  ];

  const sleeve = (side: 0 | 1): Point | null => {
    const end = garment.sleeves[side];
    if (!end) return null;
    const shoulder = side === 0 ? frame.shoulders.left : frame.shoulders.right;
    const elbow = side === 0 ? frame.elbows.left : frame.elbows.right;
    const outward = side === 0 ? -1 : 1;
    const angle = rules.defaultArmAngle;
    const hanging = add({ x: 0, y: 0 }, u, outward * Math.sin(angle), d, Math.cos(angle));
    const direction = elbow ? unit(sub(elbow, shoulder)) : hanging;
    const reach = length(sub(similar(end), seams[side]));
    return add(seams[side], direction, reach, d, 0);
  };

  return {
    collar,
    collarFront,
    seams,
    armpits: [similar(garment.armpits[0]), similar(garment.armpits[1])],
    hems,
    sleeves: [sleeve(0), sleeve(1)],
  };
}

const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const dot = (a: Point, b: Point) => a.x * b.x + a.y * b.y;
const length = (a: Point) => Math.hypot(a.x, a.y);
const unit = (a: Point): Point => {
  const l = length(a) || 1;
  return { x: a.x / l, y: a.y / l };
};
const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** The anchor pairs both sets have (a sleeve only when both know it). */
function anchorPairs(from: Anchors, to: Anchors): [Point, Point][] {
  const pairs: [Point, Point][] = [
    [from.collar[0], to.collar[0]],
    [from.collar[1], to.collar[1]],
    [from.collarFront, to.collarFront],
    [from.seams[0], to.seams[0]],
    [from.seams[1], to.seams[1]],
    [from.armpits[0], to.armpits[0]],
    [from.armpits[1], to.armpits[1]],
    [from.hems[0], to.hems[0]],
    [from.hems[1], to.hems[1]],
  ];
  for (const side of [0, 1] as const) {
    const a = from.sleeves[side];
    const b = to.sleeves[side];
    if (a && b) pairs.push([a, b]);
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------------
// The warp: a thin-plate spline from the person's picture into the garment's

interface Spline {
  (x: number, y: number): Point;
}

/**
 * The thin-plate spline through `pairs` (person point → garment point), smoothed by `lambda`
 * (in units of `unitLength`², which coordinates are divided by so the system is well scaled).
 */
function thinPlateSpline(pairs: [Point, Point][], unitLength: number, lambda: number): Spline {
  const n = pairs.length;
  const size = n + 3;
  const px = pairs.map(([p]) => p.x / unitLength);
  const py = pairs.map(([p]) => p.y / unitLength);
  const kernel = (r2: number) => (r2 === 0 ? 0 : r2 * Math.log(r2));
  const matrix: number[][] = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++)
      matrix[i]![j] = kernel((px[i]! - px[j]!) ** 2 + (py[i]! - py[j]!) ** 2);
    matrix[i]![i]! += lambda;
    matrix[i]![n] = matrix[n]![i] = 1;
    matrix[i]![n + 1] = matrix[n + 1]![i] = px[i]!;
    matrix[i]![n + 2] = matrix[n + 2]![i] = py[i]!;
  }
  const rhsX = [...pairs.map(([, g]) => g.x), 0, 0, 0];
  const rhsY = [...pairs.map(([, g]) => g.y), 0, 0, 0];
  const [wx, wy] = solve(matrix, [rhsX, rhsY]) as [number[], number[]];
  return (x: number, y: number) => {
    const sx = x / unitLength;
    const sy = y / unitLength;
    let gx = wx[n]! + wx[n + 1]! * sx + wx[n + 2]! * sy;
    let gy = wy[n]! + wy[n + 1]! * sx + wy[n + 2]! * sy;
    for (let i = 0; i < n; i++) {
      const k = kernel((sx - px[i]!) ** 2 + (sy - py[i]!) ** 2);
      gx += wx[i]! * k;
      gy += wy[i]! * k;
    }
    return { x: gx, y: gy };
  };
}

/** Gaussian elimination with partial pivoting; one solution per right-hand side. */
function solve(matrix: number[][], rhs: number[][]): number[][] {
  const size = matrix.length;
  const a = matrix.map((row, i) => [...row, ...rhs.map((b) => b[i]!)]);
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]! || 1e-12;
    for (let row = 0; row < size; row++) {
      if (row === col) continue;
      const factor = a[row]![col]! / p;
      if (factor === 0) continue;
      for (let k = col; k < a[row]!.length; k++) a[row]![k]! -= factor * a[col]![k]!;
    }
  }
  return rhs.map((_, r) => a.map((row, i) => row[size + r]! / a[i]![i]!));
}

// ---------------------------------------------------------------------------------------------
// Dressing: warp, shade, keep what is in front, lay in

/**
 * Puts the garment on the person, in place. Only the garment's region (with a margin) is
 * worked on; nothing outside it changes.
 */
function dress(
  person: RgbImage,
  garment: Garment,
  frame: TorsoFrame,
  face: FaceBox,
  matte: Uint8Array,
): void {
  const body = bodyGeometry(frame);
  const target = bodyAnchors(frame, garment.anchors);
  const pairs = anchorPairs(target, garment.anchors);
  const spline = thinPlateSpline(pairs, body.sw, localTryOnRules.warp.smoothing);
  const region = garmentRegion(pairs, body.sw, person);
  if (!region) return;
  const width = region.right - region.left;
  const height = region.bottom - region.top;
  const warped = warp(garment.image, spline, region);

  const alpha = new Float32Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = warped[i * 4 + 3]!;
  const front = inFront(person, region, face, frame, matte);
  const silhouette = silhouetteAllowance(person, region, frame, matte, face);
  for (let i = 0; i < alpha.length; i++) alpha[i] = alpha[i]! * (1 - front[i]!) * silhouette[i]!;
  const feather = Math.max(1, body.sw * localTryOnRules.blend.feather);
  const soft = blur(alpha, width, height, feather);
  const shade = shading(person, region, body.sw, alpha);

  const data = person.data;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      // Front pixels stay exactly as they were: the feather must not reach into the face.
      const a = Math.min(soft[i]!, 1 - front[i]!);
      if (a <= 0.002) continue;
      const o = ((region.top + y) * person.width + region.left + x) * 3;
      const premultiplied = Math.max(warped[i * 4 + 3]!, 1e-6);
      for (let c = 0; c < 3; c++) {
        const colour = Math.min(255, (warped[i * 4 + c]! / premultiplied) * shade[i]!);
        data[o + c] = Math.round(data[o + c]! + (colour - data[o + c]!) * a);
      }
    }
}

/** The person's picture area the garment can reach: its anchors' box and a margin, clamped. */
function garmentRegion(pairs: [Point, Point][], sw: number, person: RgbImage): Region | null {
  const margin = sw * 0.35;
  const xs = pairs.map(([p]) => p.x);
  const ys = pairs.map(([p]) => p.y);
  const region = {
    left: Math.max(0, Math.floor(Math.min(...xs) - margin)),
    top: Math.max(0, Math.floor(Math.min(...ys) - margin)),
    right: Math.min(person.width, Math.ceil(Math.max(...xs) + margin)),
    bottom: Math.min(person.height, Math.ceil(Math.max(...ys) + margin)),
  };
  return region.right - region.left >= 2 && region.bottom - region.top >= 2 ? region : null;
}

/**
 * The garment seen through the spline over `region`: premultiplied RGBA floats (colour 0-255,
 * alpha 0-1). The spline is evaluated on a coarse grid and interpolated in between.
 */
function warp(garment: Rgba, spline: Spline, region: Region): Float32Array {
  const step = localTryOnRules.warp.gridStep;
  const width = region.right - region.left;
  const height = region.bottom - region.top;
  const gridW = Math.ceil(width / step) + 1;
  const gridH = Math.ceil(height / step) + 1;
  const gridX = new Float32Array(gridW * gridH);
  const gridY = new Float32Array(gridW * gridH);
  for (let gy = 0; gy < gridH; gy++)
    for (let gx = 0; gx < gridW; gx++) {
      const p = spline(region.left + gx * step, region.top + gy * step);
      gridX[gy * gridW + gx] = p.x;
      gridY[gy * gridW + gx] = p.y;
    }
  const out = new Float32Array(width * height * 4);
  const { data, width: gw, height: gh } = garment;
  for (let y = 0; y < height; y++) {
    const cy = y / step;
    const y0 = Math.floor(cy);
    const fy = cy - y0;
    for (let x = 0; x < width; x++) {
      const cx = x / step;
      const x0 = Math.floor(cx);
      const fx = cx - x0;
      const k = y0 * gridW + x0;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      const sx =
        gridX[k]! * w00 +
        gridX[k + 1]! * w10 +
        gridX[k + gridW]! * w01 +
        gridX[k + gridW + 1]! * w11;
      const sy =
        gridY[k]! * w00 +
        gridY[k + 1]! * w10 +
        gridY[k + gridW]! * w01 +
        gridY[k + gridW + 1]! * w11;
      // Bilinear sampling of the garment, premultiplied so its transparent pixels add nothing.
      const ix = Math.floor(sx - 0.5);
      const iy = Math.floor(sy - 0.5);
      if (ix < -1 || iy < -1 || ix >= gw || iy >= gh) continue;
      const wx = sx - 0.5 - ix;
      const wy = sy - 0.5 - iy;
      const o = (y * width + x) * 4;
      for (let corner = 0; corner < 4; corner++) {
        const px = ix + (corner & 1);
        const py = iy + (corner >> 1);
        if (px < 0 || py < 0 || px >= gw || py >= gh) continue;
        const weight = (corner & 1 ? wx : 1 - wx) * (corner >> 1 ? wy : 1 - wy);
        const g = (py * gw + px) * 4;
        const a = (data[g + 3]! / 255) * weight;
        out[o]! += data[g]! * a;
        out[o + 1]! += data[g + 1]! * a;
        out[o + 2]! += data[g + 2]! * a;
        out[o + 3]! += a;
      }
    }
  }
  return out;
}

/**
 * How much each pixel of `region` is in front of the garment (0..1): the face (its box and a
 * margin, down to the chin), hair that falls below the chin (the face's hair colour, connected
 * to the hair above the face), and the forearms (elbow to wrist) where the pose found them.
 */
function inFront(
  person: RgbImage,
  region: Region,
  face: FaceBox,
  frame: TorsoFrame,
  matte: Uint8Array,
): Float32Array {
  const rules = localTryOnRules.front;
  const width = region.right - region.left;
  const height = region.bottom - region.top;
  const front = new Float32Array(width * height);
  const chin = face.y + face.height;
  const faceLeft = face.x - face.width * rules.faceMargin;
  const faceRight = face.x + face.width * (1 + rules.faceMargin);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const px = region.left + x;
      const py = region.top + y;
      if (py < chin && px > faceLeft && px < faceRight) front[y * width + x] = 1;
    }

  for (const i of hairBelowChin(person, region, face, matte)) front[i] = 1;

  const { sw } = bodyGeometry(frame);
  const radius = sw * localTryOnRules.body.forearmRadius;
  for (const [elbow, wrist] of forearms(frame)) {
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const d = distanceToSegment({ x: region.left + x, y: region.top + y }, elbow, wrist);
        const inArm = 1 - smoothstep(radius * 0.85, radius * 1.15, d);
        const i = y * width + x;
        front[i] = Math.max(front[i]!, inArm);
      }
  }
  return front;
}

/** Elbow-to-wrist segments the pose is sure of. */
function forearms(frame: TorsoFrame): [Point, Point][] {
  const segments: [Point, Point][] = [];
  for (const side of ['left', 'right'] as const) {
    const elbow = frame.elbows[side];
    const wrist = frame.wrists[side];
    if (elbow && wrist) segments.push([elbow, wrist]);
  }
  return segments;
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const ab = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / Math.max(1e-9, dot(ab, ab))));
  return length(sub(p, add(a, ab, t, ab, 0)));
}

/**
 * Region-local indices of hair below the chin: pixels of the hair's colour (the median above the
 * eyes, inside the head) connected to that sample through hair-coloured pixels, down to
 * `hairReach` face heights below the chin. Dark clothing under the chin stays garment unless it
 * touches the hair without a break.
 */
function hairBelowChin(
  person: RgbImage,
  region: Region,
  face: FaceBox,
  matte: Uint8Array,
): number[] {
  const rules = localTryOnRules.front;
  const { data, width: pw } = person;
  const sample: number[] = [];
  const top = Math.max(0, Math.round(face.y - face.height * 0.1));
  const bottom = Math.round(face.y + face.height * 0.08);
  for (let y = top; y < bottom; y++)
    for (let x = Math.round(face.x + face.width * 0.25); x < face.x + face.width * 0.75; x++)
      sample.push((y * pw + x) * 3);
  if (sample.length === 0) return [];
  const hair = medianColour(
    data,
    sample.map((i) => i / 3),
    3,
  );
  const trusted = matteTrusted(matte, person, face);
  const limitTop = Math.max(0, top);
  const limitBottom = Math.min(
    person.height,
    Math.round(face.y + face.height * (1 + rules.hairReach)),
  );
  const limitLeft = Math.max(0, Math.round(face.x - face.width * 0.8));
  const limitRight = Math.min(pw, Math.round(face.x + face.width * 1.8));
  const isHair = (x: number, y: number) =>
    distance(data, (y * pw + x) * 3, hair) < rules.hairDistance &&
    (!trusted || matte[y * pw + x]! > 76);
  const w = limitRight - limitLeft;
  const seen = new Uint8Array(w * (limitBottom - limitTop));
  const queue: number[] = [];
  for (const i of sample) {
    const p = i / 3;
    const x = p % pw;
    const y = (p - x) / pw;
    const k = (y - limitTop) * w + (x - limitLeft);
    if (!seen[k] && isHair(x, y)) {
      seen[k] = 1;
      queue.push(k);
    }
  }
  const chin = face.y + face.height;
  const found: number[] = [];
  const rw = region.right - region.left;
  while (queue.length > 0) {
    const k = queue.pop()!;
    const x = (k % w) + limitLeft;
    const y = Math.floor(k / w) + limitTop;
    if (y >= chin && x >= region.left && x < region.right && y >= region.top && y < region.bottom)
      found.push((y - region.top) * rw + (x - region.left));
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < limitLeft || nx >= limitRight || ny < limitTop || ny >= limitBottom) continue;
      const nk = (ny - limitTop) * w + (nx - limitLeft);
      if (seen[nk] || !isHair(nx, ny)) continue;
      seen[nk] = 1;
      queue.push(nk);
    }
  }
  return found;
}

/** Whether the person matte looks right: most of the face is inside it. */
function matteTrusted(matte: Uint8Array, person: RgbImage, face: FaceBox): boolean {
  let sum = 0;
  let count = 0;
  for (let y = Math.round(face.y); y < Math.min(person.height, face.y + face.height); y++)
    for (let x = Math.round(face.x); x < Math.min(person.width, face.x + face.width); x++) {
      sum += matte[y * person.width + x]!;
      count++;
    }
  return count > 0 && sum / count / 255 >= localTryOnRules.front.minMatteOnFace;
}

/**
 * Where the garment may show (0..1): anywhere inside the torso (between the shoulders, down to
 * the hips, with a margin); outside it only on the person (the matte), so a loose cut-out does
 * not spill onto the backdrop. An untrustworthy matte (the face not inside it) is not used.
 */
function silhouetteAllowance(
  person: RgbImage,
  region: Region,
  frame: TorsoFrame,
  matte: Uint8Array,
  face: FaceBox,
): Float32Array {
  const width = region.right - region.left;
  const height = region.bottom - region.top;
  const allowance = new Float32Array(width * height).fill(1);
  if (!matteTrusted(matte, person, face)) return allowance;
  const [low, high] = localTryOnRules.front.silhouette;
  const { u, d, sw, mid } = bodyGeometry(frame);
  const hipMid = midpoint(frame.hips.left, frame.hips.right);
  const torsoLength = Math.max(sw, dot(sub(hipMid, mid), d));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = sub({ x: region.left + x, y: region.top + y }, mid);
      const across = Math.abs(dot(p, u));
      const down = dot(p, d);
      const inTorso = across < sw * 0.45 && down > 0 && down < torsoLength;
      if (inTorso) continue;
      const m = matte[(region.top + y) * person.width + region.left + x]! / 255;
      allowance[y * width + x] = smoothstep(low, high, m);
    }
  return allowance;
}

/**
 * The photo's light over `region`, as a factor for the garment's colour: the low-frequency
 * luminance relative to its median under the garment (where the light comes from, what is in
 * shadow), times a finer scale's ratio to it (folds), each tempered and clamped.
 */
function shading(
  person: RgbImage,
  region: Region,
  sw: number,
  coverage: Float32Array,
): Float32Array {
  const rules = localTryOnRules.shade;
  const width = region.right - region.left;
  const height = region.bottom - region.top;
  const luminance = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = ((region.top + y) * person.width + region.left + x) * 3;
      luminance[y * width + x] =
        0.2126 * srgbToLinear[person.data[o]!]! +
        0.7152 * srgbToLinear[person.data[o + 1]!]! +
        0.0722 * srgbToLinear[person.data[o + 2]!]!;
    }
  const light = blur(luminance, width, height, Math.max(1, sw * rules.lightBlur));
  const folds = blur(luminance, width, height, Math.max(1, sw * rules.foldBlur));
  const under: number[] = [];
  for (let i = 0; i < coverage.length; i += 7) if (coverage[i]! > 0.5) under.push(light[i]!);
  under.sort((a, b) => a - b);
  const reference = Math.max(1e-4, under[under.length >> 1] ?? 0.2);
  const factor = new Float32Array(width * height);
  const [lightLow, lightHigh] = rules.lightRange;
  const [foldLow, foldHigh] = rules.foldRange;
  for (let i = 0; i < factor.length; i++) {
    const lightRatio = clamp((light[i]! / reference) ** rules.lightStrength, lightLow, lightHigh);
    const foldRatio = clamp(
      (folds[i]! / Math.max(1e-4, light[i]!)) ** rules.foldStrength,
      foldLow,
      foldHigh,
    );
    // The factor applies to sRGB values: linear-light ratios are taken to sRGB's power.
    factor[i] = (lightRatio * foldRatio) ** (1 / 2.2);
  }
  return factor;
}

/** sRGB byte → linear light (0..1). */
const srgbToLinear = Float32Array.from({ length: 256 }, (_, value) => {
  const v = value / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

const clamp = (v: number, low: number, high: number) => Math.max(low, Math.min(high, v));

// ---------------------------------------------------------------------------------------------
// Pixel helpers

/** Pixel indices of the ring `share` of the short side wide (at least 2 px) along the edges. */
function borderIndices(width: number, height: number, share: number): number[] {
  const ring = Math.max(2, Math.round(Math.min(width, height) * share));
  const indices: number[] = [];
  for (let y = 0; y < height; y++) {
    const edgeRow = y < ring || y >= height - ring;
    for (let x = 0; x < width; x++) {
      if (edgeRow || x < ring || x >= width - ring) indices.push(y * width + x);
    }
  }
  return indices;
}

/** Per-channel median of the pixels at `indices` (`channels` bytes a pixel). */
function medianColour(data: Buffer, indices: number[], channels: number): [number, number, number] {
  const colour: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (const i of indices) histogram[data[i * channels + c]!]!++;
    let seen = 0;
    for (let value = 0; value < 256; value++) {
      seen += histogram[value]!;
      if (seen * 2 >= indices.length) {
        colour[c] = value;
        break;
      }
    }
  }
  return colour;
}

/** "Redmean" colour distance of the pixel at byte `o` to `colour` (0-765). */
function distance(data: Buffer, o: number, colour: readonly [number, number, number]): number {
  const r = data[o]!;
  const mean = (r + colour[0]) / 2;
  const dr = r - colour[0];
  const dg = data[o + 1]! - colour[1];
  const db = data[o + 2]! - colour[2];
  return Math.sqrt((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db);
}

/**
 * He, Sun and Tang's guided filter: `input` smoothed where `guide` is flat and kept sharp
 * across `guide`'s edges. Window radius `r`, regularisation `eps`.
 */
function guidedFilter(
  guide: Float32Array,
  input: Float32Array,
  width: number,
  height: number,
  r: number,
  eps: number,
): Float32Array {
  const n = width * height;
  const product = new Float32Array(n);
  const square = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    product[i] = guide[i]! * input[i]!;
    square[i] = guide[i]! * guide[i]!;
  }
  const meanGuide = boxMean(guide, width, height, r);
  const meanInput = boxMean(input, width, height, r);
  const meanProduct = boxMean(product, width, height, r);
  const meanSquare = boxMean(square, width, height, r);
  const a = product;
  const b = square;
  for (let i = 0; i < n; i++) {
    const variance = meanSquare[i]! - meanGuide[i]! ** 2;
    a[i] = (meanProduct[i]! - meanGuide[i]! * meanInput[i]!) / (variance + eps);
    b[i] = meanInput[i]! - a[i]! * meanGuide[i]!;
  }
  const meanA = boxMean(a, width, height, r);
  const meanB = boxMean(b, width, height, r);
  const output = new Float32Array(n);
  for (let i = 0; i < n; i++) output[i] = meanA[i]! * guide[i]! + meanB[i]!;
  return output;
}

/** The mean over each pixel's (2r+1)² window, clipped to the picture (running sums). */
function boxMean(input: Float32Array, width: number, height: number, r: number): Float32Array {
  const rows = new Float32Array(input.length);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(r, width - 1); x++) sum += input[base + x]!;
    for (let x = 0; x < width; x++) {
      rows[base + x] = sum / (Math.min(width - 1, x + r) - Math.max(0, x - r) + 1);
      if (x + r + 1 < width) sum += input[base + x + r + 1]!;
      if (x - r >= 0) sum -= input[base + x - r]!;
    }
  }
  const output = new Float32Array(input.length);
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = 0; y <= Math.min(r, height - 1); y++) sum += rows[y * width + x]!;
    for (let y = 0; y < height; y++) {
      output[y * width + x] = sum / (Math.min(height - 1, y + r) - Math.max(0, y - r) + 1);
      if (y + r + 1 < height) sum += rows[(y + r + 1) * width + x]!;
      if (y - r >= 0) sum -= rows[(y - r) * width + x]!;
    }
  }
  return output;
}

/**
 * Connected parts of `mask` (4-neighbour), as a label per pixel (-1 outside the mask) and each
 * part's size.
 */
function label(
  mask: (i: number) => boolean,
  width: number,
  height: number,
): { labels: Int32Array; sizes: number[] } {
  const n = width * height;
  const labels = new Int32Array(n).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || !mask(start)) continue;
    const id = sizes.length;
    let size = 0;
    labels[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      size++;
      const x = i % width;
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < width - 1 ? i + 1 : -1,
        i >= width ? i - width : -1,
        i + width < n ? i + width : -1,
      ])
        if (j >= 0 && labels[j] === -1 && mask(j)) {
          labels[j] = id;
          stack.push(j);
        }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/**
 * Backdrop-coloured parts the garment surrounds (touching no edge) become garment (a print),
 * except the neck opening: a hole near the garment's top and centre. Through it the flat lay
 * shows the inside of the collar's back; on a person the neck is there, so the hole stays open
 * and the collar's back above it goes too.
 */
function fillEnclosedHoles(alpha: Uint8Array, width: number, height: number): void {
  const rules = localTryOnRules.garment.neck;
  const { labels, sizes } = label((i) => alpha[i]! < 128, width, height);
  const open = new Uint8Array(sizes.length);
  for (let x = 0; x < width; x++) {
    for (const i of [x, (height - 1) * width + x]) if (labels[i]! >= 0) open[labels[i]!] = 1;
  }
  for (let y = 0; y < height; y++) {
    for (const i of [y * width, y * width + width - 1]) if (labels[i]! >= 0) open[labels[i]!] = 1;
  }
  let garmentTop = height;
  let garmentBottom = 0;
  let garmentLeft = width;
  let garmentRight = 0;
  const holeTop = new Array<number>(sizes.length).fill(height);
  const holeBottom = new Array<number>(sizes.length).fill(0);
  const holeSumX = new Array<number>(sizes.length).fill(0);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const id = labels[y * width + x]!;
      if (id < 0) {
        garmentTop = Math.min(garmentTop, y);
        garmentBottom = Math.max(garmentBottom, y);
        garmentLeft = Math.min(garmentLeft, x);
        garmentRight = Math.max(garmentRight, x);
      } else if (!open[id]) {
        holeTop[id] = Math.min(holeTop[id]!, y);
        holeBottom[id] = y;
        holeSumX[id]! += x;
      }
    }
  const garmentHeight = garmentBottom - garmentTop + 1;
  const garmentWidth = garmentRight - garmentLeft + 1;
  const centre = (garmentLeft + garmentRight) / 2;
  const isNeck = sizes.map(
    (size, id) =>
      !open[id] &&
      holeTop[id]! - garmentTop < garmentHeight * rules.maxTop &&
      holeBottom[id]! - garmentTop < garmentHeight * rules.maxBottom &&
      Math.abs(holeSumX[id]! / size - centre) < garmentWidth * rules.maxOffCentre &&
      size > garmentWidth * garmentHeight * rules.minArea,
  );
  for (let i = 0; i < alpha.length; i++)
    if (labels[i]! >= 0 && !open[labels[i]!] && !isNeck[labels[i]!]) alpha[i] = 255;
  for (let x = 0; x < width; x++) {
    let bottom = -1;
    for (let y = 0; y < height; y++) {
      const id = labels[y * width + x]!;
      if (id >= 0 && isNeck[id]) bottom = y;
    }
    for (let y = 0; y <= bottom; y++) alpha[y * width + x] = 0;
  }
}

/** Drops specks: separate parts smaller than `minPartShare` of the largest become transparent. */
function keepMainParts(image: Rgba): void {
  const { data, width, height } = image;
  const { labels, sizes } = label((i) => data[i * 4 + 3]! >= 128, width, height);
  const largest = Math.max(0, ...sizes);
  const keep = sizes.map((size) => size >= largest * localTryOnRules.garment.minPartShare);
  for (let i = 0; i < width * height; i++) {
    const id = labels[i]!;
    if (id >= 0 && !keep[id]) data[i * 4 + 3] = 0;
  }
}

/** The bounding box of the mostly opaque pixels, and how many there are. */
function opaqueBounds(image: Rgba): (Region & { count: number }) | null {
  const { data, width, height } = image;
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3]! < 128) continue;
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return count === 0 ? null : { left, top, right: right + 1, bottom: bottom + 1, count };
}

function crop(image: Rgba, box: Region): Rgba {
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((box.top + y) * image.width + box.left) * 4;
    image.data.copy(data, y * width * 4, from, from + width * 4);
  }
  return { data, width, height };
}

/** A box blur run three times (close to a Gaussian of sigma ≈ radius); edges clamp. */
function blur(input: Float32Array, width: number, height: number, radius: number): Float32Array {
  const a = Float32Array.from(input);
  const b = new Float32Array(input.length);
  const r = Math.max(1, Math.round(radius / Math.sqrt(3)));
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, height, width, 1, width, r);
    boxPass(b, a, width, height, width, 1, r);
  }
  return a;
}

/**
 * One running-sum box pass from `src` into `dst`: `lines` lines of `length` samples, `step`
 * apart within a line and `lineStep` between lines (rows: 1 and width; columns: width and 1).
 */
function boxPass(
  src: Float32Array,
  dst: Float32Array,
  lines: number,
  length: number,
  step: number,
  lineStep: number,
  r: number,
): void {
  const scale = 1 / (2 * r + 1);
  const last = length - 1;
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    const first = src[base]!;
    const end = src[base + last * step]!;
    let sum = first * (r + 1);
    for (let k = 1; k <= r; k++) sum += k <= last ? src[base + k * step]! : end;
    for (let k = 0; k < length; k++) {
      dst[base + k * step] = sum * scale;
      const add = k + r + 1;
      const remove = k - r;
      sum +=
        (add <= last ? src[base + add * step]! : end) -
        (remove >= 0 ? src[base + remove * step]! : first);
    }
  }
}

function smoothstep(from: number, to: number, value: number): number {
  const t = Math.max(0, Math.min(1, (value - from) / (to - from)));
  return t * t * (3 - 2 * t);
}
