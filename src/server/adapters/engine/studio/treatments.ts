import type { RgbImage } from '../../../images/rgb-image.ts';
import { seededRandom } from './backdrops/canvas.ts';
import type { Rgb, Scene } from './scene.ts';

/**
 * The finish of an offline studio picture: the scene's colour grade, its style treatment, the
 * vignette and the film grain, applied to the composed picture (about 512x640) before it is
 * upscaled. Everything runs in plain loops over Float32Arrays of sRGB-encoded values (0-1,
 * interleaved RGB); light is mixed in linear light where it physically adds up (white balance,
 * glow, vignette). Sizes (blur radii, dot pitch, canvas weave) scale with the picture, so a
 * treatment looks the same at any size.
 *
 * Grain: `finishPicture` adds it unless told not to; grain added before a 4x super-resolution
 * upscale comes out as soft 4-pixel blotches, so the upscaling caller should pass
 * `{ grain: false }` and add it at full size with `grainAfterUpscale`.
 */

interface Picture {
  /** sRGB-encoded, 0-1, interleaved RGB. */
  rgb: Float32Array;
  width: number;
  height: number;
}

export interface FinishOptions {
  /** Add the grain here (true) or leave it to `grainAfterUpscale` (false). */
  grain?: boolean;
}

export function finishPicture(
  image: RgbImage,
  scene: Scene,
  seed: number,
  options: FinishOptions = {},
): RgbImage {
  const picture = pictureOf(image);
  applyGrade(picture, scene.grade);
  const treated = applyTreatment(picture, scene, seed);
  applyVignette(treated, scene.vignette);
  if (options.grain ?? true) addGrain(treated, grainAmount(scene), seed);
  return imageOf(treated);
}

/**
 * The scene's grain for a picture already upscaled (see the module comment). The same pixels as
 * `imageOf(addGrain(pictureOf(image)))`, but straight from bytes to bytes: at 2048x2560 the float
 * copy of the picture alone is 63 MB, and the grain needs only its noise plane (21 MB, blurred in
 * place) and the result.
 */
export function grainAfterUpscale(image: RgbImage, scene: Scene, seed: number): RgbImage {
  const { data, width, height } = image;
  const out = Buffer.allocUnsafe(width * height * 3);
  const amount = grainAmount(scene);
  if (amount <= 0) {
    for (let i = 0; i < out.length; i++) out[i] = BYTE_ROUND_TRIP[data[i]!]!;
    return { data: out, width, height };
  }
  // As `scaled(picture, 0.0006)` in `addGrain`.
  const noise = grainNoise(width, height, seed, Math.min(width, height) * 0.0006);
  const depth = 0.075 * amount;
  for (let i = 0, j = 0; i < noise.length; i++, j += 3) {
    const r = data[j]!;
    const g = data[j + 1]!;
    const b = data[j + 2]!;
    // As `luminance` on the float picture: the byte's float value, then its linear light.
    const tone = toEncoded(
      LUMA_R * BYTE_LINEAR[r]! + LUMA_G * BYTE_LINEAR[g]! + LUMA_B * BYTE_LINEAR[b]!,
    );
    const weight = Math.sqrt(tone) * (1 - tone) * 2.6;
    const delta = noise[i]! * depth * weight;
    // The float picture held `value + delta` as a float32 before `imageOf` rounded it.
    out[j] = Math.round(clamp01(Math.fround(BYTE_FLOAT[r]! + delta)) * 255);
    out[j + 1] = Math.round(clamp01(Math.fround(BYTE_FLOAT[g]! + delta)) * 255);
    out[j + 2] = Math.round(clamp01(Math.fround(BYTE_FLOAT[b]! + delta)) * 255);
  }
  return { data: out, width, height };
}

/** Film is grainy by nature, whatever the scene asks for. */
function grainAmount(scene: Scene): number {
  return scene.treatment === 'film' ? Math.max(scene.grain, 0.35) : scene.grain;
}

// ---------------------------------------------------------------------------------------------
// Colour basics

const LUMA_R = 0.2126;
const LUMA_G = 0.7152;
const LUMA_B = 0.0722;

function decodeSrgb(encoded: number): number {
  return encoded <= 0.04045 ? encoded / 12.92 : Math.pow((encoded + 0.055) / 1.055, 2.4);
}

function encodeSrgb(linear: number): number {
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
}

const TABLE_STEPS = 4096;

/** A 0-1 → number function as a table read with linear interpolation (pow is slow per pixel). */
function tabulate(fn: (x: number) => number): (x: number) => number {
  const table = new Float32Array(TABLE_STEPS + 2);
  for (let i = 0; i <= TABLE_STEPS + 1; i++) table[i] = fn(Math.min(1, i / TABLE_STEPS));
  return (x) => {
    const position = (x <= 0 ? 0 : x >= 1 ? 1 : x) * TABLE_STEPS;
    const index = position | 0;
    const low = table[index]!;
    return low + (table[index + 1]! - low) * (position - index);
  };
}

const toLinear = tabulate(decodeSrgb);
const toEncoded = tabulate(encodeSrgb);

/** True (linear-light Rec. 709) luminance, sRGB-encoded: what a grey of the same brightness is. */
function luminance(r: number, g: number, b: number): number {
  return toEncoded(LUMA_R * toLinear(r) + LUMA_G * toLinear(g) + LUMA_B * toLinear(b));
}

function luminancePlane(picture: Picture): Float32Array {
  const { rgb } = picture;
  const plane = new Float32Array(picture.width * picture.height);
  for (let i = 0, j = 0; i < plane.length; i++, j += 3) {
    plane[i] = luminance(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!);
  }
  return plane;
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = clamp01((x - edge0) / (edge1 - edge0));
  return t * t * (3 - 2 * t);
}

