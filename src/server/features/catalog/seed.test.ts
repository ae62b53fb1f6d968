import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPreset } from '../../../common/api/admin.ts';
import type {
  ExamplePhotosResponse,
  LandingResponse,
  PresetResponse,
  PresetsResponse,
  QuizImagesResponse,
} from '../../../common/api/catalog.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogImage } from '../../../common/api/catalog.ts';
import { identity } from '../../../common/product/identity.ts';
import { landingCarouselCategories } from '../../../common/product/landing.ts';
import { lists } from '../../../common/product/limits.ts';
import { quiz } from '../../../common/product/quiz.ts';
import { categories, presets, quizImages } from '../../db/schema/catalog.ts';
import { analyzePhoto, faceSimilarity } from '../../images/faces.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import type { ContentManifest } from './content-import.ts';
import { defaultContentDir, seedDefaultContent } from './seed.ts';
import { catalogFiles, expectImageServed, fixtures, signUpAdmin } from './test-kit.ts';

// Seeding stores about two hundred pictures: allow for a busy two-core machine.
const seedTimeout = 240_000;

const pack = JSON.parse(
  readFileSync(path.join(defaultContentDir, 'manifest.json'), 'utf8'),
) as ContentManifest;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { SEED_CONTENT: 'true' } });
}, seedTimeout);
afterAll(async () => {
  await app.stop();
});

const get = async <T>(url: string) => {
  const response = await app.app!.inject({ url });
  expect(response.statusCode, url).toBe(200);
  return response.json<T>();
};

describe('a fresh install starts with the default content', () => {
  it('shows every category on the landing page, the five carousel ones full (8 pictured presets each)', async () => {
    const landing = await get<LandingResponse>('/api/catalog/landing');
    expect(landing.categories.map((c) => c.manualId)).toEqual(
      pack.categories.map((c) => c.manualId),
    );
    for (const carousel of landingCarouselCategories) {
      const category = landing.categories.find((c) => c.manualId === carousel.id)!;
      expect(category.displayName).toBe(carousel.label);
      expect(category.presets).toHaveLength(lists.presetsPerCategory);
    }
    for (const category of landing.categories) {
      expect(category.emoji).toBeTruthy();
      for (const preset of category.presets) {
        expect(preset.featuredImage.alt).toBe(preset.displayName);
        await expectImageServed(app, preset.featuredImage);
      }
    }
  });

  it('gives every preset a real name, a description, a prompt with {trigger} and a second picture', async () => {
    const admin = await signUpAdmin(app);
    const response = await app.app!.inject({
      url: '/api/admin/presets',
      headers: admin.headers,
    });
    const presets = response.json<{ presets: AdminPreset[] }>().presets;
    expect(presets.length).toBeGreaterThanOrEqual(54);
    expect(new Set(presets.map((p) => p.displayName)).size).toBe(presets.length);
    for (const preset of presets) {
      expect(preset.description.length, preset.manualId).toBeGreaterThan(20);
      expect(preset.prompt, preset.manualId).toContain('{trigger}');
      expect(preset.active).toBe(true);
    }
    const all = await get<PresetsResponse>('/api/catalog/presets');
    expect(all.presets).toHaveLength(presets.length);
    const detail = await get<PresetResponse>(`/api/catalog/presets/${all.presets[0]!.id}`);
    expect(detail.preset.additionalImages.length).toBeGreaterThanOrEqual(2);
    for (const image of detail.preset.additionalImages) await expectImageServed(app, image);
    // A scene the prompt alone would not give reaches the engine with the preset.
    expect(presets.find((p) => p.manualId === 'ocean-siren')?.scene).toEqual({
      place: 'underwater',
    });
  });

  it('shows at least 8 different people on the landing page, a face in every picture', async () => {
    const landing = await get<LandingResponse>('/api/catalog/landing');
    const shown = landing.categories.flatMap((c) => c.presets);
    // Which person a picture was made from is in its file name in the pack.
    const people = new Set(
      shown.map((preset) => {
        const entry = pack.presets.find((p) => p.manualId === preset.manualId)!;
        return path.basename(entry.featuredImage!, '.webp').slice(preset.manualId.length + 1);
      }),
    );
    expect(people.size).toBeGreaterThanOrEqual(8);
    for (const preset of shown)
      expect(await faceOf(preset.featuredImage), preset.manualId).toBeDefined();
  });

  it('has good and bad example photos, each bad one saying why', async () => {
    const { photos } = await get<ExamplePhotosResponse>('/api/catalog/example-photos');
    const good = photos.filter((p) => p.goodOrBad === 'good');
    const bad = photos.filter((p) => p.goodOrBad === 'bad');
    expect(good.length).toBeGreaterThanOrEqual(3);
    expect(bad.length).toBeGreaterThanOrEqual(4);
    const reasons = bad.map((p) => p.caption).join(' | ');
    for (const reason of [/blurry/i, /two people/i, /too small/i, /no face/i])
      expect(reasons).toMatch(reason);
    for (const photo of photos) await expectImageServed(app, photo.image);
  });

  it('has the quiz: 16 pictures, the first 9 AI-generated and 7 real', async () => {
    const { images } = await get<QuizImagesResponse>('/api/catalog/quiz-images');
    expect(images).toHaveLength(quiz.imageCount);
    expect(images.map((i) => i.isAi)).toEqual([
      ...Array<boolean>(quiz.aiImageCount).fill(true),
      ...Array<boolean>(quiz.realImageCount).fill(false),
    ]);
    for (const image of images) {
      const response = await app.app!.inject({ url: image.src });
      expect(response.statusCode).toBe(200);
      expect(image.srcset).toContain(`${image.src} ${image.width}w`);
    }
  });

  it('never shows a person of the "AI" pictures among the real ones', async () => {
    const { images } = await get<QuizImagesResponse>('/api/catalog/quiz-images');
    const faces = await Promise.all(images.map(faceOf));
    expect(faces.every(Boolean)).toBe(true);
    const ai = faces.slice(0, quiz.aiImageCount);
    const real = faces.slice(quiz.aiImageCount);
    for (const aiFace of ai)
      for (const realFace of real)
        expect(faceSimilarity(aiFace!, realFace!)).toBeLessThan(identity.samePersonMinSimilarity);
  });
});

