import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTrainingRequest } from '../../../../tests/helpers/local-training.ts';
import { trainingMessages } from '../../../common/messages/models.ts';
import { analyzePhoto, faceSimilarity, profileSimilarity } from '../../images/faces.ts';
import { faceRules, primaryFace } from '../../images/photo-checks.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import {
  createLocalTrainingEngine,
  likenessRules,
  readLikenessProfile,
  type LikenessProfile,
} from './local-training.ts';
import type { TrainingEngine, TrainingStart } from './training-engine.ts';

// Real photos (CC0 / public domain): see tests/fixtures/photos/README.md and assets/seed/LICENSES.md.
const seed = new URL('../../../../assets/seed/', import.meta.url);
const fixtures = new URL('../../../../tests/fixtures/photos/', import.meta.url);
const read = (base: URL, file: string) => readFileSync(new URL(file, base));

const trainingPhotos = [
  ...Array.from({ length: 8 }, (_, i) => read(seed, `person-a/a-0${i + 1}.jpg`)),
  read(fixtures, 'quality/exif-orientation-6.jpg'), // person A, stored sideways
  read(fixtures, 'person-b/b-01.jpg'), // someone else: must stay out of the profile
  read(seed, 'not-a-face/cat.jpg'), // no face: left out
];
const heldOutA = ['a-09', 'a-10', 'a-11', 'a-12'].map((n) => read(fixtures, `person-a/${n}.jpg`));
const personB = ['b-01', 'b-02', 'b-03', 'b-04'].map((n) => read(fixtures, `person-b/${n}.jpg`));

let root: string;
let storage: LocalStorage;
let engine: TrainingEngine;
let started: TrainingStart;
let profile: LikenessProfile;
const progress: number[] = [];

