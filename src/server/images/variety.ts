import sharp from 'sharp';
import type { FaceLandmarks } from './faces.ts';
import type { RgbImage } from './rgb-image.ts';

/**
 * The variety check's measurement: is one training photo an edited copy of another (the same
 * shot mirrored, re-encoded, brightened, cropped, rotated or resized), or a different shot?
 *
 * Each photo gets a *variety patch*: the grey picture around its face (hair, neck, shoulders and
 * some background), turned and scaled so the eyes sit level at fixed points, from the face
 * mesh's eye centres (`varietyPatchOf`). Two patches are then registered finely
 * (`varietyScore`): affine Lucas–Kanade, inverse compositional, coarse to fine over three levels,
 * with brightness and contrast normalised at every step, once as they are and once with one of
 * them mirrored. What is left after the alignment decides: an edited copy of one shot aligns to
 * within the compression noise, while a different shot does not (the expression, the hair, the
 * parallax between the face and the background differ, which no affine warp undoes). The score is
 * the correlation of the two aligned patches' gradients, 1 = identical.
 *
 * Numbers measured on the fixtures in `bench/variety.ts` (bench/results/variety.md); the
 * threshold lives in photo-checks.ts.
 */

/** The patch: its size in pixels and where the eyes are in it. */
export const varietyPatch = {
  width: 96,
  height: 112,
  /** Pixels between the eye centres. */
  eyeDistance: 20,
  /** The eyes' row, as a share of the height from the top. */
  eyeRow: 0.4,
} as const;

/** A grey picture, one byte a pixel, rows top to bottom. */
export interface GreyImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1;
}

/**
 * The variety patch of the face with these landmarks (in `image`'s pixels): grey, one byte a
 * pixel, row by row; 0 marks a pixel outside the photo (the others are 1-255). `image` is the
 * photo in colour or already in grey (sharp's `greyscale()` of it: the same patch, cheaper).
 */
export async function varietyPatchOf(
  image: RgbImage | GreyImage,
  landmarks: FaceLandmarks,
): Promise<Buffer> {
  const { width: W, height: H, eyeDistance, eyeRow } = varietyPatch;
  const [lx, ly] = landmarks.leftEye;
  const [rx, ry] = landmarks.rightEye;
  const distance = Math.hypot(rx - lx, ry - ly);
  if (!(distance > 1)) throw new Error('The eyes are too close together to align the face');
  // Shrink first with sharp's filter (no aliasing), so the warp below only turns the picture.
  const shrink = Math.min(1, (eyeDistance * 1.5) / distance);
  const width = Math.max(1, Math.round(image.width * shrink));
  const height = Math.max(1, Math.round(image.height * shrink));
  const channels = 'channels' in image ? image.channels : 3;
  const grey = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels },
  })
    .resize({ width, height, fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  const sx = width / image.width;
  const sy = height / image.height;
  const midX = ((lx + rx) / 2) * sx;
  const midY = ((ly + ry) / 2) * sy;
  const scale = (distance * shrink) / eyeDistance;
  const angle = Math.atan2(ry - ly, rx - lx);
  const cos = Math.cos(angle) * scale;
  const sin = Math.sin(angle) * scale;
  const cx = (W - 1) / 2;
  const cy = eyeRow * H;
  const patch = Buffer.alloc(W * H);
  for (let v = 0; v < H; v++) {
    for (let u = 0; u < W; u++) {
      const du = u - cx;
      const dv = v - cy;
      const x = midX + cos * du - sin * dv;
      const y = midY + sin * du + cos * dv;
      const value = bilinear(grey, width, height, x, y);
      patch[v * W + u] = Number.isNaN(value) ? 0 : Math.max(1, Math.min(255, Math.round(value)));
    }
  }
  return patch;
}

function bilinear(image: ArrayLike<number>, width: number, height: number, x: number, y: number) {
  if (x < 0 || y < 0 || x > width - 1 || y > height - 1) return NaN;
  const x0 = Math.min(Math.floor(x), width - 2);
  const y0 = Math.min(Math.floor(y), height - 2);
  if (x0 < 0 || y0 < 0) return NaN; // a picture one pixel wide or high
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * width + x0;
  const top = image[i]! + (image[i + 1]! - image[i]!) * fx;
  const bottom = image[i + width]! + (image[i + width + 1]! - image[i + width]!) * fx;
  return top + (bottom - top) * fy;
}

/** A grey picture as floats, NaN where there is no picture. */
interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

function planeOf(patch: Uint8Array, mirrored: boolean): Plane {
  const { width, height } = varietyPatch;
  if (patch.length !== width * height) throw new Error('Not a variety patch of this size');
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = patch[y * width + (mirrored ? width - 1 - x : x)]!;
      data[y * width + x] = value === 0 ? NaN : value;
    }
  }
  return smooth({ data, width, height });
}

