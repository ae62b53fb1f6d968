import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { identity } from '../../common/product/identity.ts';
import {
  analyzePhoto,
  faceSimilarity,
  meanDescriptor,
  profileSimilarity,
  warmUp,
  type DetectedFace,
  type FaceProfile,
  type PhotoAnalysis,
} from './faces.ts';
import { identityModel } from './identity.ts';

// Real photos (CC0 / public domain): see tests/fixtures/photos/README.md and assets/seed/LICENSES.md.
const seed = new URL('../../../assets/seed/', import.meta.url);
const fixtures = new URL('../../../tests/fixtures/photos/', import.meta.url);
const read = (base: URL, file: string) => readFileSync(new URL(file, base));

const photos = {
  a01: read(seed, 'person-a/a-01.jpg'),
  a04: read(seed, 'person-a/a-04.jpg'),
  a06: read(seed, 'person-a/a-06.jpg'),
  b01: read(fixtures, 'person-b/b-01.jpg'),
  blurry: read(seed, 'quality/blurry.jpg'),
  large: read(fixtures, 'quality/large-12mp.jpg'),
  exif: read(fixtures, 'quality/exif-orientation-6.jpg'),
  pair: read(fixtures, 'two-faces/pair-2.jpg'),
};

const analysed = {} as Record<keyof typeof photos, PhotoAnalysis>;

beforeAll(async () => {
  await warmUp();
  for (const [name, bytes] of Object.entries(photos)) {
    analysed[name as keyof typeof photos] = await analyzePhoto(bytes);
  }
});

const best = (analysis: PhotoAnalysis): DetectedFace =>
  [...analysis.faces].sort((a, b) => b.score - a.score)[0]!;

