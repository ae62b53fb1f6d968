import type { RgbImage } from '../../images/rgb-image.ts';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTrainingRequest } from '../../../../tests/helpers/local-training.ts';
import { generationMessages } from '../../../common/messages/generation.ts';
import { analyzePhoto, faceSimilarity } from '../../images/faces.ts';
import { closeUpscaler } from '../../images/upscale.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { storageKey } from '../storage/storage.ts';
import type { GenerationEngine, GenerationRequest } from './generation-engine.ts';
import {
  createLocalGenerationEngine,
  cutoutOrder,
  localGenerationRules,
  renderPicture,
  sceneOf,
  seedOf,
} from './local-generation.ts';
import {
  createLocalTrainingEngine,
  readLikenessProfile,
  type LikenessProfile,
} from './local-training.ts';
import { loadCutout } from './studio/cutouts.ts';
import { examplePrompts as prompts } from './studio/prompt-examples.ts';
import { composePerson, type Cutout } from './studio/compose.ts';
import { backdropLight, paintBackdrop } from './studio/backdrops.ts';
import { meanLabDistance, rgbToLab } from './studio/pixels.ts';
import { sceneWith, type PresetScene } from './studio/scene.ts';
import { EngineError } from './training-engine.ts';

// Real photos (CC0 / public domain): see assets/seed/LICENSES.md and tests/fixtures/photos/README.md.
const seedPhotos = new URL('../../../../assets/seed/', import.meta.url);
const fixtures = new URL('../../../../tests/fixtures/photos/', import.meta.url);
const personA = Array.from({ length: 8 }, (_, i) =>
  readFileSync(new URL(`person-a/a-0${i + 1}.jpg`, seedPhotos)),
);
// Person B has four photos: the engine takes them directly (the app would ask for eight).
const personB = Array.from({ length: 4 }, (_, i) =>
  readFileSync(new URL(`person-b/b-0${i + 1}.jpg`, fixtures)),
);

/** Scenes of ten presets across the five landing categories. */
const presetScenes: Record<string, PresetScene> = {
  corporate: { place: 'studio', framing: 'portrait' },
  office: { place: 'office', time: 'day' },
  synthwave: {
    place: 'neon-grid',
    time: 'night',
    treatment: 'neon',
    rim: { colour: [255, 60, 200], strength: 0.8 },
  },
  miami: {
    place: 'beach',
    time: 'dusk',
    treatment: 'film',
    palette: { base: [255, 120, 170], accent: [60, 220, 230] },
  },
  gala: {
    place: 'castle',
    time: 'night',
    grade: { saturation: 0.9, contrast: 1.15, brightness: 0.95, warmth: 0.3 },
  },
  noir: { place: 'city-night', treatment: 'mono', time: 'night' },
  elf: { place: 'forest', time: 'golden', treatment: 'painterly' },
  cosmic: { place: 'space', time: 'night', rim: { colour: [140, 90, 255], strength: 0.7 } },
  editorial: {
    place: 'gallery',
    treatment: 'duotone',
    duotone: [
      [30, 20, 60],
      [250, 210, 170],
    ],
  },
  streetwear: { place: 'city-day', time: 'day', treatment: 'pop-art' },
};

let root: string;
let storage: LocalStorage;
let engine: GenerationEngine;
const people: Record<'a' | 'b', { weights: string; cutout: Cutout; ownScore: number }> =
  {} as never;

async function train(id: 'a' | 'b', photos: Buffer[]) {
  const started = await createLocalTrainingEngine({ storage }).start(
    await localTrainingRequest(storage, `model-${id}`, photos),
  );
  if (started.state?.status !== 'succeeded') throw new Error(`No profile for person ${id}`);
  const profile = await readLikenessProfile(storage, started.state.weights);
  // What the likeness badge shows for the user's own photos: their best face against the profile.
  let own = 0;
  for (const bytes of photos) own += await likenessOf(bytes, profile.embedding);
  people[id] = {
    weights: started.state.weights,
    cutout: await loadCutout(storage, profile.cutouts[0]!),
    ownScore: own / photos.length,
  };
}

async function likenessOf(bytes: Buffer, embedding: number[]): Promise<number> {
  const { faces } = await analyzePhoto(bytes);
  return Math.max(0, ...faces.map((face) => faceSimilarity(face.embedding, embedding)));
}