/** A 3x3 binomial blur (NaN spreads: a pixel next to the edge of the photo is dropped). */
function smooth(plane: Plane): Plane {
  const { width, height, data } = plane;
  const across = new Float32Array(data.length).fill(NaN);
  for (let y = 0; y < height; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      across[i] = (data[i - 1]! + 2 * data[i]! + data[i + 1]!) / 4;
    }
  }
  const out = new Float32Array(data.length).fill(NaN);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = (across[i - width]! + 2 * across[i]! + across[i + width]!) / 4;
    }
  }
  return { data: out, width, height };
}

/** Half the size, each pixel the mean of four (NaN when one of them is). */
function halve(plane: Plane): Plane {
  const width = Math.floor(plane.width / 2);
  const height = Math.floor(plane.height / 2);
  const data = new Float32Array(width * height);
  const src = plane.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 2 * y * plane.width + 2 * x;
      data[y * width + x] =
        (src[i]! + src[i + 1]! + src[i + plane.width]! + src[i + plane.width + 1]!) / 4;
    }
  }
  return { data, width, height };
}

function pyramid(plane: Plane, levels: number): Plane[] {
  const list = [plane];
  while (list.length < levels) list.push(halve(list[list.length - 1]!));
  return list;
}

/** Central-difference gradients, NaN where a neighbour is missing. */
function gradients(plane: Plane): { gx: Float32Array; gy: Float32Array } {
  const { width, height, data } = plane;
  const gx = new Float32Array(data.length).fill(NaN);
  const gy = new Float32Array(data.length).fill(NaN);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      gx[i] = (data[i + 1]! - data[i - 1]!) / 2;
      gy[i] = (data[i + width]! - data[i - width]!) / 2;
    }
  }
  return { gx, gy };
}

/**
 * An affine map of centred coordinates: (x, y) -> (m[0]x + m[1]y + m[2], m[3]x + m[4]y + m[5]).
 */
type Affine = [number, number, number, number, number, number];

const identityWarp = (): Affine => [1, 0, 0, 0, 1, 0];

function warp(image: Plane, m: Affine): Float32Array {
  const { width, height } = image;
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const yc = y - cy;
    for (let x = 0; x < width; x++) {
      const xc = x - cx;
      out[y * width + x] = bilinear(
        image.data,
        width,
        height,
        m[0] * xc + m[1] * yc + m[2] + cx,
        m[3] * xc + m[4] * yc + m[5] + cy,
      );
    }
  }
  return out;
}

/** Solves a 6x6 system (Gaussian elimination with pivoting); null when singular. */
function solve6(a: number[][], b: number[]): number[] | null {
  const n = 6;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) {
      if (Math.abs(m[row]![col]!) > Math.abs(m[pivot]![col]!)) pivot = row;
    }
    if (Math.abs(m[pivot]![col]!) < 1e-9) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let row = col + 1; row < n; row++) {
      const f = m[row]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[row]![k]! -= f * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = m[row]![n]!;
    for (let k = row + 1; k < n; k++) sum -= m[row]![k]! * x[k]!;
    x[row] = sum / m[row]![row]!;
  }
  return x;
}

