import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePhoto, type DetectedFace } from '../../src/server/images/faces.ts';
import { withoutGhosts } from './composite-cleanup.ts';

// A composite of four people's photos (CC BY 4.0, assets/people/LICENSES.md): translucent
// outlines of four collars under the neck and of four hairstyles around the head.
const composite = readFileSync(
  new URL('../../assets/people/composite-african-female/1.jpg', import.meta.url),
);

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}
const raw = async (bytes: Buffer): Promise<Raw> => {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};
const luminance = ({ data, width }: Raw, x: number, y: number) => {
  const i = (y * width + x) * 3;
  return 0.3 * data[i]! + 0.59 * data[i + 1]! + 0.11 * data[i + 2]!;
};

let before: Raw;
let after: Raw;
let face: DetectedFace;
beforeAll(async () => {
  [before, after, face] = await Promise.all([
    raw(composite),
    withoutGhosts(composite).then(raw),
    analyzePhoto(composite).then(({ faces }) => faces[0]!),
  ]);
});

/** Rows from `top` to the bottom: the share of pixels more than 25 away from their row's median. */
function unevenShare(picture: Raw, top: number): number {
  let uneven = 0;
  let count = 0;
  for (let y = top; y < picture.height; y++) {
    const row = Array.from({ length: picture.width }, (_, x) => luminance(picture, x, y));
    const median = [...row].sort((a, b) => a - b)[row.length >> 1]!;
    for (const value of row) if (Math.abs(value - median) > 25) uneven++;
    count += row.length;
  }
  return uneven / count;
}

describe('withoutGhosts', () => {
  it('draws one plain shirt over the four averaged collars', () => {
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    // Below the collar: layered outlines before, an even shirt after (its shading is gentle).
    const top = Math.round(Math.max(...face.outline.map(([, y]) => y)) + 0.3 * face.box.height);
    expect(unevenShare(before, top)).toBeGreaterThan(0.15);
    expect(unevenShare(after, top)).toBeLessThan(0.02);
  });

  it('leaves the face as it was', () => {
    const { landmarks } = face;
    let difference = 0;
    let count = 0;
    // A square between the eyes and the mouth, well inside the face.
    const half = (landmarks!.rightEye[0] - landmarks!.leftEye[0]) / 2;
    const centreX = (landmarks!.rightEye[0] + landmarks!.leftEye[0]) / 2;
    for (let y = Math.round(landmarks!.leftEye[1]); y < landmarks!.mouth[1]; y++)
      for (let x = Math.round(centreX - half); x < centreX + half; x++) {
        difference += Math.abs(luminance(after, x, y) - luminance(before, x, y));
        count++;
      }
    // Only the JPEG round trip's noise.
    expect(difference / count).toBeLessThan(2);
  });

  it('turns the ghost hair beside the head into the backdrop', () => {
    // A column beside the head, from the forehead to the mouth: the four hairstyles' strands
    // cross it before; after, it is as even as the backdrop.
    const x = Math.round(face.box.x);
    const column = (picture: Raw) => {
      const values: number[] = [];
      for (
        let y = Math.round(face.box.y + 0.15 * face.box.height);
        y < face.landmarks!.mouth[1];
        y++
      )
        values.push(luminance(picture, x, y));
      return Math.max(...values) - Math.min(...values);
    };
    expect(column(before)).toBeGreaterThan(40);
    expect(column(after)).toBeLessThan(20);
  });
});
