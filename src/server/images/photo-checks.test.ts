import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzePhoto,
  faceSimilarity,
  findSmallFaces,
  type DetectedFace,
  type PhotoAnalysis,
} from './faces.ts';
import {
  differentPersonIds,
  faceRules,
  foundOnlySmallFace,
  judgePhoto,
  primaryFace,
} from './photo-checks.ts';

// Real photos (CC0 / public domain): see tests/fixtures/photos/README.md and assets/seed/LICENSES.md.
const seed = new URL('../../../assets/seed/', import.meta.url);
const fixtures = new URL('../../../tests/fixtures/photos/', import.meta.url);

const personA = Array.from({ length: 12 }, (_, i) => `a-${String(i + 1).padStart(2, '0')}.jpg`);
const personB = ['b-01.jpg', 'b-02.jpg', 'b-03.jpg', 'b-04.jpg'];
const files: Record<string, URL> = {
  ...Object.fromEntries(
    personA.map((name, i) => [
      `person-a/${name}`,
      new URL(`person-a/${name}`, i < 8 ? seed : fixtures),
    ]),
  ),
  ...Object.fromEntries(
    personB.map((name) => [`person-b/${name}`, new URL(`person-b/${name}`, fixtures)]),
  ),
  'not-a-face/cat.jpg': new URL('not-a-face/cat.jpg', seed),
  'not-a-face/coffee.jpg': new URL('not-a-face/coffee.jpg', fixtures),
  'not-a-face/rocket.jpg': new URL('not-a-face/rocket.jpg', fixtures),
  'not-a-face/text.jpg': new URL('not-a-face/text.jpg', fixtures),
  'two-faces/pair-1.jpg': new URL('two-faces/pair-1.jpg', fixtures),
  'two-faces/pair-2.jpg': new URL('two-faces/pair-2.jpg', fixtures),
  'quality/blurry.jpg': new URL('quality/blurry.jpg', seed),
  'quality/tiny-face.jpg': new URL('quality/tiny-face.jpg', seed),
  'quality/small.jpg': new URL('quality/small.jpg', fixtures),
  'quality/large-12mp.jpg': new URL('quality/large-12mp.jpg', fixtures),
  'quality/exif-orientation-6.jpg': new URL('quality/exif-orientation-6.jpg', fixtures),
};

const analysed = new Map<string, PhotoAnalysis>();
beforeAll(async () => {
  for (const [name, url] of Object.entries(files)) {
    analysed.set(name, await analyzePhoto(readFileSync(url)));
  }
});

const analysis = (name: string) => analysed.get(name)!;
const face = (name: string) => primaryFace(analysis(name))!;
const embeddingOf = (name: string) => face(name).embedding;
const draft = (names: string[]) => names.map((id) => ({ id, embedding: embeddingOf(id) }));
const A = personA.map((name) => `person-a/${name}`);
const B = personB.map((name) => `person-b/${name}`);