/** `m` after the inverse of the small step `d` (inverse compositional update). */
function composeInverse(m: Affine, d: number[]): Affine | null {
  // The step as a matrix [[1+d0, d1, d2], [d3, 1+d4, d5]], inverted.
  const a = 1 + d[0]!;
  const b = d[1]!;
  const c = d[3]!;
  const e = 1 + d[4]!;
  const det = a * e - b * c;
  if (Math.abs(det) < 1e-9) return null;
  const ia = e / det;
  const ib = -b / det;
  const ic = -c / det;
  const ie = a / det;
  const itx = -(ia * d[2]! + ib * d[5]!);
  const ity = -(ic * d[2]! + ie * d[5]!);
  return [
    m[0] * ia + m[1] * ic,
    m[0] * ib + m[1] * ie,
    m[0] * itx + m[1] * ity + m[2],
    m[3] * ia + m[4] * ic,
    m[3] * ib + m[4] * ie,
    m[3] * itx + m[4] * ity + m[5],
  ];
}

/** The iterations per level, finest (the patch itself) first. */
const iterations = [5, 15, 30];
/**
 * Below this score at half size the pair is a different shot and the full-size level is not
 * run (60 of the 62 different-shot pairs of person A stop there); every same-shot pair measured
 * scores 0.984 or more at half size (bench/results/variety.md).
 */
const halfSizeGiveUp = 0.8;

/**
 * Refines `m`, the affine map from template to image coordinates, on one level of the two
 * pyramids (Lucas–Kanade, inverse compositional). Brightness and contrast of the warped image are
 * matched to the template's over their overlap at every step.
 */
function register(templates: Plane[], images: Plane[], m: Affine, level: number): Affine {
  const t = templates[level]!;
  const i = images[level]!;
  const { gx, gy } = gradients(t);
  const cx = (t.width - 1) / 2;
  const cy = (t.height - 1) / 2;
  for (let step = 0; step < iterations[level]!; step++) {
    const warped = warp(i, m);
    let n = 0;
    let sumT = 0;
    let sumI = 0;
    let sumTT = 0;
    let sumII = 0;
    for (let k = 0; k < warped.length; k++) {
      const a = t.data[k]!;
      const b = warped[k]!;
      if (Number.isNaN(a + b + gx[k]! + gy[k]!)) continue;
      n++;
      sumT += a;
      sumI += b;
      sumTT += a * a;
      sumII += b * b;
    }
    if (n < 50) return m;
    const meanT = sumT / n;
    const meanI = sumI / n;
    const sdT = Math.sqrt(Math.max(1e-6, sumTT / n - meanT * meanT));
    const sdI = Math.sqrt(Math.max(1e-6, sumII / n - meanI * meanI));
    const gain = sdT / sdI;
    const h = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
    const rhs = new Array<number>(6).fill(0);
    const sd = new Array<number>(6);
    for (let y = 0; y < t.height; y++) {
      const yc = y - cy;
      for (let x = 0; x < t.width; x++) {
        const k = y * t.width + x;
        const a = t.data[k]!;
        const b = warped[k]!;
        const ax = gx[k]!;
        const ay = gy[k]!;
        if (Number.isNaN(a + b + ax + ay)) continue;
        const xc = x - cx;
        const error = (b - meanI) * gain + meanT - a;
        sd[0] = ax * xc;
        sd[1] = ax * yc;
        sd[2] = ax;
        sd[3] = ay * xc;
        sd[4] = ay * yc;
        sd[5] = ay;
        for (let r = 0; r < 6; r++) {
          rhs[r]! += sd[r]! * error;
          const row = h[r]!;
          for (let c = r; c < 6; c++) row[c]! += sd[r]! * sd[c]!;
        }
      }
    }
    for (let r = 0; r < 6; r++) for (let c = 0; c < r; c++) h[r]![c] = h[c]![r]!;
    const d = solve6(h, rhs);
    if (!d) break;
    const next = composeInverse(m, d);
    if (!next) break;
    m = next;
    // Converged: the step moves no corner of the template by more than 0.01 px.
    const moved = Math.abs(d[0]!) * cx + Math.abs(d[1]!) * cy + Math.abs(d[2]!);
    const movedY = Math.abs(d[3]!) * cx + Math.abs(d[4]!) * cy + Math.abs(d[5]!);
    if (moved < 0.01 && movedY < 0.01) break;
  }
  return m;
}

