import type { RgbImage } from '../../../images/rgb-image.ts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sceneWith, treatments, type Rgb, type Scene } from './scene.ts';
import { finishPicture, grainAfterUpscale } from './treatments.ts';

// A real photo (CC0 / public domain, see tests/fixtures/photos/README.md), at a quarter of the
// engine's composition area to keep the run short.
const photoUrl = new URL('../../../../../tests/fixtures/photos/person-b/b-01.jpg', import.meta.url);

let photo: RgbImage;
beforeAll(async () => {
  const { data, info } = await sharp(photoUrl.pathname)
    .resize(256, 320, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  photo = { data, width: info.width, height: info.height };
});

const neutralGrade: Scene['grade'] = { saturation: 1, contrast: 1, brightness: 1, warmth: 0 };

/** A scene that changes nothing but what a test asks for. */
function plain(parts: Partial<Scene> = {}): Scene {
  return sceneWith({ grade: neutralGrade, grain: 0, vignette: 0, ...parts });
}

function finish(parts: Partial<Scene>, seed = 1): RgbImage {
  return finishPicture(photo, plain(parts), seed);
}

/** CIELAB (D65) of every pixel, L a b interleaved. */
function labPlane(image: RgbImage): Float64Array {
  const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const plane = new Float64Array(image.width * image.height * 3);
  for (let at = 0; at < plane.length; at += 3) {
    const r = toLinear(image.data[at]! / 255);
    const g = toLinear(image.data[at + 1]! / 255);
    const b = toLinear(image.data[at + 2]! / 255);
    const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    plane[at] = 116 * fy - 16;
    plane[at + 1] = 500 * (fx - fy);
    plane[at + 2] = 200 * (fy - fz);
  }
  return plane;
}

function meanChroma(image: RgbImage): number {
  const plane = labPlane(image);
  let sum = 0;
  for (let at = 0; at < plane.length; at += 3) sum += Math.hypot(plane[at + 1]!, plane[at + 2]!);
  return sum / (plane.length / 3);
}

function meanLab(image: RgbImage): [number, number, number] {
  const plane = labPlane(image);
  const sums = new Float64Array(3);
  for (let at = 0; at < plane.length; at += 3) {
    for (let c = 0; c < 3; c++) sums[c]! += plane[at + c]!;
  }
  const count = plane.length / 3;
  return [sums[0]! / count, sums[1]! / count, sums[2]! / count];
}

function lightnessSpread(image: RgbImage): number {
  const plane = labPlane(image);
  const count = plane.length / 3;
  let sum = 0;
  for (let at = 0; at < plane.length; at += 3) sum += plane[at]!;
  const mean = sum / count;
  let squares = 0;
  for (let at = 0; at < plane.length; at += 3) squares += (plane[at]! - mean) ** 2;
  return Math.sqrt(squares / count);
}

function meanLabDistance(first: Float64Array, second: Float64Array): number {
  let sum = 0;
  for (let at = 0; at < first.length; at += 3) {
    sum += Math.hypot(
      first[at]! - second[at]!,
      first[at + 1]! - second[at + 1]!,
      first[at + 2]! - second[at + 2]!,
    );
  }
  return sum / (first.length / 3);
}

/**
 * Detail energy: the mean absolute Laplacian of the grey picture after a Gaussian blur of one
 * pixel, which the painting's fine canvas weave stays under while the photo's edges and texture
 * (skin, fabric, hair) do not.
 */
function detailEnergy(image: RgbImage): number {
  const { data, width, height } = image;
  const grey = Float64Array.from(
    { length: width * height },
    (_, i) => 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!,
  );
  const kernel = [-3, -2, -1, 0, 1, 2, 3].map((d) => Math.exp(-(d * d) / 2));
  const kernelSum = kernel.reduce((a, b) => a + b, 0);
  const blurAlong = (source: Float64Array, step: (i: number, d: number) => number) =>
    Float64Array.from(
      { length: source.length },
      (_, i) => kernel.reduce((sum, k, at) => sum + k * source[step(i, at - 3)]!, 0) / kernelSum,
    );
  const clampedX = (i: number, d: number) => {
    const x = Math.min(width - 1, Math.max(0, (i % width) + d));
    return i - (i % width) + x;
  };
  const clampedY = (i: number, d: number) => {
    const y = Math.min(height - 1, Math.max(0, Math.floor(i / width) + d));
    return y * width + (i % width);
  };
  const blurred = blurAlong(blurAlong(grey, clampedX), clampedY);
  let sum = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      sum += Math.abs(
        4 * blurred[i]! -
          blurred[i - 1]! -
          blurred[i + 1]! -
          blurred[i - width]! -
          blurred[i + width]!,
      );
    }
  }
  return sum / ((width - 2) * (height - 2));
}

