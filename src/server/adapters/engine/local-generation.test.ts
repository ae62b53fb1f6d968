import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../common/messages.ts';
import {
  analyzePhoto,
  faceSimilarity,
  type DetectedFace,
  type FaceLandmarks,
} from '../../images/faces.ts';
import { countedFaces, faceRules } from '../../images/photo-checks.ts';
import { frame } from '../../features/catalog/seed/look.ts';
import { looks } from '../../features/catalog/seed/looks.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { storageKey, type Storage } from '../storage/storage.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
  GenerationRequest,
} from './generation-engine.ts';
import {
  chooseCrop,
  createLocalGenerationEngine,
  ellipseBounds,
  faceEllipse,
  fitSimilarity,
  localGenerationRules,
} from './local-generation.ts';
import {
  createLocalTrainingEngine,
  readLikenessProfile,
  type LikenessCrop,
  type LikenessProfile,
} from './local-training.ts';
import { previewBadgeBox } from './preview-badge.ts';
import { EngineError } from './training-engine.ts';

// Real photos (CC0 / public domain): see assets/seed/LICENSES.md and tests/fixtures/photos/README.md.
const seed = new URL('../../../../assets/seed/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, seed));

interface Preset {
  name: string;
  key: string;
  bytes: Buffer;
  width: number;
  height: number;
  /** The preset's own face, analysed before the engine ran. */
  face: DetectedFace & { landmarks: FaceLandmarks };
}

let root: string;
let storage: LocalStorage;
let engine: GenerationEngine;
let weights: string;
let profile: LikenessProfile;
const presets: Preset[] = [];

async function putPreset(name: string, picture: Buffer): Promise<Preset> {
  // The catalog stores preset pictures as WebP variants.
  const bytes = await sharp(picture).webp({ quality: 82 }).toBuffer();
  const key = storageKey('catalog', 'presets', `${name}.webp`);
  await storage.put(key, bytes, 'image/webp');
  const analysis = await analyzePhoto(bytes);
  const face = countedFaces(analysis)[0]!;
  return {
    name,
    key,
    bytes,
    width: analysis.width,
    height: analysis.height,
    face: face as Preset['face'],
  };
}

function request(imageKey: string | null, overrides: Partial<GenerationRequest> = {}) {
  return {
    generationId: 'generation-1',
    userId: 'user-1',
    weights,
    triggerWord: 'ohwx',
    gender: 'woman',
    prompt: 'ohwx, a portrait',
    preset: { id: 'preset-1', imageKey },
    ...overrides,
  } satisfies GenerationRequest;
}

const signal = () => new AbortController().signal;

async function rgb(bytes: Buffer) {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function inside(
  box: { left: number; top: number; width: number; height: number },
  x: number,
  y: number,
) {
  return x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'likeness-local-generation-'));
  storage = new LocalStorage({
    root,
    secret: 'local-generation-test-secret',
    defaultTtlSeconds: 3600,
    publicPath: '/api/files',
  });
  // A real likeness profile: the local training engine on person A's eight photos.
  const photos = Array.from({ length: 8 }, (_, i) => read(`person-a/a-0${i + 1}.jpg`));
  const zipKey = storageKey('users', 'user-1', 'image_zips', 'model-1.zip');
  await storage.put(
    zipKey,
    Buffer.from(
      zipSync(Object.fromEntries(photos.map((bytes, i) => [`image_${i + 1}.jpg`, bytes])), {
        level: 0,
      }),
    ),
    'application/zip',
  );
  const started = await createLocalTrainingEngine({ storage }).start({
    modelId: 'model-1',
    userId: 'user-1',
    zipKey,
    zipUrl: await storage.signedUrl(zipKey),
    triggerWord: 'ohwx',
    steps: 1000,
    gender: 'woman',
    webhookUrl: null,
  });
  if (started.state?.status !== 'succeeded') throw new Error('The likeness profile was not built');
  weights = started.state.weights;
  profile = await readLikenessProfile(storage, weights);

  // Preset pictures: three official portraits (other people, colour, smiling) and one in a
  // seeded style (Grace Hopper's portrait in the black-and-white editorial look).
  for (const name of ['chu', 'clyburn', 'horsford']) {
    presets.push(await putPreset(name, read(`real-portraits/${name}.jpg`)));
  }
  const styled = await looks.blackAndWhiteEditorial(await frame(read('real-portraits/hopper.jpg')));
  presets.push(
    await putPreset(
      'hopper-editorial',
      await sharp(styled.data, {
        raw: { width: styled.width, height: styled.height, channels: 3 },
      })
        .png()
        .toBuffer(),
    ),
  );

  engine = createLocalGenerationEngine({ storage });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('local generation engine', () => {
  it('is the local engine and makes previews', () => {
    expect(engine.name).toBe('local');
    expect(engine.makesPreviews).toBe(true);
  });

  // Measured (human 3.3.6 on WASM): the face's similarity to person A's profile embedding, the
  // preset's own face → the output's: chu 0.38 → 0.72, clyburn 0.32 → 0.70, horsford
  // 0.42 → 0.73, hopper-editorial (black and white, seeded grain) 0.42 → 0.61. For scale: person A's
  // photos score 0.66-0.98 against each other, other people at most 0.47, and
  // faceRules.samePersonMinSimilarity is 0.57.
  it('puts person A into each preset picture: a JPEG of its size, her face at the preset face’s place', async () => {
    for (const preset of presets) {
      const outcome = await engine.generate(request(preset.key), signal());
      expect(outcome, preset.name).toMatchObject({ status: 'succeeded', reference: null });
      const image = (outcome as Extract<GenerationOutcome, { status: 'succeeded' }>).image;
      expect(image.contentType).toBe('image/jpeg');
      const meta = await sharp(image.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', preset.width, preset.height]);

      const faces = countedFaces(await analyzePhoto(image.bytes));
      expect(faces, preset.name).toHaveLength(1);
      const face = faces[0]!;
      // Where the preset face was: centres within 10% of its box, the size within 20%.
      const centre = (f: DetectedFace) => [f.box.x + f.box.width / 2, f.box.y + f.box.height / 2];
      const [cx, cy] = centre(face);
      const [px, py] = centre(preset.face);
      expect(Math.abs(cx! - px!), preset.name).toBeLessThan(preset.face.box.width * 0.1);
      expect(Math.abs(cy! - py!), preset.name).toBeLessThan(preset.face.box.height * 0.1);
      expect(face.box.width / preset.face.box.width).toBeGreaterThan(0.8);
      expect(face.box.width / preset.face.box.width).toBeLessThan(1.2);

      // It looks like person A: clearly more than the preset's own face did and, in colour,
      // enough for our own same-person rule to take it for her.
      const before = faceSimilarity(profile.embedding, preset.face.embedding);
      const after = faceSimilarity(profile.embedding, face.embedding);
      expect(before, preset.name).toBeLessThan(faceRules.samePersonMinSimilarity - 0.1);
      expect(after - before, preset.name).toBeGreaterThan(0.1);
      if (preset.name !== 'hopper-editorial') {
        expect(after, preset.name).toBeGreaterThan(faceRules.samePersonMinSimilarity + 0.05);
      }
    }
  });

  it('changes nothing away from the face but the Preview badge', async () => {
    for (const preset of presets) {
      const outcome = await engine.generate(request(preset.key), signal());
      const image = (outcome as Extract<GenerationOutcome, { status: 'succeeded' }>).image;
      const output = await rgb(image.bytes);
      // The preset as the same JPEG would carry it: only the encoding's own loss remains.
      const reference = await rgb(
        await sharp(preset.bytes).jpeg({ quality: localGenerationRules.jpegQuality }).toBuffer(),
      );
      const bounds = ellipseBounds(faceEllipse(preset.face.landmarks), preset.width, preset.height);
      // JPEG works in 16 px blocks (colour at half resolution): a margin of two blocks.
      const margin = 32;
      const face = {
        left: bounds.left - margin,
        top: bounds.top - margin,
        width: bounds.right - bounds.left + 2 * margin,
        height: bounds.bottom - bounds.top + 2 * margin,
      };
      const badgeBox = previewBadgeBox(preset.width, preset.height);
      const badge = {
        left: badgeBox.left - margin,
        top: badgeBox.top - margin,
        width: badgeBox.width + 2 * margin,
        height: badgeBox.height + 2 * margin,
      };
      let total = 0;
      let count = 0;
      let largest = 0;
      let badgeDiff = 0;
      let badgeCount = 0;
      for (let y = 0; y < output.height; y++) {
        for (let x = 0; x < output.width; x++) {
          const i = (y * output.width + x) * 3;
          let diff = 0;
          for (let c = 0; c < 3; c++)
            diff += Math.abs(output.data[i + c]! - reference.data[i + c]!);
          if (inside(badgeBox, x, y)) {
            badgeDiff += diff;
            badgeCount++;
          }
          if (inside(face, x, y) || inside(badge, x, y)) continue;
          total += diff;
          count++;
          largest = Math.max(largest, diff);
        }
      }
      // Most of the picture is away from the face, and there it is exactly the preset's
      // (measured: a difference of 0 on 48-78% of each picture).
      expect(count / (output.width * output.height)).toBeGreaterThan(0.4);
      expect(total / count, preset.name).toBeLessThan(0.01);
      expect(largest, preset.name).toBeLessThanOrEqual(3);
      // The badge is there (the corner changed).
      expect(badgeDiff / badgeCount / 3, preset.name).toBeGreaterThan(15);
    }
  });

  it('keeps a black-and-white style black and white', async () => {
    const preset = presets.find((p) => p.name === 'hopper-editorial')!;
    const outcome = await engine.generate(request(preset.key), signal());
    const output = await rgb(
      (outcome as Extract<GenerationOutcome, { status: 'succeeded' }>).image.bytes,
    );
    const { x, y, width, height } = preset.face.box;
    let chroma = 0;
    let n = 0;
    for (let row = Math.round(y); row < y + height; row++) {
      for (let col = Math.round(x); col < x + width; col++) {
        const i = (row * output.width + col) * 3;
        const [r, g, b] = [output.data[i]!, output.data[i + 1]!, output.data[i + 2]!];
        chroma += Math.max(r, g, b) - Math.min(r, g, b);
        n++;
      }
    }
    // Measured 0.4 (0-255); the centre of person A's crops measures 30-82.
    expect(chroma / n).toBeLessThan(6);
  });

  it('fails with a reason when the preset picture has no face', async () => {
    const key = storageKey('catalog', 'presets', 'cat.webp');
    await storage.put(key, await sharp(read('not-a-face/cat.jpg')).webp().toBuffer(), 'image/webp');
    expect(await engine.generate(request(key), signal())).toEqual({
      status: 'failed',
      error: messages.generation.presetNoFace,
      reason: messages.generation.presetNoFace,
      reference: null,
    });
  });

  it('fails with a reason when the preset has no picture, or it is missing or unreadable', async () => {
    const noPicture = {
      status: 'failed',
      error: messages.generation.presetPictureMissing,
      reason: messages.generation.presetPictureMissing,
      reference: null,
    };
    expect(await engine.generate(request(null), signal())).toEqual(noPicture);
    expect(await engine.generate({ ...request(null), preset: null }, signal())).toEqual(noPicture);
    expect(await engine.generate(request('catalog/presets/gone.webp'), signal())).toEqual(
      noPicture,
    );
    const broken = storageKey('catalog', 'presets', 'broken.webp');
    await storage.put(broken, Buffer.from('not a picture'), 'image/webp');
    expect(await engine.generate(request(broken), signal())).toEqual(noPicture);
  });

  it('fails with a reason when the likeness profile is missing or not one', async () => {
    const missing = await engine.generate(
      request(presets[0]!.key, { weights: 'users/user-1/models/none/likeness/profile.json' }),
      signal(),
    );
    expect(missing).toEqual({
      status: 'failed',
      error: messages.generation.likenessMissing,
      reason: messages.generation.likenessMissing,
      reference: null,
    });
    const notProfile = storageKey('users', 'user-1', 'models', 'model-9', 'profile.json');
    await storage.put(notProfile, Buffer.from('{"version":2}'), 'application/json');
    expect(
      await engine.generate(request(presets[0]!.key, { weights: notProfile }), signal()),
    ).toMatchObject({ status: 'failed', error: messages.generation.likenessMissing });
  });

  it('throws a transient EngineError when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await engine
      .generate(request(presets[0]!.key), controller.signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).transient).toBe(true);

    // Aborted while it works (after the storage reads): still stopped, still transient.
    const later = new AbortController();
    const slowStorage: Storage = {
      put: (key, body, contentType) => storage.put(key, body, contentType),
      read: async (key) => {
        const bytes = await storage.read(key);
        later.abort();
        return bytes;
      },
      exists: (key) => storage.exists(key),
      delete: (key) => storage.delete(key),
      deletePrefix: (prefix) => storage.deletePrefix(prefix),
      signedUrl: (key, options) => storage.signedUrl(key, options),
    };
    const stopped = await createLocalGenerationEngine({ storage: slowStorage })
      .generate(request(presets[0]!.key), later.signal)
      .catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(EngineError);
    expect((stopped as EngineError).transient).toBe(true);
  });
});