function mix(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

function unit(colour: Rgb): [number, number, number] {
  return [colour[0] / 255, colour[1] / 255, colour[2] / 255];
}

/**
 * Sigmoidal contrast around mid-grey with the given slope there: an S-curve that deepens the
 * mid-tones and eases into black and white instead of clipping them.
 */
function sCurve(slope: number): (x: number) => number {
  if (slope <= 1.0001) return (x) => x;
  const logistic = (x: number) => 1 / (1 + Math.exp(-x));
  const slopeOf = (steepness: number) =>
    steepness / 4 / (logistic(steepness / 2) - logistic(-steepness / 2));
  let low = 0.0001;
  let high = 40;
  for (let i = 0; i < 50; i++) {
    const middle = (low + high) / 2;
    if (slopeOf(middle) < slope) low = middle;
    else high = middle;
  }
  const steepness = low;
  const bottom = logistic(-steepness / 2);
  const range = logistic(steepness / 2) - bottom;
  return (x) => (logistic(steepness * (x - 0.5)) - bottom) / range;
}

/**
 * Moves each pixel's colour away from (amount > 1) or towards (amount < 1) its grey, as far as
 * the amount asks or until a channel would leave 0-1: saturated colours stay colours instead of
 * clipping into flat patches.
 */
function saturate(r: number, g: number, b: number, amount: number, out: Float32Array, at: number) {
  const grey = luminance(r, g, b);
  const dr = r - grey;
  const dg = g - grey;
  const db = b - grey;
  const scale = Math.min(amount, roomFor(dr, grey), roomFor(dg, grey), roomFor(db, grey));
  out[at] = grey + dr * scale;
  out[at + 1] = grey + dg * scale;
  out[at + 2] = grey + db * scale;
}

/** How far a channel's offset from grey can be scaled before the channel leaves 0-1. */
function roomFor(delta: number, grey: number): number {
  if (delta > 1e-6) return (1 - grey) / delta;
  if (delta < -1e-6) return -grey / delta;
  return Infinity;
}

function saturatePicture(picture: Picture, amount: number): void {
  const { rgb } = picture;
  for (let j = 0; j < rgb.length; j += 3)
    saturate(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!, amount, rgb, j);
}

// ---------------------------------------------------------------------------------------------
// Buffers, noise, blur

function pictureOf(image: RgbImage): Picture {
  const rgb = new Float32Array(image.width * image.height * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = image.data[i]! / 255;
  return { rgb, width: image.width, height: image.height };
}

function imageOf(picture: Picture): RgbImage {
  const data = Buffer.alloc(picture.rgb.length);
  for (let i = 0; i < data.length; i++) data[i] = Math.round(clamp01(picture.rgb[i]!) * 255);
  return { data, width: picture.width, height: picture.height };
}

function blank(picture: Picture): Picture {
  return {
    rgb: new Float32Array(picture.rgb.length),
    width: picture.width,
    height: picture.height,
  };
}

/** Roughly normal noise (mean 0, deviation 1): a sum of four uniforms. */
function noisePlane(width: number, height: number, seed: number): Float32Array {
  const next = seededRandom(seed);
  const plane = new Float32Array(width * height);
  for (let i = 0; i < plane.length; i++) {
    plane[i] = (next() + next() + next() + next() - 2) * 1.7320508;
  }
  return plane;
}

function normaliseDeviation(plane: Float32Array): void {
  let sumOfSquares = 0;
  for (const value of plane) sumOfSquares += value * value;
  const scale = 1 / Math.sqrt(sumOfSquares / plane.length || 1);
  for (let i = 0; i < plane.length; i++) plane[i] = plane[i]! * scale;
}

/** Three box blurs in a row: a close, cheap Gaussian of the given deviation. */
function gaussianBlur(
  source: Float32Array,
  width: number,
  height: number,
  channels: number,
  sigma: number,
  vertical = true,
): Float32Array {
  let current = source.slice();
  if (sigma < 0.3) return current;
  let spare = new Float32Array(source.length);
  for (const radius of boxRadiiFor(sigma)) {
    boxBlurRows(current, spare, width, height, channels, radius);
    [current, spare] = [spare, current];
    if (vertical) {
      boxBlurColumns(current, spare, width, height, channels, radius);
      [current, spare] = [spare, current];
    }
  }
  return current;
}

function boxRadiiFor(sigma: number): number[] {
  const passes = 3;
  const idealWidth = Math.sqrt((12 * sigma * sigma) / passes + 1);
  let lower = Math.floor(idealWidth);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const lowerCount = Math.round(
    (12 * sigma * sigma - passes * lower * lower - 4 * passes * lower - 3 * passes) /
      (-4 * lower - 4),
  );
  return Array.from({ length: passes }, (_, pass) =>
    Math.max(0, ((pass < lowerCount ? lower : upper) - 1) / 2),
  );
}

function boxBlurRows(
  source: Float32Array,
  target: Float32Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
): void {
  const norm = 1 / (2 * radius + 1);
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    const row = y * width * channels;
    for (let c = 0; c < channels; c++) {
      const start = row + c;
      let sum = source[start]! * (radius + 1);
      for (let x = 1; x <= radius; x++) sum += source[start + Math.min(x, last) * channels]!;
      for (let x = 0; x < width; x++) {
        target[start + x * channels] = sum * norm;
        sum +=
          source[start + Math.min(x + radius + 1, last) * channels]! -
          source[start + Math.max(x - radius, 0) * channels]!;
      }
    }
  }
}

/** Row by row, with a running sum per column: the memory is read in order. */
function boxBlurColumns(
  source: Float32Array,
  target: Float32Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
): void {
  const norm = 1 / (2 * radius + 1);
  const stride = width * channels;
  const last = height - 1;
  const sums = new Float64Array(stride);
  for (let column = 0; column < stride; column++) sums[column] = source[column]! * (radius + 1);
  for (let y = 1; y <= radius; y++) {
    const row = Math.min(y, last) * stride;
    for (let column = 0; column < stride; column++) sums[column]! += source[row + column]!;
  }
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const entering = Math.min(y + radius + 1, last) * stride;
    const leaving = Math.max(y - radius, 0) * stride;
    for (let column = 0; column < stride; column++) {
      target[row + column] = sums[column]! * norm;
      sums[column]! += source[entering + column]! - source[leaving + column]!;
    }
  }
}

/** A length in pixels for a picture of this size, given as a share of its shorter side. */
function scaled(picture: Picture, shareOfShortSide: number): number {
  return Math.min(picture.width, picture.height) * shareOfShortSide;
}

// ---------------------------------------------------------------------------------------------
// Grade

function applyGrade(picture: Picture, grade: Scene['grade']): void {
  const { rgb } = picture;
  const [gainR, gainG, gainB] = whiteBalanceGains(grade.warmth);
  const contrast = grade.contrast >= 1 ? sCurve(grade.contrast) : fade(grade.contrast);
  const exponent = 1 / grade.brightness;
  // Brightness as a power curve keeps black black and white white and moves the mid-tones, as a
  // photographer's "exposure" slider with highlight protection does.
  const tone = tabulate((x) => contrast(Math.pow(x, exponent)));
  for (let j = 0; j < rgb.length; j += 3) {
    const r = tone(toEncoded(toLinear(rgb[j]!) * gainR));
    const g = tone(toEncoded(toLinear(rgb[j + 1]!) * gainG));
    const b = tone(toEncoded(toLinear(rgb[j + 2]!) * gainB));
    saturate(r, g, b, grade.saturation, rgb, j);
  }
}

/**
 * A white-balance shift as a camera makes it: channel gains in linear light along the
 * daylight-to-tungsten direction (warm raises red and lowers blue, a little green with it),
 * normalised so a white stays as bright.
 */
function whiteBalanceGains(warmth: number): [number, number, number] {
  const r = Math.exp(0.16 * warmth);
  const g = Math.exp(0.025 * warmth);
  const b = Math.exp(-0.3 * warmth);
  const norm = 1 / (LUMA_R * r + LUMA_G * g + LUMA_B * b);
  return [r * norm, g * norm, b * norm];
}

/** Lower contrast as a photographer grades it: a matte fade, blacks lifted and whites softened. */
function fade(contrast: number): (x: number) => number {
  return (x) => 0.5 + (x - 0.5) * contrast;
}

