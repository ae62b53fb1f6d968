import sharp from 'sharp';
import { messages } from '../../../common/messages.ts';
import { photos as photoRules } from '../../../common/product.ts';
import { analyzePhoto, type FaceBox, type PhotoAnalysis } from '../../images/faces.ts';
import { countedFaces } from '../../images/photo-checks.ts';
import type { Storage } from '../storage/storage.ts';
import { previewBadgeOverlay } from './preview-badge.ts';
import type { TryOnEngine, TryOnRequest, TryOnStart, TryOnState } from './tryon-engine.ts';

/**
 * The `local` try-on engine: no GPU, no network, about half a second (most of it the face
 * detection). It makes a *preview*, not an AI render: the garment photo cut out and laid over
 * the person's torso, with a "Preview" badge.
 *
 * 1. Finds the person's face (the largest counted face) and estimates the torso from its box:
 *    starting a little below the chin, `widthFaces` face widths wide (centred under the face)
 *    and `heightFaces` face heights tall, clamped to the picture.
 * 2. Cuts the garment out of a flat-lay or product photo: a garment photo that already has
 *    transparency keeps it; otherwise the background colour is the median of the border pixels,
 *    and the pixels like it that connect to the border (a flood fill, so a white print inside a
 *    shirt stays) become transparent, with a soft edge. A photo whose border is not plain (a
 *    garment worn by someone, a busy scene) is refused: there is nothing to cut out reliably.
 *    The result is trimmed to the garment's bounding box.
 * 3. Scales the garment to the torso's width (keeping its aspect; whatever reaches past the
 *    picture's bottom is cut) and places it centred, its top at the torso's top.
 * 4. Blends it with a feathered edge over a soft drop shadow. Nothing above the chin changes, so
 *    the face is untouched.
 * 5. Draws the "Preview" badge and encodes a JPEG of the person photo's (upright) size.
 */

export const localTryOnRules = {
  torso: {
    /** The torso starts this share of the face height below the face box's bottom (which the
     * detector puts a little below the chin: about where the neck meets the shoulders). */
    gap: 0,
    widthFaces: 2.6,
    heightFaces: 3,
    /** A torso region smaller than this (px, either side) means the photo shows no body. */
    minSide: 16,
  },
  garment: {
    /** The garment photo is worked on at most this size (long side). */
    maxSide: 1024,
    /** The border ring the background colour is estimated from (share of the short side). */
    border: 0.02,
    /**
     * Colour distance (redmean-weighted RGB, 0-765) to the background colour: below `near` a
     * pixel is background (transparent), fading to fully garment at `far`.
     */
    near: 28,
    far: 64,
    /** The border counts as a plain background when this share of it is within `far`. */
    minPlainBorder: 0.6,
    /** A garment photo with this share of transparent border pixels brings its own cut-out. */
    transparentBorder: 0.5,
    /** The garment must cover at least this share of its photo. */
    minCoverage: 0.02,
  },
  blend: {
    /** Edge feather radius, as a share of the placed garment's width (at least 1 px). */
    feather: 0.004,
    shadow: {
      /** Offset down and right, blur radius (shares of the garment's width), darkening at most. */
      offsetX: 0.006,
      offsetY: 0.012,
      blur: 0.02,
      strength: 0.35,
    },
  },
  jpegQuality: 90,
} as const;

interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}

interface Rgba {
  /** RGBA, 8 bits per channel. */
  data: Buffer;
  width: number;
  height: number;
}

interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Why a try-on cannot be made: the words shown to the user. */
class Refusal {
  constructor(readonly error: string) {}
}