function request(person: 'a' | 'b', overrides: Partial<GenerationRequest> = {}) {
  return {
    generationId: `generation-${person}`,
    userId: 'user-1',
    weights: people[person].weights,
    triggerWord: 'ohwx',
    gender: 'woman',
    prompt: 'portrait of ohwx',
    preset: null,
    ...overrides,
  } satisfies GenerationRequest;
}

const signal = () => new AbortController().signal;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'likeness-local-generation-'));
  storage = new LocalStorage({
    root,
    secret: 'local-generation-test-secret',
    defaultTtlSeconds: 3600,
    publicPath: '/api/files',
  });
  await train('a', personA);
  await train('b', personB);
  engine = createLocalGenerationEngine({ storage });
});

afterAll(async () => {
  await closeUpscaler();
  rmSync(root, { recursive: true, force: true });
});

describe('local generation engine (the offline studio)', () => {
  it('is the local engine and makes previews', () => {
    expect(engine.name).toBe('local');
    expect(engine.makesPreviews).toBe(true);
  });

  it.each(['a', 'b'] as const)(
    'makes an HD picture of person %s that looks like them, from a preset and from a prompt',
    async (person) => {
      for (const overrides of [
        { preset: { id: 'preset-1', scene: presetScenes.office! }, prompt: 'ohwx in an office' },
        { prompt: 'photo of ohwx, beach at sunset, red summer dress' },
      ]) {
        const outcome = await engine.generate(request(person, overrides), signal());
        if (outcome.status !== 'succeeded') throw new Error(`Not made: ${JSON.stringify(outcome)}`);
        const meta = await sharp(outcome.image.bytes).metadata();
        expect(meta.format).toBe('jpeg');
        expect(Math.max(meta.width, meta.height)).toBeGreaterThanOrEqual(2048);
        const profile = await readLikenessProfile(storage, people[person].weights);
        const likeness = await likenessOf(outcome.image.bytes, profile.embedding);
        // The issue's bar: 0.9 × the user's own photos' score. The engine holds its pictures to
        // 0.92 × and makes a miss again (decision 034).
        expect(likeness).toBeGreaterThanOrEqual(0.9 * people[person].ownScore);
      }
    },
    240_000,
  );

  it.each(['a', 'b'] as const)(
    'keeps person %s whole: hair above the eyes, shoulders down to the frame, the face inside the matte',
    async (person) => {
      const { width, height } = localGenerationRules.canvas;
      for (const framing of ['headshot', 'portrait', 'half-body'] as const) {
        const scene = sceneWith({ place: 'studio', framing });
        const backdrop = await paintBackdrop(scene, width, height, 1);
        const { personAlpha, landmarks } = composePerson(
          backdrop,
          people[person].cutout,
          scene,
          backdropLight(scene).ambient,
        );
        const at = ([x, y]: readonly [number, number]) =>
          personAlpha[Math.round(y) * width + Math.round(x)]!;
        const eyeDistance = landmarks.rightEye[0] - landmarks.leftEye[0];
        const eyeMid = [
          (landmarks.leftEye[0] + landmarks.rightEye[0]) / 2,
          landmarks.leftEye[1],
        ] as const;
        expect(at(landmarks.nose)).toBeGreaterThan(0.9);
        expect(at(landmarks.mouth)).toBeGreaterThan(0.9);
        // The top of the head (hair) is there, not cut at the brow.
        expect(at([eyeMid[0], eyeMid[1] - eyeDistance * 0.9])).toBeGreaterThan(0.8);
        // The shoulders reach the bottom of the frame on both sides of the neck.
        for (const side of [-1, 1]) {
          expect(at([eyeMid[0] + side * eyeDistance, height - 2])).toBeGreaterThan(0.5);
        }
        // Beside the head is backdrop, not the photo's room.
        expect(at([4, eyeMid[1]])).toBeLessThan(0.1);
        expect(at([width - 5, eyeMid[1]])).toBeLessThan(0.1);
      }
    },
    60_000,
  );

  it('dyes the fabric of the clothes and leaves what is another colour as it is', async () => {
    // Person B wears an orange suit with a black collar inside a metal ring: "a red jacket"
    // makes the suit red, and the collar stays black rather than turning a flat red patch.
    const { width, height } = localGenerationRules.canvas;
    const compose = async (clothing: [number, number, number] | null) => {
      const scene = sceneWith({ place: 'studio', framing: 'portrait', clothing });
      const backdrop = await paintBackdrop(scene, width, height, 1);
      return composePerson(backdrop, people.b.cutout, scene, backdropLight(scene).ambient);
    };
    const [plain, dyed] = await Promise.all([compose(null), compose([200, 30, 30])]);
    const { landmarks } = plain;
    const eyeDistance = landmarks.rightEye[0] - landmarks.leftEye[0];
    const midX = (landmarks.leftEye[0] + landmarks.rightEye[0]) / 2;
    const meanLab = (image: RgbImage, cx: number, cy: number, r: number) => {
      const sum = [0, 0, 0];
      const lab: [number, number, number] = [0, 0, 0];
      let n = 0;
      for (let y = Math.round(cy - r); y <= cy + r; y++)
        for (let x = Math.round(cx - r); x <= cx + r; x++) {
          const o = (y * width + x) * 3;
          rgbToLab(image.data[o]!, image.data[o + 1]!, image.data[o + 2]!, lab);
          for (let c = 0; c < 3; c++) sum[c]! += lab[c]!;
          n++;
        }
      return sum.map((v) => v / n);
    };
    const collarAt = [midX, landmarks.mouth[1] + eyeDistance * 1.1] as const;
    const suitAt = [midX - eyeDistance * 1.9, height - eyeDistance * 0.6] as const;
    const r = Math.round(eyeDistance * 0.12);
    const [collarBefore, collarAfter] = [plain, dyed].map((c) => meanLab(c.image, ...collarAt, r));
    const [suitBefore, suitAfter] = [plain, dyed].map((c) => meanLab(c.image, ...suitAt, r));
    // Measured: the collar stays at L* 15, a* 0, b* 2 (dyed with the rest below the chin, as
    // before, it turned a dark red: L* 20, a* 16, b* 10); the suit's a* 45 → 59, its hue angle
    // 45° → 34°.
    expect(collarBefore![0]).toBeLessThan(30);
    expect(Math.abs(collarAfter![0]! - collarBefore![0]!)).toBeLessThan(3);
    expect(
      Math.hypot(collarAfter![1]! - collarBefore![1]!, collarAfter![2]! - collarBefore![2]!),
    ).toBeLessThan(4);
    expect(suitAfter![1]! - suitBefore![1]!).toBeGreaterThan(8);
    const hue = (lab: number[]) => (Math.atan2(lab[2]!, lab[1]!) * 180) / Math.PI;
    expect(hue(suitAfter!)).toBeLessThan(hue(suitBefore!) - 8);
  }, 60_000);

  it('gives clearly different pictures for different presets and for different prompts', async () => {
    const cutout = people.a.cutout;
    const render = (parts: PresetScene, prompt = 'portrait of ohwx') =>
      renderPicture(
        cutout,
        sceneOf({ prompt, triggerWord: 'ohwx', preset: { id: 'p', scene: parts } }),
        7,
      );
    const byPreset = await Promise.all(Object.values(presetScenes).map((parts) => render(parts)));
    const byPrompt = await Promise.all(
      prompts.map((prompt) =>
        renderPicture(
          cutout,
          sceneOf({ prompt: `photo of ohwx, ${prompt}`, triggerWord: 'ohwx', preset: null }),
          7,
        ),
      ),
    );
    for (const pictures of [byPreset, byPrompt]) {
      let smallest = Infinity;
      for (let i = 0; i < pictures.length; i++)
        for (let j = i + 1; j < pictures.length; j++)
          smallest = Math.min(smallest, meanLabDistance(pictures[i]!, pictures[j]!));
      // Measured (mean ΔE 1976 over the frame, person A): the closest two of the default
      // catalog's ten presets 11.7 apart, of the ten example prompts 14.5; the same scene with
      // another seed 0-4. Different scenes must stand further apart than any reseeding.
      expect(smallest).toBeGreaterThan(6);
    }
  }, 180_000);

  it('completes 50 varied prompts, reading what it can and falling back to a neutral studio', async () => {
    const many = [
      ...prompts,
      'me as a knight in a castle throne room',
      'walking in a sunflower field',
      'desert dunes at noon',
      'lake at sunrise with mist',
      'rooftop party in new york at night',
      'library with old books, cinematic',
      'retro 80s synthwave',
      'tropical jungle with palm trees',
      'pastel dreamy portrait',
      'vintage polaroid in a garden',
      'pop art comic style',
      'pencil sketch',
      'vhs glitch',
      'sepia portrait',
      'duotone blue and orange',
      'autumn park with falling leaves',
      'stage with a spotlight',
      'gallery opening',
      'foggy forest morning',
      'rainy street in tokyo',
      'clouds in the sky',
      'wearing a yellow raincoat in the rain',
      'in a navy suit, headshot',
      'full body, emerald dress, evening',
      'close-up, moody, teal and orange',
      'zebra quokka',
      '',
      '🙂🚀🌌',
      'x'.repeat(2000),
      'Porträt am Strand bei Sonnenuntergang',
      'retrato en la oficina',
      'portrait de moi à paris la nuit',
      '12345',
      'a a a a a a a a',
      'studio lighting, rim light from the left',
      'candlelight dinner',
      'ski resort in winter',
      'a picnic on a summer day',
      'mountain lake, golden hour, backlit',
      'space station window with earth',
    ];
    expect(many.length).toBeGreaterThanOrEqual(50);
    for (const [index, prompt] of many.entries()) {
      const scene = sceneOf({
        prompt: `photo of ohwx, ${prompt}`,
        triggerWord: 'ohwx',
        preset: null,
      });
      const picture = await renderPicture(people.b.cutout, scene, index);
      expect([picture.width, picture.height]).toEqual([
        localGenerationRules.canvas.width,
        localGenerationRules.canvas.height,
      ]);
    }
  }, 300_000);

  it('makes a picture that lost the likeness again from another photo of the person', async () => {
    // A's profile whose cut-outs include someone else's photo (B's), as typical as A's own: a
    // picture made from it does not look like A, and the engine must notice and use A's photo.
    const profileA = await readLikenessProfile(storage, people.a.weights);
    const profileB = await readLikenessProfile(storage, people.b.weights);
    const [cutoutA, cutoutB] = [profileA.cutouts[0]!, profileB.cutouts[0]!];
    const mixed = {
      ...profileA,
      cutouts: [cutoutB, cutoutA].map((c) => ({ ...c, typicality: 0.9 })),
    };
    const onlyB = { ...mixed, cutouts: [mixed.cutouts[0]!] };
    const onlyA = { ...mixed, cutouts: [mixed.cutouts[1]!] };
    const draftEngine = createLocalGenerationEngine({ storage, draft: true });
    const likenessToA = async (
      profile: LikenessProfile,
      generationId: string,
      maker = draftEngine,
    ) => {
      const key = storageKey('users', 'user-1', 'models', 'mixed', `${randomUUID()}.json`);
      await storage.put(key, Buffer.from(JSON.stringify(profile)), 'application/json');
      const outcome = await maker.generate(request('a', { weights: key, generationId }), signal());
      if (outcome.status !== 'succeeded') throw new Error(`Not made: ${JSON.stringify(outcome)}`);
      return likenessOf(outcome.image.bytes, profileA.embedding);
    };
    // This generation's seed picks B's photo first.
    const generationId = ['g-1', 'g-2', 'g-3', 'g-4'].find(
      (id) => cutoutOrder(mixed, seedOf(id))[0]!.key === cutoutB.key,
    )!;
    const fromA = await likenessToA(onlyA, generationId);
    const fromB = await likenessToA(onlyB, generationId);
    expect(fromB).toBeLessThan(0.7 * fromA);
    expect(await likenessToA(mixed, generationId)).toBeGreaterThanOrEqual(0.95 * fromA);
    // In HD, where the next photo is judged at canvas size before it is upscaled.
    expect(await likenessToA(mixed, generationId, engine)).toBeGreaterThanOrEqual(
      0.9 * people.a.ownScore,
    );
  }, 180_000);

  it('fails with its reason when the likeness profile is missing or of an older shape', async () => {
    const missing = await engine.generate(
      request('a', { weights: 'users/user-1/none.json' }),
      signal(),
    );
    expect(missing).toMatchObject({
      status: 'failed',
      reason: generationMessages.likenessMissing,
    });
    const old = storageKey('users', 'user-1', 'models', 'old', 'profile.json');
    await storage.put(
      old,
      Buffer.from(JSON.stringify({ version: 1, crops: [] })),
      'application/json',
    );
    const older = await engine.generate(request('a', { weights: old }), signal());
    expect(older).toMatchObject({ status: 'failed', reason: generationMessages.likenessMissing });
  });

  it('stops when its job is cancelled, as a transient error the job can retry', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.generate(request('a'), controller.signal)).rejects.toBeInstanceOf(
      EngineError,
    );
  });
});