// ---------------------------------------------------------------------------------------------
// Treatments

function applyTreatment(picture: Picture, scene: Scene, seed: number): Picture {
  switch (scene.treatment) {
    case 'none':
      return picture;
    case 'mono':
      return toneMap(picture, monoGradient);
    case 'sepia':
      return toneMap(picture, sepiaGradient);
    case 'duotone':
      return duotone(picture, scene.duotone ?? defaultDuotone);
    case 'painterly':
      return oilPaint(picture, seed);
    case 'film':
      return film(picture);
    case 'neon':
      return neon(picture);
    case 'pop-art':
      return popArt(picture);
    case 'sketch':
      return pencilSketch(picture, seed);
    case 'vhs':
      return vhs(picture, seed);
  }
}

type Gradient = (tone: number) => [number, number, number];

const monoCurve = sCurve(1.15);
const monoGradient: Gradient = (tone) => {
  const grey = monoCurve(tone);
  return [grey, grey, grey];
};

/** Sepia toning: deep umber shadows, warm brown mid-tones, cream paper highlights. */
const sepiaStops: [number, Rgb][] = [
  [0, [24, 15, 9]],
  [0.45, [138, 98, 62]],
  [0.75, [204, 172, 128]],
  [1, [250, 242, 226]],
];
const sepiaGradient: Gradient = (tone) => {
  const t = monoCurve(tone);
  for (let i = 1; i < sepiaStops.length; i++) {
    const [end, to] = sepiaStops[i]!;
    if (t <= end || i === sepiaStops.length - 1) {
      const [start, from] = sepiaStops[i - 1]!;
      const along = clamp01((t - start) / (end - start));
      return [
        mix(from[0], to[0], along) / 255,
        mix(from[1], to[1], along) / 255,
        mix(from[2], to[2], along) / 255,
      ];
    }
  }
  return [t, t, t];
};

/** Each pixel's luminance through a gradient, read from a table. */
function toneMap(picture: Picture, gradient: Gradient, tones = luminancePlane(picture)): Picture {
  const steps = 1024;
  const table = new Float32Array((steps + 1) * 3);
  for (let i = 0; i <= steps; i++) table.set(gradient(i / steps), i * 3);
  const { rgb } = picture;
  for (let i = 0, j = 0; i < tones.length; i++, j += 3) {
    const at = Math.round(clamp01(tones[i]!) * steps) * 3;
    rgb[j] = table[at]!;
    rgb[j + 1] = table[at + 1]!;
    rgb[j + 2] = table[at + 2]!;
  }
  return picture;
}

const defaultDuotone: [Rgb, Rgb] = [
  [32, 28, 96],
  [255, 190, 150],
];

/**
 * Luminance stretched over the picture's own range (a duotone wants its full two-tone scale),
 * through a gentle S-curve, then mixed from the shadow colour to the highlight colour in sRGB: every
 * pixel lies on the line between the two.
 */
function duotone(picture: Picture, [shadow, highlight]: [Rgb, Rgb]): Picture {
  const tones = luminancePlane(picture);
  const low = percentile(tones, 0.01);
  const high = percentile(tones, 0.99);
  const span = Math.max(high - low, 0.05);
  for (let i = 0; i < tones.length; i++) tones[i] = (tones[i]! - low) / span;
  const curve = sCurve(1.25);
  const from = unit(shadow);
  const to = unit(highlight);
  return toneMap(
    picture,
    (tone) => {
      const t = curve(tone);
      return [mix(from[0], to[0], t), mix(from[1], to[1], t), mix(from[2], to[2], t)];
    },
    tones,
  );
}

function percentile(values: Float32Array, share: number): number {
  const bins = new Uint32Array(1024);
  for (const value of values) bins[Math.round(clamp01(value) * 1023)]!++;
  const wanted = share * values.length;
  let seen = 0;
  for (let bin = 0; bin < bins.length; bin++) {
    seen += bins[bin]!;
    if (seen >= wanted) return bin / 1023;
  }
  return 1;
}

// --- Painterly --------------------------------------------------------------------------------

/**
 * Oil paint: a generalised Kuwahara filter (Papari et al. 2007: eight overlapping sectors, each
 * weighted by how uniform it is) flattens the picture into patches of paint with crisp borders;
 * smoothing along the local edge direction drags the patches into brush strokes, and a second,
 * small Kuwahara pass crisps their borders again; bristle marks streaked the same way give the
 * paint a relief lit from the top left, and a canvas weave shows through. The radii stay small
 * enough to keep the eyes of a face a few dozen pixels wide.
 */
function oilPaint(picture: Picture, seed: number): Picture {
  const { width, height } = picture;
  const broad = kuwahara(picture, Math.max(2, Math.round(scaled(picture, 0.006))));
  const flow = edgeFlow(broad, scaled(picture, 0.012));
  const strokeLength = Math.max(3, Math.round(scaled(picture, 0.01)));
  const noise = noisePlane(width, height, seed ^ 0xb815);
  const { strokes, bristles } = smearAlongFlow(broad, noise, flow, strokeLength);
  const paint = kuwahara(strokes, Math.max(2, Math.round(scaled(picture, 0.004))));
  saturatePicture(paint, 1.2);
  addImpasto(paint, bristles);
  addCanvas(paint, seed);
  return paint;
}

function halfSize(picture: Picture): Picture {
  const { rgb, width, height } = picture;
  const halfWidth = Math.ceil(width / 2);
  const halfHeight = Math.ceil(height / 2);
  const half = new Float32Array(halfWidth * halfHeight * 3);
  for (let y = 0; y < halfHeight; y++) {
    const top = 2 * y * width;
    const bottom = Math.min(2 * y + 1, height - 1) * width;
    for (let x = 0; x < halfWidth; x++) {
      const left = 2 * x;
      const right = Math.min(2 * x + 1, width - 1);
      for (let c = 0; c < 3; c++) {
        half[(y * halfWidth + x) * 3 + c] =
          (rgb[(top + left) * 3 + c]! +
            rgb[(top + right) * 3 + c]! +
            rgb[(bottom + left) * 3 + c]! +
            rgb[(bottom + right) * 3 + c]!) /
          4;
      }
    }
  }
  return { rgb: half, width: halfWidth, height: halfHeight };
}

/** Bilinear resampling, pixel centres aligned. */
function resized(picture: Picture, width: number, height: number): Picture {
  const { rgb } = picture;
  const out = new Float32Array(width * height * 3);
  const scaleX = picture.width / width;
  const scaleY = picture.height / height;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(Math.max((y + 0.5) * scaleY - 0.5, 0), picture.height - 1);
    const y0 = sy | 0;
    const y1 = Math.min(y0 + 1, picture.height - 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(Math.max((x + 0.5) * scaleX - 0.5, 0), picture.width - 1);
      const x0 = sx | 0;
      const x1 = Math.min(x0 + 1, picture.width - 1);
      const fx = sx - x0;
      for (let c = 0; c < 3; c++) {
        const top = mix(
          rgb[(y0 * picture.width + x0) * 3 + c]!,
          rgb[(y0 * picture.width + x1) * 3 + c]!,
          fx,
        );
        const bottom = mix(
          rgb[(y1 * picture.width + x0) * 3 + c]!,
          rgb[(y1 * picture.width + x1) * 3 + c]!,
          fx,
        );
        out[(y * width + x) * 3 + c] = mix(top, bottom, fy);
      }
    }
  }
  return { rgb: out, width, height };
}