export function createLocalTryOnEngine({ storage }: { storage: Storage }): TryOnEngine {
  async function readImage(key: string): Promise<Buffer | Refusal> {
    if (!(await storage.exists(key))) return new Refusal(messages.tryon.errors.imageLoad);
    return storage.read(key);
  }

  async function tryOn(request: TryOnRequest): Promise<TryOnState> {
    const [personBytes, garmentBytes] = await Promise.all([
      readImage(request.personKey),
      readImage(request.garmentKey),
    ]);
    if (personBytes instanceof Refusal) return failed(personBytes);
    if (garmentBytes instanceof Refusal) return failed(garmentBytes);

    const [analysis, person, garment] = await Promise.all([
      analyzePhoto(personBytes).catch(() => new Refusal(messages.tryon.errors.imageLoad)),
      decodePerson(personBytes).catch(() => new Refusal(messages.tryon.errors.imageLoad)),
      cutOutGarment(garmentBytes).catch(() => new Refusal(messages.tryon.errors.imageLoad)),
    ]);
    if (analysis instanceof Refusal) return failed(analysis);
    if (person instanceof Refusal) return failed(person);
    if (garment instanceof Refusal) return failed(garment);

    const face = mainFace(analysis);
    if (!face) return failed(new Refusal(messages.tryon.errors.noFace));
    const torso = torsoRegion(face, person.width, person.height);
    if (!torso) return failed(new Refusal(messages.tryon.errors.pose));

    const width = torso.right - torso.left;
    const height = Math.max(1, Math.round((garment.height * width) / garment.width));
    const scaled = await resizeRgba(garment, width, height);
    const chin = Math.min(person.height, Math.ceil(face.y + face.height));
    compose(person, scaled, torso.left, torso.top, chin);

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
      return { status: 'failed', error: messages.tryon.errors.generic };
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

async function decodePerson(bytes: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(bytes, { limitInputPixels: photoRules.maxPixels })
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
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

/** The torso below a face box, clamped to the picture; null when too little of it is inside. */
export function torsoRegion(face: FaceBox, width: number, height: number): Region | null {
  const rules = localTryOnRules.torso;
  const centre = face.x + face.width / 2;
  const halfWidth = (face.width * rules.widthFaces) / 2;
  const top = face.y + face.height * (1 + rules.gap);
  const region = {
    left: Math.max(0, Math.round(centre - halfWidth)),
    right: Math.min(width, Math.round(centre + halfWidth)),
    top: Math.max(0, Math.round(top)),
    bottom: Math.min(height, Math.round(top + face.height * rules.heightFaces)),
  };
  return region.right - region.left >= rules.minSide && region.bottom - region.top >= rules.minSide
    ? region
    : null;
}

/** The garment alone: its photo's background made transparent, trimmed to the garment. */
async function cutOutGarment(bytes: Buffer): Promise<Rgba | Refusal> {
  const side = localTryOnRules.garment.maxSide;
  const { data, info } = await sharp(bytes, { limitInputPixels: photoRules.maxPixels })
    .rotate()
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: Rgba = { data, width: info.width, height: info.height };
  const rules = localTryOnRules.garment;
  const border = borderIndices(image.width, image.height, rules.border);
  const transparent = border.filter((i) => data[i * 4 + 3]! < 128).length;
  if (transparent < border.length * rules.transparentBorder) {
    const background = medianColour(data, border);
    const plain = border.filter((i) => distance(data, i, background) < rules.far).length;
    if (plain < border.length * rules.minPlainBorder)
      return new Refusal(messages.tryon.errors.noGarment);
    keyOut(image, border, background);
  }
  const box = opaqueBounds(image);
  if (!box || box.count < image.width * image.height * rules.minCoverage)
    return new Refusal(messages.tryon.errors.noGarment);
  return crop(image, box);
}

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

/** Per-channel median of the pixels at `indices`. */
function medianColour(data: Buffer, indices: number[]): [number, number, number] {
  const colour: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (const i of indices) histogram[data[i * 4 + c]!]!++;
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

/** "Redmean" colour distance: RGB weighted by how the eye sees differences (0-765). */
function distance(data: Buffer, i: number, colour: readonly [number, number, number]): number {
  const r = data[i * 4]!;
  const mean = (r + colour[0]) / 2;
  const dr = r - colour[0];
  const dg = data[i * 4 + 1]! - colour[1];
  const db = data[i * 4 + 2]! - colour[2];
  return Math.sqrt((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db);
}

/**
 * Makes the background transparent, in place: a flood fill from the border through pixels
 * within `far` of the background colour; each reached pixel's alpha rises from 0 at `near` to
 * full at `far` (the soft edge). Pixels the fill cannot reach stay as they are.
 */
function keyOut(image: Rgba, border: number[], background: [number, number, number]): void {
  const { data, width, height } = image;
  const { near, far } = localTryOnRules.garment;
  const size = width * height;
  const visited = new Uint8Array(size);
  const queue = new Int32Array(size);
  let head = 0;
  let tail = 0;
  const visit = (i: number) => {
    if (visited[i]) return;
    visited[i] = 1;
    const d = distance(data, i, background);
    if (d >= far) return;
    data[i * 4 + 3] = Math.round(data[i * 4 + 3]! * smoothstep(near, far, d));
    queue[tail++] = i;
  };
  for (const i of border) visit(i);
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % width;
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i < size - width) visit(i + width);
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

async function resizeRgba(image: Rgba, width: number, height: number): Promise<Rgba> {
  // sharp premultiplies the alpha while resizing, so no background colour bleeds into the edge.
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/**
 * Lays the garment over the person at (`left`, `top`), in place: the person darkened by the
 * garment's blurred, offset silhouette (the shadow), then the garment over it through its
 * feathered alpha. Rows above `protectTop` (the face) are never touched; only the part of the
 * garment inside the picture is worked on.
 */
function compose(person: Rgb, garment: Rgba, left: number, top: number, protectTop: number): void {
  const rules = localTryOnRules.blend;
  const gw = garment.width;
  const gh = garment.height;
  const feather = Math.max(1, gw * rules.feather);
  const shadowBlur = Math.max(1, gw * rules.shadow.blur);
  const dx = Math.round(gw * rules.shadow.offsetX);
  const dy = Math.round(gw * rules.shadow.offsetY);
  // The work area: the garment plus room for the shadow, cut at the picture's bottom (the
  // blur's clamped edge then continues the garment past it, as it does).
  const pad = Math.ceil(shadowBlur * 2) + Math.max(dx, dy);
  const originX = left - pad;
  const originY = top - pad;
  const areaW = gw + 2 * pad;
  const areaH = Math.min(gh + 2 * pad, person.height - originY);
  if (areaH <= 0) return;
  const alpha = new Float32Array(areaW * areaH);
  for (let y = 0; y < Math.min(gh, areaH - pad); y++) {
    const row = (y + pad) * areaW + pad;
    for (let x = 0; x < gw; x++) alpha[row + x] = garment.data[(y * gw + x) * 4 + 3]! / 255;
  }
  const soft = blur(alpha, areaW, areaH, feather);
  const shadow = blur(alpha, areaW, areaH, shadowBlur);

  const strength = rules.shadow.strength;
  const data = person.data;
  const fromY = Math.max(0, originY, protectTop);
  const toY = Math.min(person.height, originY + areaH);
  const fromX = Math.max(0, originX);
  const toX = Math.min(person.width, originX + areaW);
  for (let py = fromY; py < toY; py++) {
    const ay = py - originY;
    const sy = ay - dy;
    const gy = ay - pad;
    for (let px = fromX; px < toX; px++) {
      const ax = px - originX;
      const sx = ax - dx;
      const s = sx >= 0 && sy >= 0 && sx < areaW && sy < areaH ? shadow[sy * areaW + sx]! : 0;
      const a = soft[ay * areaW + ax]!;
      if (s <= 0.002 && a <= 0.002) continue;
      const darken = 1 - strength * s;
      const gx = ax - pad;
      // The garment's colour where it has one; the feathered alpha reaches a pixel or so past
      // its cut-out, where there is only the (darkened) person.
      const g = gx >= 0 && gy >= 0 && gx < gw && gy < gh ? (gy * gw + gx) * 4 : -1;
      const o = (py * person.width + px) * 3;
      for (let c = 0; c < 3; c++) {
        const under = data[o + c]! * darken;
        const over = g >= 0 ? garment.data[g + c]! : under;
        data[o + c] = Math.round(under + (over - under) * a);
      }
    }
  }
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