describe('analyzePhoto', () => {
  it('reads an EXIF-rotated photo upright, with the face upright in it', () => {
    const { width, height } = analysed.exif;
    expect([width, height]).toEqual([810, 1080]);
    const { landmarks } = best(analysed.exif);
    expect(landmarks).not.toBeNull();
    const { leftEye, rightEye, nose, mouth } = landmarks!;
    // Eyes side by side, above the nose, above the mouth.
    expect(Math.abs(leftEye[1] - rightEye[1])).toBeLessThan((rightEye[0] - leftEye[0]) / 4);
    expect(Math.max(leftEye[1], rightEye[1])).toBeLessThan(nose[1]);
    expect(nose[1]).toBeLessThan(mouth[1]);
  });

  it('gives a 12 MP photo its full size and maps the face back to full-size pixels', async () => {
    expect([analysed.large.width, analysed.large.height]).toEqual([4000, 3000]);
    const full = best(analysed.large);
    // The same photo at a quarter of the size: the face must be found in the same place.
    const quarter = await analyzePhoto(await sharp(photos.large).resize(1000).jpeg().toBuffer());
    const small = best(quarter);
    expect([quarter.width, quarter.height]).toEqual([1000, 750]);
    for (const key of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(full.box[key] - small.box[key] * 4)).toBeLessThan(0.03 * 3000);
    }
    expect(full.box.x + full.box.width).toBeLessThanOrEqual(4000 + 1e-6);
    expect(full.box.y + full.box.height).toBeLessThanOrEqual(3000 + 1e-6);
    const eyes = full.landmarks!.rightEye[0] - full.landmarks!.leftEye[0];
    const smallEyes = small.landmarks!.rightEye[0] - small.landmarks!.leftEye[0];
    expect(eyes / (smallEyes * 4)).toBeCloseTo(1, 1);
    // The embedding does not depend on the size either.
    expect(faceSimilarity(full.embedding, small.embedding)).toBeGreaterThan(0.9);
  });

  it('puts eyes, nose and mouth inside the face box, the left eye on the left', () => {
    for (const analysis of [analysed.a01, analysed.a04, analysed.a06, analysed.b01]) {
      const face = best(analysis);
      const { box } = face;
      for (const [x, y] of Object.values(face.landmarks!)) {
        expect(x).toBeGreaterThan(box.x);
        expect(x).toBeLessThan(box.x + box.width);
        expect(y).toBeGreaterThan(box.y);
        expect(y).toBeLessThan(box.y + box.height);
      }
      expect(face.landmarks!.leftEye[0]).toBeLessThan(face.landmarks!.rightEye[0]);
    }
  });

  it('outlines the face around its features, the chin below the mouth, in full-size pixels', () => {
    for (const analysis of [analysed.a01, analysed.b01, analysed.large]) {
      const { outline, landmarks } = best(analysis);
      expect(outline.length).toBeGreaterThanOrEqual(30);
      for (const point of Object.values(landmarks!))
        expect(insidePolygon(point, outline)).toBe(true);
      const chin = Math.max(...outline.map(([, y]) => y));
      const eyesToMouth = landmarks!.mouth[1] - landmarks!.leftEye[1];
      // The chin lies between a quarter and one eye-to-mouth distance below the mouth.
      expect(chin - landmarks!.mouth[1]).toBeGreaterThan(0.25 * eyesToMouth);
      expect(chin - landmarks!.mouth[1]).toBeLessThan(eyesToMouth);
    }
  });

  it('finds both faces of a two-person photo, each with its own descriptor', () => {
    const faces = analysed.pair.faces.filter((face) => face.score >= 0.5);
    expect(faces).toHaveLength(2);
    const [left, right] = faces.sort((a, b) => a.box.x - b.box.x);
    expect(left!.box.x + left!.box.width).toBeLessThanOrEqual(right!.box.x + right!.box.width / 2);
    expect(left!.embedding).toHaveLength(identityModel.descriptorLength);
    expect(faceSimilarity(left!.embedding, right!.embedding)).toBeLessThan(
      identity.samePersonMinSimilarity,
    );
  });

  it('measures sharpness the same at any resolution, and far lower on a blurred photo', async () => {
    const full = best(analysed.a01).sharpness;
    const shrunk = best(
      await analyzePhoto(await sharp(photos.a01).resize(540).jpeg({ quality: 92 }).toBuffer()),
    ).sharpness;
    expect(shrunk / full).toBeGreaterThan(0.85);
    expect(shrunk / full).toBeLessThan(1.15);
    expect(best(analysed.blurry).sharpness).toBeLessThan(full / 20);
  });

  it('describes a face in grey only when asked, with the same colour descriptor', async () => {
    expect(best(analysed.a01).grey).toBeUndefined();
    const withGrey = best(await analyzePhoto(photos.a01, { grey: true }));
    expect(withGrey.embedding).toEqual(best(analysed.a01).embedding);
    expect(withGrey.grey!.embedding).toHaveLength(identityModel.descriptorLength);
    expect(faceSimilarity(withGrey.grey!.embedding, withGrey.embedding)).toBeLessThan(0.99);
  });

  it('gives the same answers to concurrent calls as to one at a time', async () => {
    const concurrent = await Promise.all([
      analyzePhoto(photos.a04),
      analyzePhoto(photos.b01),
      analyzePhoto(photos.a06),
    ]);
    expect(concurrent.map((a) => best(a).embedding)).toEqual([
      best(analysed.a04).embedding,
      best(analysed.b01).embedding,
      best(analysed.a06).embedding,
    ]);
  });

  it('refuses bytes that are not a decodable picture, and huge bitmaps before decoding', async () => {
    const bad = (file: string) => analyzePhoto(read(fixtures, `bad-files/${file}`));
    await expect(bad('not-an-image.jpg')).rejects.toThrow();
    await expect(bad('truncated.jpg')).rejects.toThrow();
    await expect(bad('bomb.png')).rejects.toThrow(/pixel limit/);
  });
});

