import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sceneWith } from '../adapters/engine/studio/scene.ts';
import { finishPicture } from '../adapters/engine/studio/treatments.ts';
import { chromaSpread, isColourless } from './colourfulness.ts';
import { analyzePhoto, warmUp } from './faces.ts';

// Real photos (CC0 / public domain): see tests/fixtures/photos/README.md, assets/seed/LICENSES.md
// and assets/people/LICENSES.md; the offline studio's pictures of the default content pack
// (assets/content/default/LICENSES.md).
const root = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root));
const presetPicture = (name: string) =>
  read(`assets/content/default/pictures/presets/${name}.webp`);

/** A square crop of `side` whose pixel (x, y) is `colour(x, y)`, as `alignedFace` gives one. */
function crop(side: number, colour: (x: number, y: number) => [number, number, number]) {
  const pixels = new Float32Array(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) pixels.set(colour(x, y), (y * side + x) * 3);
  }
  return pixels;
}

describe('chromaSpread', () => {
  it('is 0 for grey and for a toning, where every lightness has one colour', () => {
    const grey = crop(112, (x) => [x * 2, x * 2, x * 2]);
    expect(chromaSpread(grey, 112)).toBeCloseTo(0, 6);
    // Sepia-like: brown shadows to cream highlights.
    const toned = crop(112, (x) => [30 + x * 2, 20 + x * 1.9, 10 + x * 1.7]);
    expect(chromaSpread(toned, 112)).toBeLessThan(0.5);
  });

  it('is large when colours of equal lightness differ, however little colour there is overall', () => {
    // Skin beside a grey of its lightness (CIELAB L* 66.3 and 66.6).
    const skin = crop(112, (x) => (x < 56 ? [200, 150, 130] : [162, 162, 162]));
    expect(chromaSpread(skin, 112)).toBeGreaterThan(5);
  });
});

/** The colour spread of the best face of a picture. */
async function spreadOf(bytes: Buffer): Promise<number> {
  const analysis = await analyzePhoto(bytes, { grey: true });
  const face = [...analysis.faces].sort((a, b) => b.score - a.score)[0]!;
  return face.grey!.chromaSpread;
}

const greyed = (bytes: Buffer) => sharp(bytes).greyscale().jpeg({ quality: 90 }).toBuffer();

/** The offline studio's finishing treatment of a photo, stored as a generation stores it. */
async function treated(bytes: Buffer, treatment: 'mono' | 'sepia' | 'duotone' | 'sketch') {
  const { data, info } = await sharp(bytes)
    .resize(512, 640, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = finishPicture(
    { data, width: info.width, height: info.height },
    sceneWith({ treatment }),
    7,
  );
  return sharp(out.data, { raw: { width: out.width, height: out.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('isColourless', () => {
  const a01 = read('assets/seed/person-a/a-01.jpg');
  const darkerSkin = read('assets/people/composite-african-female/1.jpg');

  beforeAll(async () => {
    await warmUp();
  });

  it('finds colour in colour photos and in a pale colour preset', async () => {
    for (const bytes of [
      a01,
      read('tests/fixtures/photos/person-a/a-10.jpg'),
      read('tests/fixtures/photos/person-b/b-01.jpg'),
      darkerSkin,
      // The palest colour picture of the default pack (a near-grey studio, a soft grade).
      presetPicture('runway-flash-person-a'),
    ]) {
      expect(isColourless(await spreadOf(bytes))).toBe(false);
    }
  });

  it('finds none in greyed photos, the black-and-white and sepia presets, and the duotone and sketch treatments', async () => {
    for (const bytes of [
      await greyed(a01),
      await greyed(darkerSkin),
      presetPicture('old-hollywood-composite-african-male'),
      presetPicture('sepia-heirloom-person-a'),
      await treated(a01, 'mono'),
      await treated(darkerSkin, 'sepia'),
      await treated(a01, 'duotone'),
      await treated(darkerSkin, 'sketch'),
    ]) {
      expect(isColourless(await spreadOf(bytes))).toBe(true);
    }
  });
});