const KUWAHARA_SECTORS = 8;

interface SectorTap {
  dx: number;
  dy: number;
  sector: number;
  weight: number;
}

/**
 * The kernel's taps: every offset in the disc, with its weight in each sector it belongs to.
 * Sectors overlap smoothly (Gaussian in angle) and fade with distance (Gaussian in radius);
 * weights too small to matter are dropped, so a tap feeds two or three sectors, not eight.
 */
function sectorTaps(radius: number): SectorTap[] {
  const taps: SectorTap[] = [];
  const sectorAngle = (2 * Math.PI) / KUWAHARA_SECTORS;
  const angularSigma = sectorAngle * 0.45;
  const radialSigma = radius * 0.5;
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const distanceSquared = dx * dx + dy * dy;
      if (distanceSquared > radius * radius) continue;
      const radial = Math.exp(-distanceSquared / (2 * radialSigma * radialSigma));
      const angle = Math.atan2(dy, dx);
      for (let sector = 0; sector < KUWAHARA_SECTORS; sector++) {
        let weight: number;
        if (distanceSquared === 0) weight = radial / KUWAHARA_SECTORS;
        else {
          let offAxis = Math.abs(angle - sector * sectorAngle) % (2 * Math.PI);
          if (offAxis > Math.PI) offAxis = 2 * Math.PI - offAxis;
          weight = radial * Math.exp(-(offAxis * offAxis) / (2 * angularSigma * angularSigma));
        }
        if (weight > 0.04) taps.push({ dx, dy, sector, weight });
      }
    }
  }
  const totals = new Float64Array(KUWAHARA_SECTORS);
  for (const tap of taps) totals[tap.sector]! += tap.weight;
  for (const tap of taps) tap.weight /= totals[tap.sector]!;
  return taps;
}

function kuwahara(picture: Picture, radius: number): Picture {
  const { width, height } = picture;
  const padded = padPicture(picture, radius);
  const paddedWidth = width + 2 * radius;
  // Taps grouped by sector, so each sector's sums stay in local variables.
  const taps = sectorTaps(radius).sort((a, b) => a.sector - b.sector);
  const tapOffset = Int32Array.from(taps, (tap) => (tap.dy * paddedWidth + tap.dx) * 3);
  const tapWeight = Float32Array.from(taps, (tap) => tap.weight);
  const sectorEnd = Int32Array.from(
    { length: KUWAHARA_SECTORS },
    (_, sector) => taps.findLastIndex((tap) => tap.sector === sector) + 1,
  );
  const result = blank(picture);
  const out = result.rgb;
  // Variance scaled to 0-255 units and raised to the 4th power (q = 8), as in Kyprianidis'
  // implementation: a sector across an edge gets next to no say.
  const sharpness = 255;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const centre = ((y + radius) * paddedWidth + x + radius) * 3;
      let totalWeight = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      let t = 0;
      for (let sector = 0; sector < KUWAHARA_SECTORS; sector++) {
        let mr = 0;
        let mg = 0;
        let mb = 0;
        let squares = 0;
        for (const end = sectorEnd[sector]!; t < end; t++) {
          const at = centre + tapOffset[t]!;
          const weight = tapWeight[t]!;
          const sr = padded[at]!;
          const sg = padded[at + 1]!;
          const sb = padded[at + 2]!;
          mr += weight * sr;
          mg += weight * sg;
          mb += weight * sb;
          squares += weight * (sr * sr + sg * sg + sb * sb);
        }
        const spread = sharpness * Math.max(0, squares - mr * mr - mg * mg - mb * mb);
        const spreadSquared = spread * spread;
        const weight = 1 / (1 + spreadSquared * spreadSquared);
        totalWeight += weight;
        r += weight * mr;
        g += weight * mg;
        b += weight * mb;
      }
      const i = (y * width + x) * 3;
      out[i] = r / totalWeight;
      out[i + 1] = g / totalWeight;
      out[i + 2] = b / totalWeight;
    }
  }
  return result;
}

/** The picture with a border of `margin` pixels copied from its edges. */
function padPicture(picture: Picture, margin: number): Float32Array {
  const { rgb, width, height } = picture;
  const paddedWidth = width + 2 * margin;
  const padded = new Float32Array(paddedWidth * (height + 2 * margin) * 3);
  for (let y = 0; y < height + 2 * margin; y++) {
    const sourceRow = clampIndex(y - margin, height) * width;
    for (let x = 0; x < paddedWidth; x++) {
      const from = (sourceRow + clampIndex(x - margin, width)) * 3;
      const to = (y * paddedWidth + x) * 3;
      padded[to] = rgb[from]!;
      padded[to + 1] = rgb[from + 1]!;
      padded[to + 2] = rgb[from + 2]!;
    }
  }
  return padded;
}

function clampIndex(value: number, size: number): number {
  return value < 0 ? 0 : value >= size ? size - 1 : value;
}

/**
 * The direction along the edges at every pixel: the minor eigenvector of the smoothed structure
 * tensor of the luminance, as (cos, sin) pairs.
 */
function edgeFlow(picture: Picture, smoothing: number): Float32Array {
  const { width, height } = picture;
  const tones = luminancePlane(picture);
  const tensor = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const up = Math.max(y - 1, 0) * width;
    const row = y * width;
    const down = Math.min(y + 1, height - 1) * width;
    for (let x = 0; x < width; x++) {
      const left = Math.max(x - 1, 0);
      const right = Math.min(x + 1, width - 1);
      const gx =
        tones[up + right]! +
        2 * tones[row + right]! +
        tones[down + right]! -
        tones[up + left]! -
        2 * tones[row + left]! -
        tones[down + left]!;
      const gy =
        tones[down + left]! +
        2 * tones[down + x]! +
        tones[down + right]! -
        tones[up + left]! -
        2 * tones[up + x]! -
        tones[up + right]!;
      const at = (row + x) * 3;
      tensor[at] = gx * gx;
      tensor[at + 1] = gx * gy;
      tensor[at + 2] = gy * gy;
    }
  }
  const smoothed = gaussianBlur(tensor, width, height, 3, smoothing);
  const flow = new Float32Array(width * height * 2);
  for (let i = 0; i < width * height; i++) {
    const e = smoothed[i * 3]!;
    const f = smoothed[i * 3 + 1]!;
    const g = smoothed[i * 3 + 2]!;
    const gradientAngle = 0.5 * Math.atan2(2 * f, e - g);
    flow[i * 2] = -Math.sin(gradientAngle);
    flow[i * 2 + 1] = Math.cos(gradientAngle);
  }
  return flow;
}

