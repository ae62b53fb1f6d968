import { describe, expect, it } from 'vitest';
import { identity, likenessPercent } from '../../common/product/identity.ts';
import { alignedFace, identityModel, type AlignmentPoints } from './identity.ts';

/** An image whose red is its x and green its y, so a crop's pixels say where they came from. */
function coordinateImage(side: number) {
  const data = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      data[(y * side + x) * 3] = x;
      data[(y * side + x) * 3 + 1] = y;
    }
  }
  return { data, width: side, height: side };
}

const plainPixels = { inputSize: 112, framing: 1, scale: 1, offset: 0 };

/** The ArcFace template's points (in its 112 px square), each placed in the picture by `place`. */
function templatePoints(
  place: (u: number, v: number) => [number, number] = (u, v) => [u, v],
): AlignmentPoints {
  return {
    leftEye: place(38.2946, 51.6963),
    rightEye: place(73.5318, 51.5014),
    nose: place(56.0252, 71.7366),
    mouth: place(56.1396, 92.2848),
  };
}

describe('alignedFace', () => {
  it('warps the face onto the ArcFace template: twice the size and shifted, back to 112 px', () => {
    // The template's points at twice the size, 10 px right and 20 px down.
    const at = (u: number, v: number): [number, number] => [u * 2 + 10, v * 2 + 20];
    const crop = alignedFace(coordinateImage(250), templatePoints(at), plainPixels);
    expect(crop).toHaveLength(112 * 112 * 3);
    for (const [x, y] of [
      [0, 0],
      [38, 51],
      [111, 111],
    ] as const) {
      const i = (y * 112 + x) * 3;
      // Crop pixel centre (x + 0.5) maps to source 2(x + 0.5) + 10, read at its pixel centre.
      expect(crop[i]).toBeCloseTo(2 * x + 10.5, 3);
      expect(crop[i + 1]).toBeCloseTo(2 * y + 20.5, 3);
    }
  });

  it('straightens a tilted face: a face turned a quarter turn comes out upright', () => {
    // The template turned a quarter turn in the picture: (u, v) → (181 − v, 69 + u).
    const turned = (u: number, v: number): [number, number] => [181 - v, 69 + u];
    const crop = alignedFace(coordinateImage(250), templatePoints(turned), plainPixels);
    const sourceOf = (x: number, y: number) => [
      crop[(y * 112 + x) * 3]!,
      crop[(y * 112 + x) * 3 + 1]!,
    ];
    // Going right in the crop goes down in the source; going down goes left.
    const [x0, y0] = sourceOf(50, 50);
    const [x1, y1] = sourceOf(60, 50);
    const [x2, y2] = sourceOf(50, 60);
    expect(x1! - x0!).toBeCloseTo(0, 3);
    expect(y1! - y0!).toBeCloseTo(10, 3);
    expect(x2! - x0!).toBeCloseTo(-10, 3);
    expect(y2! - y0!).toBeCloseTo(0, 3);
  });

  it("gives the model its input range: the model's scale and offset applied to 0..255", () => {
    const grey = { data: Buffer.alloc(112 * 112 * 3, 255), width: 112, height: 112 };
    const crop = alignedFace(grey, templatePoints(), {
      ...identityModel,
      scale: 1 / 255,
      offset: -0.5,
    });
    expect(crop[(56 * 112 + 56) * 3]).toBeCloseTo(0.5, 5);
  });
});

describe('likenessPercent', () => {
  it('shows a stranger as 0%, the same-person threshold as 50%, a clear match as 100%', () => {
    const { strangerSimilarity, samePersonSimilarity } = identity.likeness;
    expect(likenessPercent(strangerSimilarity)).toBe(0);
    expect(likenessPercent(-0.2)).toBe(0);
    expect(likenessPercent(identity.samePersonMinSimilarity)).toBe(50);
    expect(likenessPercent(samePersonSimilarity)).toBe(100);
    expect(likenessPercent(1)).toBe(100);
    expect(likenessPercent(0.6)).toBeGreaterThan(50);
    expect(likenessPercent(0.3)).toBeLessThan(50);
  });
});
