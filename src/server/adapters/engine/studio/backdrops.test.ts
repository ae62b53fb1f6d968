import type { RgbImage } from '../../../images/rgb-image.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { backdropLight, paintBackdrop } from './backdrops.ts';
import { rgbToLab } from './pixels.ts';
import { type Place, places, sceneWith } from './scene.ts';

const width = 512;
const height = 640;

/** Every 3rd pixel in CIELAB: enough to compare pictures, a ninth of the work. */
function labSamples(image: RgbImage): Float64Array {
  const lab: [number, number, number] = [0, 0, 0];
  const samples: number[] = [];
  for (let i = 0; i < image.data.length; i += 9 * 3) {
    rgbToLab(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, lab);
    samples.push(...lab);
  }
  return Float64Array.from(samples);
}

/** Mean CIELAB distance per pixel between two pictures of the same size. */
function meanDistance(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 3) {
    sum += Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!, a[i + 2]! - b[i + 2]!);
  }
  return sum / (a.length / 3);
}

function luma([r, g, b]: readonly number[]): number {
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('paintBackdrop', () => {
  const day = new Map<Place, RgbImage>();
  const night = new Map<Place, RgbImage>();

  beforeAll(async () => {
    for (const place of places) {
      day.set(place, await paintBackdrop(sceneWith({ place, time: 'day' }), width, height, 1));
      night.set(place, await paintBackdrop(sceneWith({ place, time: 'night' }), width, height, 1));
    }
  });

  it('paints every place at the size asked for, 3 bytes a pixel', () => {
    for (const place of places) {
      const image = day.get(place)!;
      expect([image.width, image.height, image.data.length]).toEqual([
        width,
        height,
        width * height * 3,
      ]);
    }
  });

  it('paints places that differ clearly from one another', () => {
    const labs = places.map((place) => labSamples(day.get(place)!));
    // Measured: the closest pairs (field and desert, beach and tropical) lie about 14.5 apart.
    let closest = Infinity;
    for (let a = 0; a < places.length; a++) {
      for (let b = a + 1; b < places.length; b++) {
        closest = Math.min(closest, meanDistance(labs[a]!, labs[b]!));
      }
    }
    expect(closest).toBeGreaterThan(12);
  });

  it('paints night unlike day in every place', () => {
    for (const place of places) {
      const distance = meanDistance(labSamples(day.get(place)!), labSamples(night.get(place)!));
      // Measured: the least changed (stage, library, neon-grid, space) lie 12.6-14.6 apart.
      expect(distance, place).toBeGreaterThan(10);
    }
  });

  it('paints the same bytes for the same seed, other details for another', async () => {
    const scene = sceneWith({ place: 'city-night', time: 'night', weather: 'snow' });
    const first = await paintBackdrop(scene, width, height, 42);
    const again = await paintBackdrop(scene, width, height, 42);
    const other = await paintBackdrop(scene, width, height, 43);
    expect(again.data.equals(first.data)).toBe(true);
    expect(other.data.equals(first.data)).toBe(false);
  });

  it('paints other sizes and aspects too', async () => {
    const image = await paintBackdrop(sceneWith({ place: 'beach' }), 640, 480, 1);
    expect([image.width, image.height, image.data.length]).toEqual([640, 480, 640 * 480 * 3]);
  });
});

describe('backdropLight', () => {
  it('gives a colour in range and a horizon in the lower half, darker at night', () => {
    for (const place of places) {
      const byDay = backdropLight(sceneWith({ place, time: 'day' }));
      const byNight = backdropLight(sceneWith({ place, time: 'night' }));
      for (const channel of [...byDay.ambient, ...byNight.ambient]) {
        expect(channel).toBeGreaterThanOrEqual(0);
        expect(channel).toBeLessThanOrEqual(255);
      }
      expect(luma(byNight.ambient), place).toBeLessThan(luma(byDay.ambient));
      expect(byDay.horizonY).toBeGreaterThanOrEqual(0.55);
      expect(byDay.horizonY).toBeLessThanOrEqual(0.76);
    }
  });

  it('follows the palette where the palette is the backdrop', () => {
    const warm = backdropLight(
      sceneWith({ palette: { base: [200, 120, 80], accent: [255, 220, 200] } }),
    );
    expect(warm.ambient[0]).toBeGreaterThan(warm.ambient[2] + 60);
  });
});