const embeddingOf = async (bytes: Buffer) => primaryFace(await analyzePhoto(bytes))!.embedding;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'likeness-local-training-'));
  storage = new LocalStorage({
    root,
    secret: 'local-training-test-secret',
    defaultTtlSeconds: 3600,
    publicPath: '/api/files',
  });
  engine = createLocalTrainingEngine({ storage });
  started = await engine.start(
    await localTrainingRequest(
      storage,
      'model-1',
      trainingPhotos,
      (percent) => void progress.push(percent),
    ),
  );
  if (started.state?.status === 'succeeded') {
    profile = await readLikenessProfile(storage, started.state.weights);
  }
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('local training engine', () => {
  it('succeeds with a likeness profile stored under the model', () => {
    expect(started.reference).toMatch(/^local-[0-9a-f-]{36}$/);
    expect(started.state).toEqual({
      status: 'succeeded',
      weights: 'users/user-1/models/model-1/likeness/profile.json',
    });
    expect(profile.modelId).toBe('model-1');
    expect(profile.photos).toEqual({ read: 11, usable: 9 });
  });

  it('reports progress from 0 to 100 as the photos are read', () => {
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress.length).toBeGreaterThanOrEqual(trainingPhotos.length);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('keeps the person cut out of their best photos, never the stranger or the cat', () => {
    expect(profile.cutouts).toHaveLength(likenessRules.maxCutouts);
    const sources = profile.cutouts.map((cutout) => cutout.source);
    expect(sources).not.toContain('image_10.jpg');
    expect(sources).not.toContain('image_11.jpg');
    expect(new Set(sources).size).toBe(sources.length);
    for (const cutout of profile.cutouts) {
      expect(cutout.key).toMatch(/^users\/user-1\/models\/model-1\/likeness\/person-\d\.webp$/);
      expect(cutout.frontalness).toBeGreaterThan(0.5);
    }
  });

  it('stores each cut-out with the person opaque and the background transparent', async () => {
    for (const cutout of profile.cutouts) {
      const bytes = await storage.read(cutout.key);
      const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([cutout.width, cutout.height, 4]);
      expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(likenessRules.cutoutMaxSide);
      const alphaAt = ([x, y]: [number, number]) =>
        data[(Math.round(y) * info.width + Math.round(x)) * 4 + 3]!;
      // The face is the person's; the top corners of these selfies are the room behind.
      expect(alphaAt(cutout.landmarks.nose)).toBeGreaterThan(200);
      expect(alphaAt(cutout.landmarks.leftEye)).toBeGreaterThan(200);
      expect(alphaAt([2, 2])).toBeLessThan(40);
      expect(alphaAt([info.width - 3, 2])).toBeLessThan(40);
      // The landmarks are found again where the profile put them (within 4 % of the width).
      const found = (await analyzePhoto(await sharp(bytes).flatten().jpeg().toBuffer())).faces
        .filter((face) => face.score >= faceRules.minFaceScore)
        .map((face) => face.landmarks!);
      expect(found).toHaveLength(1);
      for (const eye of ['leftEye', 'rightEye'] as const) {
        expect(Math.abs(found[0]![eye][0] - cutout.landmarks[eye][0])).toBeLessThan(
          info.width * 0.04,
        );
        expect(Math.abs(found[0]![eye][1] - cutout.landmarks[eye][1])).toBeLessThan(
          info.width * 0.04,
        );
      }
    }
  });

  it('holds a mean descriptor that recognises the person in new photos, and not person B', async () => {
    const norm = Math.hypot(...profile.embedding);
    expect(norm).toBeCloseTo(1, 6);
    for (const bytes of heldOutA) {
      expect(faceSimilarity(profile.embedding, await embeddingOf(bytes))).toBeGreaterThan(
        faceRules.samePersonMinSimilarity + 0.1,
      );
    }
    for (const bytes of personB) {
      expect(faceSimilarity(profile.embedding, await embeddingOf(bytes))).toBeLessThan(
        faceRules.samePersonMinSimilarity - 0.05,
      );
    }
  });

  it('holds a grey descriptor that knows the person in a greyed photo, and not person B', async () => {
    expect(Math.hypot(...profile.greyEmbedding!)).toBeCloseTo(1, 6);
    const faceProfile = { embedding: profile.embedding, greyEmbedding: profile.greyEmbedding! };
    const greyedFace = async (bytes: Buffer) =>
      primaryFace(
        await analyzePhoto(await sharp(bytes).greyscale().jpeg().toBuffer(), { grey: true }),
      )!;
    expect(profileSimilarity(await greyedFace(heldOutA[0]!), faceProfile)).toBeGreaterThan(
      faceRules.samePersonMinSimilarity + 0.1,
    );
    expect(profileSimilarity(await greyedFace(personB[0]!), faceProfile)).toBeLessThan(
      faceRules.samePersonMinSimilarity - 0.05,
    );
  });

  it('answers status from memory, and fails a reference it does not know', async () => {
    expect(await engine.status(started.reference)).toEqual(started.state);
    expect(await engine.status('local-unknown')).toEqual({
      status: 'failed',
      error: expect.any(String),
    });
    // A new process (a restart) does not know the reference any more.
    const restarted = createLocalTrainingEngine({ storage });
    expect((await restarted.status(started.reference)).status).toBe('failed');
    expect(
      await engine.readWebhook({ headers: {}, query: {}, rawBody: Buffer.from('{}') }),
    ).toBeNull();
  });

  it('fails with a reason when no photo has a usable face', async () => {
    const photos = [read(seed, 'not-a-face/cat.jpg'), read(seed, 'quality/blurry.jpg')];
    const result = await engine.start(await localTrainingRequest(storage, 'model-2', photos));
    expect(result.state).toEqual({ status: 'failed', error: trainingMessages.noUsableFace });
    expect(await storage.exists('users/user-1/models/model-2/likeness/profile.json')).toBe(false);
    expect(await engine.status(result.reference)).toEqual(result.state);
  });

  it('fails when the zip is missing or is not a zip', async () => {
    const missing = await engine.start({
      ...(await localTrainingRequest(storage, 'model-3', [])),
      zipKey: 'users/user-1/image_zips/none.zip',
    });
    expect(missing.state?.status).toBe('failed');
    const notZip = await localTrainingRequest(storage, 'model-4', []);
    await storage.put(notZip.zipKey, Buffer.from('not a zip at all'), 'application/zip');
    expect((await engine.start(notZip)).state?.status).toBe('failed');
  });
});