describe('judgePhoto on real photos', () => {
  it.each(personA)('passes person A %s', (name) => {
    expect(judgePhoto(analysis(`person-a/${name}`))).toBeNull();
  });

  it.each(personB)('passes person B %s on its own', (name) => {
    expect(judgePhoto(analysis(`person-b/${name}`))).toBeNull();
  });

  it('passes a 12 MP photo and an EXIF-rotated one, which reads upright', () => {
    expect(judgePhoto(analysis('quality/large-12mp.jpg'))).toBeNull();
    const rotated = analysis('quality/exif-orientation-6.jpg');
    expect(judgePhoto(rotated)).toBeNull();
    expect(rotated.width).toBeLessThan(rotated.height);
  });

  it.each(['cat', 'coffee', 'rocket', 'text'])('finds no face in %s.jpg', (name) => {
    expect(judgePhoto(analysis(`not-a-face/${name}.jpg`))).toBe('noFace');
  });

  it.each(['pair-1', 'pair-2'])('refuses two people in %s.jpg', (name) => {
    expect(judgePhoto(analysis(`two-faces/${name}.jpg`))).toBe('multipleFaces');
  });

  it('refuses a blurred face and a 200x200 photo', () => {
    expect(judgePhoto(analysis('quality/blurry.jpg'))).toBe('tooBlurry');
    expect(judgePhoto(analysis('quality/small.jpg'))).toBe('tooSmall');
  });

  it('finds the face too small to see in tiny-face.jpg (Face too small), and none in the no-face photos', async () => {
    const tiny = readFileSync(files['quality/tiny-face.jpg']!);
    expect(judgePhoto(analysis('quality/tiny-face.jpg'))).toBe('noFace');
    const small = await findSmallFaces(tiny);
    expect(foundOnlySmallFace(small)).toBe(true);
    // The real face: 41 px wide in 1600, far below the rule.
    expect(small[0]!.box.width).toBeLessThan(faceRules.minFacePx);
    expect(small[0]!.score).toBeGreaterThan(faceRules.minSmallFaceScore + 0.1);
    for (const name of ['cat', 'coffee', 'rocket', 'text']) {
      const found = await findSmallFaces(readFileSync(files[`not-a-face/${name}.jpg`]!));
      expect(foundOnlySmallFace(found), name).toBe(false);
      for (const face of found) expect(face.score).toBeLessThan(faceRules.minSmallFaceScore - 0.2);
    }
  }, 60_000);

  it('keeps its thresholds clear of the measured photos', () => {
    const passing = [...A, ...B, 'quality/large-12mp.jpg', 'quality/exif-orientation-6.jpg'];
    const sharpest = Math.min(...passing.map((name) => face(name).sharpness));
    expect(sharpest).toBeGreaterThan(2 * faceRules.minSharpness);
    expect(face('quality/blurry.jpg').sharpness).toBeLessThan(faceRules.minSharpness / 2);
    // The weaker face of each pair counts, with room to spare.
    for (const pair of ['two-faces/pair-1.jpg', 'two-faces/pair-2.jpg']) {
      const weaker = Math.min(...analysis(pair).faces.map((f) => f.score));
      expect(weaker).toBeGreaterThan(faceRules.minFaceScore + 0.1);
    }
    // Nothing in the no-face photos comes near a face.
    for (const name of ['cat', 'coffee', 'rocket', 'text']) {
      for (const f of analysis(`not-a-face/${name}.jpg`).faces) {
        expect(f.score).toBeLessThan(faceRules.minFaceScore - 0.1);
      }
    }
  });
});

describe('same-person check on real photos', () => {
  const threshold = faceRules.samePersonMinSimilarity;
  // Person A's hardest pair (a 15 cm close-up against a mirrored, cooler photo) is 0.014 above
  // the threshold: see src/common/product/identity.ts.
  const margin = 0.01;

  it('finds all 66 pairs of person A alike, and no pair of A and B', () => {
    const same = A.flatMap((a, i) =>
      A.slice(i + 1).map((b) => faceSimilarity(embeddingOf(a), embeddingOf(b))),
    );
    expect(same).toHaveLength(66);
    expect(Math.min(...same)).toBeGreaterThan(threshold + margin);
    const different = A.flatMap((a) =>
      B.map((b) => faceSimilarity(embeddingOf(a), embeddingOf(b))),
    );
    expect(different).toHaveLength(48);
    expect(Math.max(...different)).toBeLessThan(threshold - margin);
  });

  it('flags nobody in a draft of person A only', () => {
    expect(differentPersonIds(draft(A), faceSimilarity)).toEqual(new Set());
  });

  it('flags person B mixed into eight of person A', () => {
    const names = [...A.slice(0, 4), B[0]!, ...A.slice(4, 8)];
    expect(differentPersonIds(draft(names), faceSimilarity)).toEqual(new Set([B[0]]));
  });

  it('still flags person B when their photos were uploaded first', () => {
    const names = [...B, ...A.slice(4, 12)];
    expect(differentPersonIds(draft(names), faceSimilarity)).toEqual(new Set(B));
  });
});