/**
 * Line-integral smoothing: each pixel becomes the Gaussian-weighted mean of the pixels along the
 * streamline of the edge flow through it, so colour is dragged along edges and never across them.
 * The noise is smeared along the same streamlines in the same pass: bristle marks that follow
 * the strokes.
 */
function smearAlongFlow(
  picture: Picture,
  noise: Float32Array,
  flow: Float32Array,
  length: number,
): { strokes: Picture; bristles: Float32Array } {
  const { rgb, width, height } = picture;
  const strokes = blank(picture);
  const out = strokes.rgb;
  const bristles = new Float32Array(width * height);
  // Samples two pixels apart: half the work, and the bilinear reads still cover every pixel.
  const stride = 2;
  const steps = Math.ceil(length / stride);
  const sigma = length / 2;
  const stepWeights = Float32Array.from({ length: steps + 1 }, (_, step) =>
    Math.exp(-((step * stride) ** 2) / (2 * sigma * sigma)),
  );
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let r = rgb[i * 3]!;
      let g = rgb[i * 3 + 1]!;
      let b = rgb[i * 3 + 2]!;
      let n = noise[i]!;
      let total = 1;
      for (let direction = 1; direction >= -1; direction -= 2) {
        let px = x;
        let py = y;
        let dx = flow[i * 2]! * direction;
        let dy = flow[i * 2 + 1]! * direction;
        for (let step = 1; step <= steps; step++) {
          px += dx * stride;
          py += dy * stride;
          if (px < 0 || py < 0 || px > width - 1 || py > height - 1) break;
          const x0 = px | 0;
          const y0 = py | 0;
          const x1 = x0 + 1 < width ? 1 : 0;
          const y1 = y0 + 1 < height ? width : 0;
          const fx = px - x0;
          const fy = py - y0;
          const weight = stepWeights[step]!;
          const wa = weight * (1 - fx) * (1 - fy);
          const wb = weight * fx * (1 - fy);
          const wc = weight * (1 - fx) * fy;
          const wd = weight * fx * fy;
          const a = y0 * width + x0;
          const bb = a + x1;
          const c = a + y1;
          const d = c + x1;
          r += wa * rgb[a * 3]! + wb * rgb[bb * 3]! + wc * rgb[c * 3]! + wd * rgb[d * 3]!;
          g +=
            wa * rgb[a * 3 + 1]! +
            wb * rgb[bb * 3 + 1]! +
            wc * rgb[c * 3 + 1]! +
            wd * rgb[d * 3 + 1]!;
          b +=
            wa * rgb[a * 3 + 2]! +
            wb * rgb[bb * 3 + 2]! +
            wc * rgb[c * 3 + 2]! +
            wd * rgb[d * 3 + 2]!;
          n += wa * noise[a]! + wb * noise[bb]! + wc * noise[c]! + wd * noise[d]!;
          total += weight;
          // Follow the flow, keeping to the same way along it (the field has no sign).
          const next = (Math.round(py) * width + Math.round(px)) * 2;
          let nx = flow[next]!;
          let ny = flow[next + 1]!;
          if (nx * dx + ny * dy < 0) {
            nx = -nx;
            ny = -ny;
          }
          dx = nx;
          dy = ny;
        }
      }
      out[i * 3] = r / total;
      out[i * 3 + 1] = g / total;
      out[i * 3 + 2] = b / total;
      bristles[i] = n / total;
    }
  }
  normaliseDeviation(bristles);
  return { strokes, bristles };
}

/**
 * Thick paint catches the light: a relief lit from the top left, its height the paint's tone
 * plus the bristle marks.
 */
function addImpasto(picture: Picture, bristles: Float32Array): void {
  const { rgb, width, height } = picture;
  const heights = gaussianBlur(luminancePlane(picture), width, height, 1, 1.2);
  for (let i = 0; i < heights.length; i++) heights[i] = heights[i]! * 0.5 + bristles[i]! * 0.014;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const slope = heights[i - width - 1]! - heights[i + width + 1]!;
      const light = Math.max(-0.035, Math.min(0.035, slope * 0.38));
      rgb[i * 3]! += light;
      rgb[i * 3 + 1]! += light;
      rgb[i * 3 + 2]! += light;
    }
  }
}

/** A linen weave: crossing threads a few pixels apart, each a little uneven. */
function addCanvas(picture: Picture, seed: number): void {
  const { rgb, width, height } = picture;
  const pitch = Math.max(2.5, scaled(picture, 0.0065));
  const unevenness = gaussianBlur(noisePlane(width, height, seed ^ 0x5eed), width, height, 1, 0.7);
  const frequency = (2 * Math.PI) / pitch;
  for (let y = 0; y < height; y++) {
    const weft = Math.sin(y * frequency);
    for (let x = 0; x < width; x++) {
      const warp = Math.sin(x * frequency);
      const i = y * width + x;
      const texture = 0.012 * warp * weft + 0.008 * Math.abs(warp) + 0.012 * unevenness[i]!;
      const factor = 1 + texture - 0.008;
      rgb[i * 3]! *= factor;
      rgb[i * 3 + 1]! *= factor;
      rgb[i * 3 + 2]! *= factor;
    }
  }
}

// --- Film -------------------------------------------------------------------------------------

/**
 * A colour negative printed warm: the print's toe lifts the blacks to a milky charcoal, its
 * shoulder rolls the highlights off softly instead of clipping, colours a touch muted, shadows
 * cooled towards teal and highlights warmed towards amber, and a faint red halation round the
 * brightest parts. The grain comes with the common grain step (at least 0.35 for film).
 */
function film(picture: Picture): Picture {
  const { rgb, width, height } = picture;
  const contrast = sCurve(1.12);
  const shoulderStart = 0.68;
  const shoulderRoom = 0.28;
  const blackLift = 0.075;
  const curve = tabulate((x) => {
    let y = contrast(x);
    if (y > shoulderStart) {
      y = shoulderStart + shoulderRoom * (1 - Math.exp(-(y - shoulderStart) / shoulderRoom));
    }
    return blackLift + y * (1 - blackLift);
  });
  const halation = haloOf(picture, 0.75, scaled(picture, 0.012));
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    const r = curve(rgb[j]!);
    const g = curve(rgb[j + 1]!);
    const b = curve(rgb[j + 2]!);
    const tone = luminance(r, g, b);
    const shadow = (1 - tone) * (1 - tone);
    const light = tone * tone;
    const glow = halation[i]!;
    rgb[j] = r - 0.045 * shadow + 0.045 * light + 0.18 * glow;
    rgb[j + 1] = g + 0.015 * shadow + 0.015 * light + 0.05 * glow;
    rgb[j + 2] = b + 0.05 * shadow - 0.05 * light;
    saturate(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!, 0.88, rgb, j);
  }
  return picture;
}

