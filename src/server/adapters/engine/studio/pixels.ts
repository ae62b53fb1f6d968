/** Pixel helpers the studio engine's stages share: blurs, curves, sRGB ⇄ linear ⇄ CIELAB. */

/**
 * A box blur run three times (close to a Gaussian of sigma ≈ radius), per channel of an
 * interleaved `channels`-wide image; edges clamp. Wide blurs run on a grid `radius / 8` times
 * coarser and are interpolated back: the result is smooth anyway, and it costs far less.
 */
export function blur(
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

export function smoothstep(from: number, to: number, value: number): number {
  const t = Math.max(0, Math.min(1, (value - from) / (to - from)));
  return t * t * (3 - 2 * t);
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
export function toLinear(value: number): number {
  const v = value <= 0 ? 0 : value >= 255 ? 255 : value;
  const i = v | 0;
  return linearTable[i]! + (linearTable[i + 1]! - linearTable[i]!) * (v - i);
}
/** Linear 0-1 to 0-255 sRGB, clamped. */
export function fromLinear(value: number): number {
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
export function rgbToLab(r: number, g: number, b: number, out: [number, number, number]): void {
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
export function labToRgb(l: number, a: number, b: number, out: [number, number, number]): void {
  const fy = (l + 16) / 116;
  const x = labFInverse(fy + a / 500) * whiteX;
  const y = labFInverse(fy);
  const z = labFInverse(fy - b / 200) * whiteZ;
  out[0] = fromLinear(3.2404542 * x - 1.5371385 * y - 0.4985314 * z);
  out[1] = fromLinear(-0.969266 * x + 1.8760108 * y + 0.041556 * z);
  out[2] = fromLinear(0.0556434 * x - 0.2040259 * y + 1.0572252 * z);
}

/** The mean CIELAB distance (ΔE 1976) between two pictures of the same size, pixel by pixel. */
export function meanLabDistance(
  a: { data: Buffer; width: number; height: number },
  b: { data: Buffer; width: number; height: number },
): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('Pictures of different sizes');
  const p: [number, number, number] = [0, 0, 0];
  const q: [number, number, number] = [0, 0, 0];
  let sum = 0;
  const pixels = a.width * a.height;
  for (let i = 0; i < pixels; i++) {
    const o = i * 3;
    rgbToLab(a.data[o]!, a.data[o + 1]!, a.data[o + 2]!, p);
    rgbToLab(b.data[o]!, b.data[o + 1]!, b.data[o + 2]!, q);
    sum += Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  }
  return sum / pixels;
}