/** How many colours (16 levels a channel) it takes to cover 80% of the pixels. */
function dominantColourCount(image: RgbImage): number {
  const counts = new Map<number, number>();
  for (let at = 0; at < image.data.length; at += 3) {
    const key =
      (image.data[at]! >> 4) * 256 + (image.data[at + 1]! >> 4) * 16 + (image.data[at + 2]! >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const sorted = [...counts.values()].sort((a, b) => b - a);
  let covered = 0;
  let colours = 0;
  for (const count of sorted) {
    covered += count;
    colours++;
    if (covered >= 0.8 * image.width * image.height) break;
  }
  return colours;
}

function meanBrightness(image: RgbImage, inRegion: (x: number, y: number) => boolean): number {
  let sum = 0;
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!inRegion(x, y)) continue;
      const at = (y * image.width + x) * 3;
      sum += image.data[at]! + image.data[at + 1]! + image.data[at + 2]!;
      count++;
    }
  }
  return sum / count / 3;
}

describe('finishPicture', () => {
  it('keeps the size of the picture, whatever the treatment', () => {
    for (const treatment of treatments) {
      const out = finishPicture(photo, sceneWith({ treatment, grain: 0.5, vignette: 0.5 }), 3);
      expect([out.width, out.height, out.data.length]).toEqual([
        photo.width,
        photo.height,
        photo.data.length,
      ]);
    }
  });

  it('leaves the picture as it is with no treatment, a neutral grade, no grain or vignette', () => {
    const out = finish({ treatment: 'none' });
    let largest = 0;
    for (let i = 0; i < out.data.length; i++) {
      largest = Math.max(largest, Math.abs(out.data[i]! - photo.data[i]!));
    }
    expect(largest).toBeLessThanOrEqual(2);
  });

  it('grades in the asked direction: warmer, brighter, more contrast, less colour', () => {
    const [baseL, , baseB] = meanLab(finish({}));
    expect(meanLab(finish({ grade: { ...neutralGrade, warmth: 0.8 } }))[2]).toBeGreaterThan(
      baseB + 5,
    );
    expect(meanLab(finish({ grade: { ...neutralGrade, warmth: -0.8 } }))[2]).toBeLessThan(
      baseB - 5,
    );
    expect(meanLab(finish({ grade: { ...neutralGrade, brightness: 1.3 } }))[0]).toBeGreaterThan(
      baseL + 5,
    );
    expect(meanChroma(finish({ grade: { ...neutralGrade, saturation: 0 } }))).toBeLessThan(1);
    expect(meanChroma(finish({ grade: { ...neutralGrade, saturation: 1.5 } }))).toBeGreaterThan(
      meanChroma(photo) * 1.2,
    );
    const spread = lightnessSpread(photo);
    expect(lightnessSpread(finish({ grade: { ...neutralGrade, contrast: 1.5 } }))).toBeGreaterThan(
      spread * 1.1,
    );
    expect(lightnessSpread(finish({ grade: { ...neutralGrade, contrast: 0.6 } }))).toBeLessThan(
      spread * 0.8,
    );
  });

  it('makes mono and sketch black and white (the sketch on barely toned paper)', () => {
    expect(meanChroma(photo)).toBeGreaterThan(15);
    expect(meanChroma(finish({ treatment: 'mono' }))).toBeLessThan(0.5);
    expect(meanChroma(finish({ treatment: 'sketch' }))).toBeLessThan(4);
  });

  it('tones sepia warm brown', () => {
    const [, a, b] = meanLab(finish({ treatment: 'sepia' }));
    const hue = (Math.atan2(b, a) * 180) / Math.PI;
    expect(b).toBeGreaterThan(8);
    expect(hue).toBeGreaterThan(45);
    expect(hue).toBeLessThan(85);
  });

  it('puts every duotone pixel on the line between its two colours and uses both ends', () => {
    const tones: [Rgb, Rgb] = [
      [20, 40, 110],
      [250, 200, 90],
    ];
    const out = finish({ treatment: 'duotone', duotone: tones });
    const [from, to] = tones;
    const direction = [0, 1, 2].map((c) => to[c]! - from[c]!);
    const lengthSquared = direction.reduce((sum, d) => sum + d * d, 0);
    let farthest = 0;
    let lowest = 1;
    let highest = 0;
    for (let at = 0; at < out.data.length; at += 3) {
      const offset = [0, 1, 2].map((c) => out.data[at + c]! - from[c]!);
      const along = offset.reduce((sum, o, c) => sum + o * direction[c]!, 0) / lengthSquared;
      const off = Math.hypot(...offset.map((o, c) => o - along * direction[c]!));
      farthest = Math.max(farthest, off);
      lowest = Math.min(lowest, along);
      highest = Math.max(highest, along);
    }
    expect(farthest).toBeLessThan(1.5);
    expect(lowest).toBeLessThan(0.05);
    expect(highest).toBeGreaterThan(0.95);
  });

  it('paints less fine detail than the photo has', async () => {
    // At the engine's own size: the brush and canvas sizes scale with the picture.
    const { data, info } = await sharp(photoUrl.pathname)
      .resize(512, 640, { fit: 'cover' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const large = { data, width: info.width, height: info.height };
    const painted = finishPicture(large, plain({ treatment: 'painterly' }), 1);
    // Measured 0.83 of the photo's: the canvas weave and the paint relief add some back.
    expect(detailEnergy(painted)).toBeLessThan(detailEnergy(large) * 0.9);
  });

  it('prints pop art in a handful of flat colours', () => {
    expect(dominantColourCount(photo)).toBeGreaterThan(60);
    expect(dominantColourCount(finish({ treatment: 'pop-art' }))).toBeLessThan(25);
  });

  it('darkens the corners more than the middle with a vignette', () => {
    const corner = (x: number, y: number) =>
      Math.min(x, photo.width - 1 - x) < 24 && Math.min(y, photo.height - 1 - y) < 30;
    const middle = (x: number, y: number) =>
      Math.abs(x - photo.width / 2) < 40 && Math.abs(y - photo.height / 2) < 50;
    const without = finish({});
    const withVignette = finish({ vignette: 1 });
    const cornerRatio = meanBrightness(withVignette, corner) / meanBrightness(without, corner);
    const middleRatio = meanBrightness(withVignette, middle) / meanBrightness(without, middle);
    expect(cornerRatio).toBeLessThan(0.6);
    expect(middleRatio).toBeGreaterThan(0.97);
  });

  it('lays the same grain for the same seed and another for another seed', () => {
    const grainy = { grain: 1 };
    const first = finish(grainy, 11);
    expect(first.data.equals(finish(grainy, 11).data)).toBe(true);
    expect(first.data.equals(finish(grainy, 12).data)).toBe(false);
    expect(meanLabDistance(labPlane(first), labPlane(photo))).toBeGreaterThan(1.5);
    // Grain is luminance only: it adds next to no colour.
    expect(Math.abs(meanChroma(first) - meanChroma(photo))).toBeLessThan(1.5);
  });

  it('can leave the grain for after the upscale, and lays it at any size', () => {
    const scene = plain({ grain: 0.6 });
    const clean = finishPicture(photo, scene, 5, { grain: false });
    expect(clean.data.equals(finish({}, 5).data)).toBe(true);
    const grained = grainAfterUpscale(clean, scene, 5);
    expect(grained.data.equals(grainAfterUpscale(clean, scene, 5).data)).toBe(true);
    expect(meanLabDistance(labPlane(grained), labPlane(clean))).toBeGreaterThan(1);
  });

  // Measured on this photo: the closest pairs are none/painterly (5.5) and none/film (8.9), then
  // painterly/vhs (11.0); every other pair is further apart.
  it('gives every treatment a look of its own', () => {
    const looks = treatments.map((treatment) => ({
      treatment,
      lab: labPlane(finish({ treatment })),
    }));
    for (const [index, first] of looks.entries()) {
      for (const second of looks.slice(index + 1)) {
        expect(
          meanLabDistance(first.lab, second.lab),
          `${first.treatment} vs ${second.treatment}`,
        ).toBeGreaterThan(4);
      }
    }
  });
});