/** How much light spills around the parts brighter than `threshold`: a blurred bright-pass. */
function haloOf(picture: Picture, threshold: number, sigma: number): Float32Array {
  const tones = luminancePlane(picture);
  for (let i = 0; i < tones.length; i++) tones[i] = Math.max(0, tones[i]! - threshold);
  return gaussianBlur(tones, picture.width, picture.height, 1, sigma);
}

// --- Neon -------------------------------------------------------------------------------------

/**
 * Night-club neon: a darker picture with deep contrast and crushed blacks, toned from violet
 * shadows through magenta mid-tones to cyan highlights, colour pushed hard, and a glow blooming
 * out of the bright areas in their own colour.
 */
function neon(picture: Picture): Picture {
  const { rgb } = picture;
  const contrast = sCurve(1.7);
  const curve = tabulate((x) => Math.max(0, contrast(Math.pow(x, 1.2)) - 0.03) / 0.97);
  const violet = [0.42, 0.08, 1];
  const magenta = [1, 0.1, 0.72];
  const cyan = [0.15, 0.92, 1];
  for (let j = 0; j < rgb.length; j += 3) {
    const r = curve(rgb[j]!);
    const g = curve(rgb[j + 1]!);
    const b = curve(rgb[j + 2]!);
    const tone = luminance(r, g, b);
    const [from, to, along] =
      tone < 0.35
        ? [violet, magenta, smoothstep(0.05, 0.35, tone)]
        : [magenta, cyan, smoothstep(0.35, 0.8, tone)];
    const tr = mix(from[0]!, to[0]!, along);
    const tg = mix(from[1]!, to[1]!, along);
    const tb = mix(from[2]!, to[2]!, along);
    // The tint keeps the pixel's luminance: the tint colour scaled to the pixel's light.
    const scale = toLinear(tone) / (LUMA_R * tr + LUMA_G * tg + LUMA_B * tb);
    const strength = 0.6;
    rgb[j] = mix(r, toEncoded(tr * scale), strength);
    rgb[j + 1] = mix(g, toEncoded(tg * scale), strength);
    rgb[j + 2] = mix(b, toEncoded(tb * scale), strength);
    saturate(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!, 1.4, rgb, j);
  }
  addBloom(picture, 0.3, [scaled(picture, 0.012), scaled(picture, 0.05)], 1.1);
  return picture;
}

/**
 * Glow: the light above `threshold` (linear), blurred at a tight and a wide radius, added back
 * in linear light as a lens and haze would.
 */
function addBloom(picture: Picture, threshold: number, sigmas: number[], strength: number): void {
  const { rgb, width, height } = picture;
  const bright = new Float32Array(rgb.length);
  for (let j = 0; j < rgb.length; j += 3) {
    const r = toLinear(rgb[j]!);
    const g = toLinear(rgb[j + 1]!);
    const b = toLinear(rgb[j + 2]!);
    const excess = Math.max(0, LUMA_R * r + LUMA_G * g + LUMA_B * b - threshold);
    const share = excess / (LUMA_R * r + LUMA_G * g + LUMA_B * b + 1e-6);
    bright[j] = r * share;
    bright[j + 1] = g * share;
    bright[j + 2] = b * share;
  }
  const glows = sigmas.map((sigma) => gaussianBlur(bright, width, height, 3, sigma));
  for (let j = 0; j < rgb.length; j++) {
    let glow = 0;
    for (const layer of glows) glow += layer[j]!;
    rgb[j] = toEncoded(toLinear(rgb[j]!) + (strength * glow) / glows.length);
  }
}

// --- Pop art ----------------------------------------------------------------------------------

const PAPER: [number, number, number] = [0.98, 0.96, 0.9];
const INK: [number, number, number] = [0.07, 0.05, 0.09];

/**
 * Screen-print pop art: the picture smoothed into flat areas, reduced to a handful of its own
 * colours (k-means) pushed to bold printing inks, the mid-tone areas printed as Ben-Day dots on
 * paper, and bold black contours drawn where the tone steps (difference of Gaussians).
 */
function popArt(picture: Picture): Picture {
  const { width, height } = picture;
  const half = halfSize(picture);
  const broad = resized(
    kuwahara(half, Math.max(2, Math.round(scaled(half, 0.011)))),
    width,
    height,
  );
  const flat = kuwahara(broad, Math.max(2, Math.round(scaled(picture, 0.004))));
  const centres = kMeans(flat.rgb, 6);
  const inks = boldInks(centres);
  const contours = inkContours(flat);
  const pitch = Math.max(4, scaled(picture, 0.012));
  const result = blank(picture);
  const out = result.rgb;
  const source = flat.rgb;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const at = i * 3;
      const ink = inks[nearestCentre(centres, source[at]!, source[at + 1]!, source[at + 2]!)]!;
      const dot = ink.dotted ? dotCoverage(x, y, pitch, 0.45) : 0;
      const contour = contours[i]!;
      for (let c = 0; c < 3; c++) {
        const printed = ink.dotted ? mix(ink.ground[c]!, ink.dot[c]!, dot) : ink.flat[c]!;
        out[at + c] = mix(printed, INK[c]!, contour);
      }
    }
  }
  return result;
}

interface Ink {
  flat: number[];
  dotted: boolean;
  ground: number[];
  dot: number[];
}

/** The `count` main colours of a picture: Lloyd's k-means from luminance-spread seeds. */
function kMeans(rgb: Float32Array, count: number): Float32Array {
  const samples: { at: number; tone: number }[] = [];
  for (let at = 0; at < rgb.length; at += 3 * 7) {
    samples.push({ at, tone: luminance(rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) });
  }
  samples.sort((a, b) => a.tone - b.tone);
  const centres = new Float32Array(count * 3);
  for (let k = 0; k < count; k++) {
    const { at } = samples[Math.floor(((k + 0.5) / count) * samples.length)]!;
    centres.set(rgb.subarray(at, at + 3), k * 3);
  }
  const sums = new Float64Array(count * 4);
  for (let iteration = 0; iteration < 10; iteration++) {
    sums.fill(0);
    for (const { at } of samples) {
      const k = nearestCentre(centres, rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) * 4;
      sums[k]! += rgb[at]!;
      sums[k + 1]! += rgb[at + 1]!;
      sums[k + 2]! += rgb[at + 2]!;
      sums[k + 3]! += 1;
    }
    for (let k = 0; k < count; k++) {
      const members = sums[k * 4 + 3]!;
      if (members === 0) continue;
      for (let c = 0; c < 3; c++) centres[k * 3 + c] = sums[k * 4 + c]! / members;
    }
  }
  return centres;
}

/** The closest of the centres (r, g, b triples), green counting most and blue least as for the eye. */
function nearestCentre(centres: Float32Array, r: number, g: number, b: number): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let k = 0; k < centres.length / 3; k++) {
    const dr = r - centres[k * 3]!;
    const dg = g - centres[k * 3 + 1]!;
    const db = b - centres[k * 3 + 2]!;
    const distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = k;
    }
  }
  return best;
}