describe('faceSimilarity', () => {
  it('tells the same person from another on real faces', () => {
    const a01 = best(analysed.a01).embedding;
    expect(faceSimilarity(a01, best(analysed.a04).embedding)).toBeGreaterThan(
      identity.samePersonMinSimilarity,
    );
    expect(faceSimilarity(a01, best(analysed.b01).embedding)).toBeLessThan(
      identity.samePersonMinSimilarity,
    );
  });

  it('ignores the length of the vectors and keeps to 0..1', () => {
    const a = [1, 2, 3];
    expect(faceSimilarity(a, a)).toBeCloseTo(1, 10);
    expect(faceSimilarity(a, [2, 4, 6])).toBeCloseTo(1, 10);
    expect(faceSimilarity(a, [-1, -2, -3])).toBe(0);
    expect(faceSimilarity([1, 0], [0, 1])).toBe(0);
    expect(faceSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 10);
    expect(faceSimilarity([], [])).toBe(0);
  });

  it('finds nothing alike in descriptors of two models (of different lengths)', () => {
    expect(faceSimilarity([1, 2], [1, 2, 3])).toBe(0);
    expect(faceSimilarity(new Array(1024).fill(1), new Array(256).fill(1))).toBe(0);
  });
});

describe('profileSimilarity', () => {
  // Person A's profile from a-01 to a-08 in colour and in grey, as a model's (decision 033).
  const personA = Array.from({ length: 8 }, (_, i) => read(seed, `person-a/a-0${i + 1}.jpg`));
  const personB = ['b-01', 'b-02', 'b-03', 'b-04'].map((n) => read(fixtures, `person-b/${n}.jpg`));
  const greyed = (bytes: Buffer) => sharp(bytes).greyscale().jpeg({ quality: 90 }).toBuffer();
  const describeInGrey = async (bytes: Buffer) => best(await analyzePhoto(bytes, { grey: true }));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

  const own: DetectedFace[] = [];
  const ownGreyed: DetectedFace[] = [];
  let profile: FaceProfile;
  /** The mean likeness of person A's own photos: what a picture's likeness is held against. */
  let ownLikeness: number;

  beforeAll(async () => {
    for (const bytes of personA) {
      own.push(await describeInGrey(bytes));
      ownGreyed.push(await describeInGrey(await greyed(bytes)));
    }
    profile = {
      embedding: meanDescriptor(own.map((face) => face.embedding))!,
      greyEmbedding: meanDescriptor(own.map((face) => face.grey!.embedding)),
    };
    ownLikeness = mean(own.map((face) => profileSimilarity(face, profile)!));
  });

  it('scores the colour photos in colour, as before', () => {
    for (const face of own) {
      expect(profileSimilarity(face, profile)).toBe(
        faceSimilarity(face.embedding, profile.embedding),
      );
    }
  });

  it('scores a greyed photo in grey as its colour original, where the colour measure marks it down', () => {
    for (const [i, face] of ownGreyed.entries()) {
      const original = faceSimilarity(own[i]!.grey!.embedding, profile.greyEmbedding!);
      expect(Math.abs(profileSimilarity(face, profile)! - original)).toBeLessThan(0.05);
    }
    // Measured: 0.98 of the own photos' likeness in grey, 0.89 in colour.
    const inGrey = mean(ownGreyed.map((face) => profileSimilarity(face, profile)!));
    const inColour = mean(
      ownGreyed.map((face) => faceSimilarity(face.embedding, profile.embedding)),
    );
    expect(inGrey / ownLikeness).toBeGreaterThan(0.95);
    expect(inColour / ownLikeness).toBeLessThan(0.92);
  });

  it('keeps another person a stranger in grey', async () => {
    for (const bytes of personB) {
      const face = await describeInGrey(await greyed(bytes));
      expect(profileSimilarity(face, profile)).toBeLessThan(identity.samePersonMinSimilarity);
    }
  });

  it("scores in colour against a profile without grey, and not at all against another model's", () => {
    const face = ownGreyed[0]!;
    expect(profileSimilarity(face, { ...profile, greyEmbedding: null })).toBe(
      faceSimilarity(face.embedding, profile.embedding),
    );
    const older = { embedding: new Array<number>(1024).fill(1), greyEmbedding: null };
    expect(profileSimilarity(own[0]!, older)).toBeNull();
  });
});

function insidePolygon([x, y]: [number, number], polygon: [number, number][]): boolean {
  let inside = false;
  for (let k = 0, j = polygon.length - 1; k < polygon.length; j = k++) {
    const [xk, yk] = polygon[k]!;
    const [xj, yj] = polygon[j]!;
    if (yk > y !== yj > y && x < ((xj - xk) * (y - yk)) / (yj - yk) + xk) inside = !inside;
  }
  return inside;
}