type Picture = Pick<CatalogImage, 'src'>;

/** The face embedding of a catalog picture (its 640 px variant), or undefined when no face shows. */
async function faceOf(image: Picture): Promise<number[] | undefined> {
  const response = await app.app!.inject({ url: image.src });
  const { faces } = await analyzePhoto(response.rawPayload);
  return faces[0]?.embedding;
}

describe('seeding again', () => {
  it('adds nothing when the catalog has content', async () => {
    const files = catalogFiles(app);
    const report = await seedDefaultContent({
      db: app.deps.database.db,
      storage: app.deps.storage,
    });
    expect(report).toMatchObject({ categories: 0, presets: 0, examplePhotos: 0, quizImages: 0 });
    expect(catalogFiles(app)).toEqual(files);
    const landing = await get<LandingResponse>('/api/catalog/landing');
    expect(landing.categories).toHaveLength(pack.categories.length);
  });

  it(
    'refills only an emptied part, once, even when two processes seed at the same time',
    async () => {
      const before = await get<PresetsResponse>('/api/catalog/presets');
      await app.deps.database.db.delete(quizImages);
      const seed = () =>
        seedDefaultContent({ db: app.deps.database.db, storage: app.deps.storage });
      const reports = await Promise.all([seed(), seed()]);
      expect(reports.map((r) => r.quizImages).sort()).toEqual([0, quiz.imageCount]);
      for (const report of reports) expect(report.presets).toBe(0);
      const { images } = await get<QuizImagesResponse>('/api/catalog/quiz-images');
      expect(images).toHaveLength(quiz.imageCount);
      const after = await get<PresetsResponse>('/api/catalog/presets');
      expect(after.presets.map((p) => p.id)).toEqual(before.presets.map((p) => p.id));
    },
    seedTimeout,
  );

  it('leaves no row and no picture behind when the pack fails half-way', async () => {
    await app.deps.database.db.delete(presets);
    await app.deps.database.db.delete(categories);
    const files = catalogFiles(app);
    // A valid first preset (its picture is stored), then one in a category that does not exist.
    const pack = mkdtempSync(path.join(os.tmpdir(), 'likeness-pack-'));
    writeFileSync(path.join(pack, 'portrait.jpg'), fixtures.portrait());
    const preset = (manualId: string, categoryId: string) => ({
      manualId,
      categoryId,
      displayName: manualId,
      prompt: 'portrait of {trigger}',
      featuredImage: 'portrait.jpg',
    });
    writeFileSync(
      path.join(pack, 'manifest.json'),
      JSON.stringify({
        categories: [{ manualId: 'only', displayName: 'Only' }],
        presets: [preset('first', 'only'), preset('second', 'missing')],
      }),
    );
    await expect(
      seedDefaultContent({ db: app.deps.database.db, storage: app.deps.storage, contentDir: pack }),
    ).rejects.toThrow();
    const { categories: left } = await get<{ categories: unknown[] }>('/api/catalog/categories');
    expect(left).toEqual([]);
    expect(catalogFiles(app)).toEqual(files);
  });
});