/**
 * Printing inks for the picture's main colours: each hue at full strength (greys stay grey), the
 * darkest turned to near-black ink and the lightest kept light; the mid-tones become dots of their
 * ink on a pale ground of the same ink, as Lichtenstein's Ben-Day areas do.
 */
function boldInks(centres: Float32Array): Ink[] {
  const count = centres.length / 3;
  const tones = Array.from({ length: count }, (_, k) =>
    luminance(centres[k * 3]!, centres[k * 3 + 1]!, centres[k * 3 + 2]!),
  );
  const sortedTones = [...tones].sort((a, b) => a - b);
  return tones.map((tone, k) => {
    const rank = sortedTones.indexOf(tone);
    const [hue, saturation, lightness] = hslOf(
      centres[k * 3]!,
      centres[k * 3 + 1]!,
      centres[k * 3 + 2]!,
    );
    const strong = saturation < 0.15 ? saturation : Math.max(0.75, Math.min(1, saturation * 3));
    const lifted =
      rank === count - 1 ? Math.max(lightness, 0.78) : Math.min(Math.max(lightness, 0.3), 0.62);
    let flat = rgbOf(hue, strong, lifted);
    if (rank === 0) flat = flat.map((v, c) => mix(v, INK[c]!, 0.75));
    const dotted = rank > 0 && rank < count - 1 && tone > 0.3 && tone < 0.72;
    const ground = flat.map((v, c) => mix(v, PAPER[c]!, 0.78));
    return { flat, dotted, ground, dot: flat };
  });
}

function hslOf(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (chroma < 1e-6) return [0, 0, lightness];
  const saturation = chroma / (1 - Math.abs(2 * lightness - 1));
  let hue: number;
  if (max === r) hue = ((g - b) / chroma + 6) % 6;
  else if (max === g) hue = (b - r) / chroma + 2;
  else hue = (r - g) / chroma + 4;
  return [hue / 6, saturation, lightness];
}

function rgbOf(hue: number, saturation: number, lightness: number): number[] {
  const amplitude = saturation * Math.min(lightness, 1 - lightness);
  return [0, 8, 4].map((phase) => {
    const k = (phase + hue * 12) % 12;
    return lightness - amplitude * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  });
}

/** Coverage (0-1, anti-aliased) of a round halftone dot on a 45° screen at this pixel. */
function dotCoverage(x: number, y: number, pitch: number, areaShare: number): number {
  const u = (x + y) / Math.SQRT2 / pitch;
  const v = (x - y) / Math.SQRT2 / pitch;
  const du = (u - Math.round(u)) * pitch;
  const dv = (v - Math.round(v)) * pitch;
  const radius = pitch * Math.sqrt(areaShare / Math.PI);
  return clamp01(radius + 0.5 - Math.hypot(du, dv));
}

/**
 * Ink where the tone drops at an edge: the dark side of a difference of Gaussians, thresholded
 * softly so the contours come out bold and solid.
 */
function inkContours(picture: Picture): Float32Array {
  const { width, height } = picture;
  const tones = luminancePlane(picture);
  const sigma = Math.max(1, scaled(picture, 0.0025));
  const fine = gaussianBlur(tones, width, height, 1, sigma);
  const coarse = gaussianBlur(tones, width, height, 1, sigma * 1.8);
  const ink = new Float32Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = smoothstep(0.012, 0.03, coarse[i]! - fine[i]!);
  return ink;
}

// --- Sketch -----------------------------------------------------------------------------------

const SKETCH_PAPER: [number, number, number] = [0.96, 0.945, 0.915];

/**
 * A graphite drawing: the grey picture colour-dodged with its inverted blur (what is darker than
 * its surroundings becomes a line, flat areas go to paper), deepened so the lines read as
 * pencil, a little of the broad shading kept as diagonal hatching, on slightly toned paper.
 */
function pencilSketch(picture: Picture, seed: number): Picture {
  const { rgb, width, height } = picture;
  // A touch of blur first, so sensor noise does not come out as graphite specks.
  const tones = gaussianBlur(luminancePlane(picture), width, height, 1, scaled(picture, 0.0016));
  const blurred = gaussianBlur(tones, width, height, 1, scaled(picture, 0.012));
  const hatching = hatchTexture(width, height, seed, scaled(picture, 0.01));
  const shading = gaussianBlur(tones, width, height, 1, scaled(picture, 0.006));
  for (let i = 0, j = 0; i < tones.length; i++, j += 3) {
    const dodged = Math.min(1, tones[i]! / Math.max(blurred[i]!, 1e-3));
    const line = Math.pow(dodged, 3);
    const darkness = 1 - smoothstep(0.12, 0.7, shading[i]!);
    const hatched = 1 - darkness * 0.35 * clamp01(0.5 + hatching[i]!);
    // Graphite never gets as black as ink: it shines a little even where it is laid thick.
    const graphite = 0.12 + 0.88 * line * hatched;
    rgb[j] = SKETCH_PAPER[0] * graphite;
    rgb[j + 1] = SKETCH_PAPER[1] * graphite;
    rgb[j + 2] = SKETCH_PAPER[2] * graphite;
  }
  return picture;
}

/** Pencil strokes: noise smeared along one diagonal, about -0.5..0.5. */
function hatchTexture(
  width: number,
  height: number,
  seed: number,
  strokeLength: number,
): Float32Array {
  const noise = noisePlane(width, height, seed ^ 0x9a7c);
  const steps = Math.max(2, Math.round(strokeLength));
  const strokes = new Float32Array(width * height);
  const norm = 0.5 / Math.sqrt(2 * steps + 1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let step = -steps; step <= steps; step++) {
        const sx = clampIndex(x + step, width);
        const sy = clampIndex(y - step, height);
        sum += noise[sy * width + sx]!;
      }
      strokes[y * width + x] = sum * norm;
    }
  }
  return strokes;
}

// --- VHS --------------------------------------------------------------------------------------

/**
 * A VHS tape played back: luma a little soft with the tape's slight edge ringing, chroma smeared
 * wide along the lines and shifted right of the luma (the colour-under signal), colours a touch
 * hot with lifted blacks, the lines jittering, dark scanlines, tape noise, one tracking band of
 * torn, noisy lines at a seeded height and the head-switching tear at the bottom edge.
 */