/** The same map on a level twice as large. */
const finer = (m: Affine): Affine => [m[0], m[1], m[2] * 2, m[3], m[4], m[5] * 2];

/** The two patches' overlap must be at least this share of the template's pixels. */
const minOverlap = 0.35;

/**
 * How alike two aligned pictures' gradients are: the correlation of (gx, gy) over the pixels
 * both have, 0..1. Brightness and contrast drop out; so does a smooth change of shading.
 */
function gradientCorrelation(template: Plane, warped: Plane): number {
  const a = gradients(template);
  const b = gradients(warped);
  let templateCount = 0;
  let n = 0;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < template.data.length; k++) {
    if (Number.isNaN(a.gx[k]! + a.gy[k]!)) continue;
    templateCount++;
    if (Number.isNaN(b.gx[k]! + b.gy[k]!)) continue;
    n++;
    ab += a.gx[k]! * b.gx[k]! + a.gy[k]! * b.gy[k]!;
    aa += a.gx[k]! * a.gx[k]! + a.gy[k]! * a.gy[k]!;
    bb += b.gx[k]! * b.gx[k]! + b.gy[k]! * b.gy[k]!;
  }
  if (n < minOverlap * templateCount || aa === 0 || bb === 0) return 0;
  return Math.max(0, ab / Math.sqrt(aa * bb));
}

/**
 * How sure it is that two variety patches show the same shot, 0..1: the better of `b` as it is
 * and `b` mirrored, each registered onto `a`. Symmetric enough for the check (`a` is the
 * template), deterministic, a few milliseconds.
 */
export function varietyScore(a: Uint8Array, b: Uint8Array): number {
  return varietyMeasures(a, b).score;
}

/** `varietyScore` with what it was made of, for the measurements in bench/variety.ts. */
export function varietyMeasures(
  a: Uint8Array,
  b: Uint8Array,
): { score: number; mirrored: boolean; intensity: number; warp: Affine; halfSize: number } {
  const templates = pyramid(planeOf(a, false), iterations.length);
  let best = { score: -1, mirrored: false, intensity: 0, warp: identityWarp(), halfSize: 0 };
  for (const mirrored of [false, true]) {
    const images = pyramid(planeOf(b, mirrored), iterations.length);
    let m = identityWarp();
    for (let level = iterations.length - 1; level >= 1; level--) {
      m = finer(register(templates, images, m, level));
    }
    // m is now for full size; score the half-size alignment first.
    const half: Affine = [m[0], m[1], m[2] / 2, m[3], m[4], m[5] / 2];
    const halfImage = images[1]!;
    const halfSize = gradientCorrelation(templates[1]!, {
      ...halfImage,
      data: warp(halfImage, half),
    });
    let score = halfSize;
    let intensity = 0;
    if (halfSize >= halfSizeGiveUp) {
      m = register(templates, images, m, 0);
      const image = images[0]!;
      const warped: Plane = { ...image, data: warp(image, m) };
      score = gradientCorrelation(templates[0]!, warped);
      intensity = intensityCorrelation(templates[0]!, warped);
    }
    if (score > best.score) best = { score, mirrored, intensity, warp: m, halfSize };
  }
  return best;
}

/** The plain correlation of two aligned pictures over the pixels both have (for comparison). */
function intensityCorrelation(template: Plane, warped: Plane): number {
  let n = 0;
  let sa = 0;
  let sb = 0;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let k = 0; k < template.data.length; k++) {
    const a = template.data[k]!;
    const b = warped.data[k]!;
    if (Number.isNaN(a + b)) continue;
    n++;
    sa += a;
    sb += b;
    sab += a * b;
    saa += a * a;
    sbb += b * b;
  }
  if (n === 0) return 0;
  const cov = sab / n - (sa / n) * (sb / n);
  const va = saa / n - (sa / n) ** 2;
  const vb = sbb / n - (sb / n) ** 2;
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : 0;
}