describe('alignment helpers', () => {
  it('fits the similarity transform that maps one set of points onto another', () => {
    // Scale 1.5, rotation 20 degrees, translation (40, -12).
    const angle = (20 * Math.PI) / 180;
    const a = 1.5 * Math.cos(angle);
    const b = 1.5 * Math.sin(angle);
    const from: [number, number][] = [
      [10, 20],
      [60, 22],
      [35, 80],
    ];
    const to = from.map(([x, y]) => [a * x - b * y + 40, b * x + a * y - 12] as const);
    const fitted = fitSimilarity(from, to);
    expect(fitted.a).toBeCloseTo(a, 9);
    expect(fitted.b).toBeCloseTo(b, 9);
    expect(fitted.tx).toBeCloseTo(40, 9);
    expect(fitted.ty).toBeCloseTo(-12, 9);
  });

  it('picks the crop closest in pose, mirrored when the head turns the other way', () => {
    const crop = (key: string, noseX: number): LikenessCrop => ({
      key,
      size: 512,
      box: { x: 100, y: 100, width: 300, height: 300 },
      landmarks: {
        leftEye: [200, 200],
        rightEye: [300, 200],
        nose: [noseX, 260],
        mouth: [250, 320],
      },
      source: `${key}.jpg`,
      score: 0.9,
      sharpness: 100,
      frontalness: 1,
    });
    const frontal = crop('frontal', 250);
    const turned = crop('turned', 280);
    const target = (noseX: number): FaceLandmarks => ({
      leftEye: [100, 100],
      rightEye: [200, 100],
      nose: [noseX, 160],
      mouth: [150, 220],
    });
    expect(chooseCrop([frontal, turned], target(150))).toEqual({ crop: frontal, mirrored: false });
    expect(chooseCrop([frontal, turned], target(180))).toEqual({ crop: turned, mirrored: false });
    expect(chooseCrop([frontal, turned], target(120))).toEqual({ crop: turned, mirrored: true });
    expect(chooseCrop([{ ...frontal, landmarks: null }], target(150))).toBeNull();
  });
});