function vhs(picture: Picture, seed: number): Picture {
  const { rgb, width, height } = picture;
  const next = seededRandom(seed ^ 0x7a9e);
  const pixels = width * height;
  const luma = new Float32Array(pixels);
  const chroma = new Float32Array(pixels * 2);
  for (let i = 0, j = 0; i < pixels; i++, j += 3) {
    const r = rgb[j]!;
    const g = rgb[j + 1]!;
    const b = rgb[j + 2]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    luma[i] = y;
    chroma[i * 2] = (b - y) * 1.15;
    chroma[i * 2 + 1] = (r - y) * 1.15;
  }
  const soft = gaussianBlur(luma, width, height, 1, scaled(picture, 0.0018), false);
  const halo = gaussianBlur(luma, width, height, 1, scaled(picture, 0.006), false);
  const smeared = gaussianBlur(chroma, width, height, 2, scaled(picture, 0.012), false);
  const chromaShift = Math.round(scaled(picture, 0.006));
  const noise = noisePlane(width, height, seed ^ 0x1234);

  const bandCentre = Math.round(height * (0.62 + 0.25 * next()));
  const bandHalfHeight = Math.max(3, Math.round(height * 0.012));
  const tearRows = Math.max(3, Math.round(height * 0.012));
  const rowShift = new Float32Array(height);
  for (let y = 0; y < height; y++) {
    let shift = (next() - 0.5) * 0.8;
    const inBand = 1 - Math.min(1, Math.abs(y - bandCentre) / bandHalfHeight);
    shift += inBand * (4 + 10 * next()) * (width / 512);
    if (y >= height - tearRows) shift += ((y - (height - tearRows)) / tearRows) * width * 0.04;
    rowShift[y] = shift;
  }

  const result = blank(picture);
  const out = result.rgb;
  const scanlinePeriod = Math.max(2, Math.round(height / 320));
  for (let y = 0; y < height; y++) {
    const shift = rowShift[y]!;
    const inBand = 1 - Math.min(1, Math.abs(y - bandCentre) / bandHalfHeight);
    const scanline = y % scanlinePeriod === 0 ? 0.86 : 1;
    for (let x = 0; x < width; x++) {
      const source = y * width + clampIndex(Math.round(x - shift), width);
      const chromaSource = y * width + clampIndex(Math.round(x - shift - chromaShift), width);
      const i = y * width + x;
      let value = soft[source]! + (soft[source]! - halo[source]!) * 0.6;
      value = 0.06 + value * 0.9 + noise[i]! * 0.018;
      if (inBand > 0 && noise[i]! > 1.6 - inBand) value = mix(value, 0.95, inBand);
      value *= scanline;
      const u = smeared[chromaSource * 2]!;
      const v = smeared[chromaSource * 2 + 1]!;
      out[i * 3] = value + 1.402 * v * 0.87;
      out[i * 3 + 1] = value - 0.344 * u * 0.87 - 0.714 * v * 0.87;
      out[i * 3 + 2] = value + 1.772 * u * 0.87;
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Vignette and grain

/**
 * Darkening towards the corners as a lens falls off: an elliptical smooth ramp from the middle
 * third, multiplied in linear light so colours keep their hue.
 */
function applyVignette(picture: Picture, strength: number): void {
  if (strength <= 0) return;
  const { rgb, width, height } = picture;
  const centreX = (width - 1) / 2;
  const centreY = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    const dy = (y - centreY) / centreY;
    for (let x = 0; x < width; x++) {
      const dx = (x - centreX) / centreX;
      const reach = Math.sqrt((dx * dx + dy * dy) / 2);
      const falloff = smoothstep(0.3, 1.05, reach);
      const factor = 1 - strength * 0.8 * falloff;
      const j = (y * width + x) * 3;
      rgb[j] = toEncoded(toLinear(rgb[j]!) * factor);
      rgb[j + 1] = toEncoded(toLinear(rgb[j + 1]!) * factor);
      rgb[j + 2] = toEncoded(toLinear(rgb[j + 2]!) * factor);
    }
  }
}

/**
 * Film grain: the same noise on all three channels (grain is silver, not colour), strongest in
 * the mid-tones and shadows, fading out towards white as on a print. A picture larger than the
 * ~600-pixel composition gets its grain softened a little so a grain spans more than one pixel.
 */
function addGrain(picture: Picture, amount: number, seed: number): void {
  if (amount <= 0) return;
  const { rgb, width, height } = picture;
  const noise = grainNoise(width, height, seed, scaled(picture, 0.0006));
  const depth = 0.075 * amount;
  for (let i = 0, j = 0; i < noise.length; i++, j += 3) {
    const tone = luminance(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!);
    const weight = Math.sqrt(tone) * (1 - tone) * 2.6;
    const delta = noise[i]! * depth * weight;
    rgb[j]! += delta;
    rgb[j + 1]! += delta;
    rgb[j + 2]! += delta;
  }
}

/** The grain's noise: clumped by a blur of `clump` px when that is at least half a pixel. */
function grainNoise(width: number, height: number, seed: number, clump: number): Float32Array {
  const noise = noisePlane(width, height, seed ^ 0x6a1f);
  if (clump >= 0.5) {
    gaussianBlurInPlace(noise, width, height, clump);
    normaliseDeviation(noise);
  }
  return noise;
}

/**
 * `gaussianBlur` of a one-channel plane, into the plane itself: the same arithmetic in the same
 * order (so the same numbers), with a row and a few rows of the original kept aside instead of a
 * copy and a spare plane.
 */
function gaussianBlurInPlace(plane: Float32Array, width: number, height: number, sigma: number) {
  if (sigma < 0.3) return;
  const row = new Float32Array(width);
  for (const radius of boxRadiiFor(sigma)) {
    for (let y = 0; y < height; y++) {
      const start = y * width;
      row.set(plane.subarray(start, start + width));
      boxBlurRows(row, plane.subarray(start, start + width), width, 1, 1, radius);
    }
    boxBlurColumnsInPlace(plane, width, height, radius);
  }
}

/** `boxBlurColumns` of a one-channel plane into itself, the overwritten rows kept in a ring. */
function boxBlurColumnsInPlace(plane: Float32Array, width: number, height: number, radius: number) {
  const norm = 1 / (2 * radius + 1);
  const last = height - 1;
  const slots = radius + 1;
  const ring = new Float32Array(slots * width);
  const sums = new Float64Array(width);
  for (let column = 0; column < width; column++) sums[column] = plane[column]! * (radius + 1);
  for (let y = 1; y <= radius; y++) {
    const at = Math.min(y, last) * width;
    for (let column = 0; column < width; column++) sums[column]! += plane[at + column]!;
  }
  for (let y = 0; y < height; y++) {
    const at = y * width;
    // Row y's original, for the rows after it that still read it (as leaving, or entering last).
    ring.set(plane.subarray(at, at + width), (y % slots) * width);
    for (let column = 0; column < width; column++) plane[at + column] = sums[column]! * norm;
    const entering = Math.min(y + radius + 1, last);
    const leaving = Math.max(y - radius, 0);
    const [enteringRows, enteringAt] =
      entering <= y ? [ring, (entering % slots) * width] : [plane, entering * width];
    const leavingAt = (leaving % slots) * width;
    for (let column = 0; column < width; column++)
      sums[column]! += enteringRows[enteringAt + column]! - ring[leavingAt + column]!;
  }
}

/** A byte's value in the float picture (`pictureOf`), its linear light, and back to a byte. */
const BYTE_FLOAT = Float64Array.from({ length: 256 }, (_, byte) => Math.fround(byte / 255));
const BYTE_LINEAR = Float64Array.from(BYTE_FLOAT, (value) => toLinear(value));
const BYTE_ROUND_TRIP = Uint8Array.from(BYTE_FLOAT, (value) => Math.round(clamp01(value) * 255));
