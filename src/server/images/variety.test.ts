import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePhoto, warmUp } from './faces.ts';
import { primaryFace, sameShotCopies, varietyRules } from './photo-checks.ts';
import { varietyPatch, varietyPatchOf, varietyScore } from './variety.ts';

// Person A's photos (CC0, see tests/fixtures/photos/README.md): a-01 to a-08 are eight
// different selfies from two sessions (zoom/15-60cm and lisa1-4); a-09 to a-12 are edited copies
// of a-01, a-03, a-02 and a-05 (mirrored, cropped, rotated, re-coloured, re-encoded).
const seed = new URL('../../../assets/seed/person-a/', import.meta.url);
const fixtures = new URL('../../../tests/fixtures/photos/person-a/', import.meta.url);
const names = Array.from({ length: 12 }, (_, i) => `a-${String(i + 1).padStart(2, '0')}`);
const file = (name: string) =>
  readFileSync(new URL(`${name}.jpg`, Number(name.slice(2)) <= 8 ? seed : fixtures));
const copyOf: Record<string, string> = {
  'a-09': 'a-01',
  'a-10': 'a-03',
  'a-11': 'a-02',
  'a-12': 'a-05',
};
const shot = (name: string) => copyOf[name] ?? name;

const patches = new Map<string, Buffer>();
async function patchOf(bytes: Buffer): Promise<Buffer> {
  const face = primaryFace(await analyzePhoto(bytes));
  expect(face?.variety).toBeTruthy();
  return face!.variety!;
}
const sameShot = (a: Buffer, b: Buffer) => varietyScore(a, b) >= varietyRules.sameShotMinScore;

beforeAll(async () => {
  await warmUp();
  for (const name of names) patches.set(name, await patchOf(file(name)));
}, 120_000);

describe('the variety check on person A', () => {
  it('gives every photo a patch of the documented size', () => {
    for (const patch of patches.values()) {
      expect(patch).toHaveLength(varietyPatch.width * varietyPatch.height);
    }
  });

  it('passes every pair of different shots, a-03 and a-01 (45 cm and 30 cm of one session) among them', () => {
    const flagged: string[] = [];
    let pairs = 0;
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const [a, b] = [names[i]!, names[j]!];
        if (shot(a) === shot(b)) continue;
        pairs++;
        if (sameShot(patches.get(a)!, patches.get(b)!)) flagged.push(`${a}/${b}`);
      }
    }
    expect(pairs).toBe(62);
    expect(flagged).toEqual([]);
  });

  it("catches the fixtures' edited copies of one shot (a-10 is a-03 rotated 8 degrees and cropped)", () => {
    for (const [copy, original] of Object.entries(copyOf)) {
      expect(sameShot(patches.get(original)!, patches.get(copy)!), `${original}/${copy}`).toBe(
        true,
      );
    }
  });

  it('catches a mirrored, brightened copy and a rotated, cropped, re-encoded one of a-03', async () => {
    const original = file('a-03');
    const mirrored = await sharp(original).flop().modulate({ brightness: 1.2 }).jpeg().toBuffer();
    const { width, height } = await sharp(original).metadata();
    const turned = await sharp(original).rotate(5, { background: '#000' }).toBuffer();
    const edited = await sharp(turned)
      .extract({
        left: 80,
        top: 90,
        width: Math.round(width * 0.85),
        height: Math.round(height * 0.85),
      })
      .jpeg({ quality: 50 })
      .toBuffer();
    for (const copy of [mirrored, edited]) {
      expect(sameShot(patches.get('a-03')!, await patchOf(copy))).toBe(true);
    }
  });

  it('makes the same patch from the photo in grey as from it in colour, byte for byte', async () => {
    // analyzePhoto converts a photo to grey once and measures its faces on that (faces.ts): sharp
    // converts to grey before it resizes, so the patch must not change.
    const { data, info } = await sharp(file('a-01'))
      .resize(768, 1024, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const colour = { data, width: info.width, height: info.height };
    const grey = {
      data: await sharp(data, { raw: { ...colour, channels: 3 } })
        .greyscale()
        .raw()
        .toBuffer(),
      width: info.width,
      height: info.height,
      channels: 1 as const,
    };
    const landmarks = {
      leftEye: [300, 420] as [number, number],
      rightEye: [460, 425] as [number, number],
      nose: [380, 520] as [number, number],
      mouth: [380, 620] as [number, number],
    };
    expect(
      (await varietyPatchOf(grey, landmarks)).equals(await varietyPatchOf(colour, landmarks)),
    ).toBe(true);
  });

  it('keeps the first photo of a shot and fails its later copies, whatever the order of the relation', () => {
    const draft = [
      { id: 'a-01', sameShotAs: ['a-09'] },
      { id: 'a-02', sameShotAs: [] },
      { id: 'a-09', sameShotAs: ['a-01', 'copy'] },
      { id: 'copy', sameShotAs: ['a-09'] },
    ];
    // 'copy' matched only a-09, itself a copy, so it is kept; once a-01 is removed, a-09 is the
    // first of its shot and 'copy' becomes its copy.
    expect(sameShotCopies(draft)).toEqual(new Map([['a-09', 'a-01']]));
    expect(sameShotCopies(draft.filter((photo) => photo.id !== 'a-01'))).toEqual(
      new Map([['copy', 'a-09']]),
    );
  });
});