describe('judgePhoto rules', () => {
  const detected = (overrides: Partial<DetectedFace> = {}): DetectedFace => ({
    box: { x: 100, y: 100, width: 400, height: 400 },
    score: 0.9,
    embedding: [1, 0],
    outline: [],
    sharpness: 200,
    landmarks: null,
    variety: null,
    ...overrides,
  });
  const photo = (faces: DetectedFace[], width = 900, height = 1200): PhotoAnalysis => ({
    width,
    height,
    faces,
  });

  it('checks size first, then faces, then face size, then sharpness', () => {
    expect(judgePhoto(photo([], 511, 2000))).toBe('tooSmall');
    expect(judgePhoto(photo([], 512, 2000))).toBe('noFace');
    expect(judgePhoto(photo([detected(), detected({ sharpness: 1 })]))).toBe('multipleFaces');
    expect(
      judgePhoto(photo([detected({ box: { x: 0, y: 0, width: 100, height: 100 }, sharpness: 1 })])),
    ).toBe('faceTooSmall');
    expect(judgePhoto(photo([detected({ sharpness: 1 })]))).toBe('tooBlurry');
    expect(judgePhoto(photo([detected()]))).toBeNull();
  });

  it('ignores detections below the confidence threshold', () => {
    const weak = detected({ score: faceRules.minFaceScore - 0.01 });
    expect(judgePhoto(photo([weak]))).toBe('noFace');
    expect(judgePhoto(photo([detected(), weak]))).toBeNull();
    expect(primaryFace(photo([weak, detected({ score: 0.7 })]))?.score).toBe(0.7);
  });

  it('measures the face against the photo: small in a big photo is too small', () => {
    const box = { x: 0, y: 0, width: 300, height: 300 };
    expect(judgePhoto(photo([detected({ box })], 900, 1200))).toBeNull();
    expect(judgePhoto(photo([detected({ box })], 3000, 4000))).toBe('faceTooSmall');
  });
});

describe('differentPersonIds rule', () => {
  // Synthetic "embeddings": photos whose labels are listed together are the same person.
  const groups = [['x1', 'x2', 'x3', 'x4'], ['y1', 'y2', 'y3'], ['z1']];
  const person = (id: string) => groups.findIndex((g) => g.includes(id));
  const vector = (id: string) => [person(id)];
  const same = (a: number[], b: number[]) => (a[0] === b[0] ? 1 : 0);
  const ids = (list: string[]) => list.map((id) => ({ id, embedding: vector(id) }));

  it('flags nobody in an empty or one-photo draft', () => {
    expect(differentPersonIds([], same)).toEqual(new Set());
    expect(differentPersonIds(ids(['x1']), same)).toEqual(new Set());
  });

  it('keeps the biggest group even when another person came first', () => {
    expect(differentPersonIds(ids(['y1', 'y2', 'x1', 'x2', 'x3', 'z1']), same)).toEqual(
      new Set(['y1', 'y2', 'z1']),
    );
  });

  it('breaks a tie in favour of the earliest photo', () => {
    expect(differentPersonIds(ids(['y1', 'x1']), same)).toEqual(new Set(['x1']));
    expect(differentPersonIds(ids(['x1', 'x2', 'y1', 'y2']), same)).toEqual(new Set(['y1', 'y2']));
    expect(differentPersonIds(ids(['y1', 'y2', 'x1', 'x2']), same)).toEqual(new Set(['x1', 'x2']));
  });

  it('judges against the anchor only, so a photo alike to the anchor stays', () => {
    // b is alike to a and c; a and c are not alike to each other: b is the anchor.
    const chain: Record<string, number[]> = { a: [0], b: [1], c: [2] };
    const near = (p: number[], q: number[]) => (Math.abs(p[0]! - q[0]!) <= 1 ? 1 : 0);
    const photos = ['a', 'b', 'c'].map((id) => ({ id, embedding: chain[id]! }));
    expect(differentPersonIds(photos, near)).toEqual(new Set());
  });

  it('gives the same answer for the same draft however often it is asked', () => {
    const draftIds = ids(['x1', 'y1', 'x2', 'z1', 'x3', 'y2']);
    const first = differentPersonIds(draftIds, same);
    expect(first).toEqual(new Set(['y1', 'z1', 'y2']));
    expect(differentPersonIds(draftIds.slice(), same)).toEqual(first);
  });

  it('does not flag a photo described by another model (a descriptor of another length)', () => {
    const alike = (a: number[], b: number[]) => (a.length === b.length ? 1 : 0);
    const photos = [
      { id: 'new1', embedding: [1, 0] },
      { id: 'old1', embedding: [1, 0, 0] },
      { id: 'new2', embedding: [1, 0] },
    ];
    expect(differentPersonIds(photos, alike)).toEqual(new Set());
  });

  it('uses the threshold as inclusive', () => {
    const at = (_a: number[], _b: number[]) => faceRules.samePersonMinSimilarity;
    const below = (_a: number[], _b: number[]) => faceRules.samePersonMinSimilarity - 1e-9;
    expect(differentPersonIds(ids(['x1', 'x2']), at)).toEqual(new Set());
    expect(differentPersonIds(ids(['x1', 'x2']), below)).toEqual(new Set(['x2']));
  });
});
