import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPreset } from '../../../common/api/admin.ts';
import type {
  ExamplePhotosResponse,
  LandingResponse,
  PresetResponse,
  PresetsResponse,
  QuizImagesResponse,
} from '../../../common/api/catalog.ts';
import { landingCarouselCategories, lists, quiz } from '../../../common/product.ts';
import { quizImages } from '../../db/schema/catalog.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { defaultQuizImages, sources } from './seed/default-content.ts';
import { seedDefaultContent } from './seed/seed.ts';
import { catalogFiles, expectImageServed, signUpAdmin } from './test-kit.ts';

// Seeding makes about a hundred pictures: allow for a busy two-core machine.
const seedTimeout = 240_000;

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
  it('shows the five carousel categories in order on the landing page, each with at most 8 pictured presets', async () => {
    const landing = await get<LandingResponse>('/api/catalog/landing');
    expect(landing.categories.map((c) => [c.manualId, c.displayName])).toEqual(
      landingCarouselCategories.map((c) => [c.id, c.label]),
    );
    for (const category of landing.categories) {
      expect(category.emoji).toBeTruthy();
      expect(category.presets.length).toBeGreaterThanOrEqual(6);
      expect(category.presets.length).toBeLessThanOrEqual(lists.presetsPerCategory);
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
    expect(presets.length).toBeGreaterThanOrEqual(30);
    expect(new Set(presets.map((p) => p.displayName)).size).toBe(presets.length);
    for (const preset of presets) {
      expect(preset.description.length, preset.manualId).toBeGreaterThan(20);
      expect(preset.prompt, preset.manualId).toContain('{trigger}');
      expect(preset.active).toBe(true);
    }
    const all = await get<PresetsResponse>('/api/catalog/presets');
    expect(all.presets).toHaveLength(presets.length);
    const detail = await get<PresetResponse>(`/api/catalog/presets/${all.presets[0]!.id}`);
    expect(detail.preset.additionalImages.length).toBeGreaterThan(0);
    for (const image of detail.preset.additionalImages) await expectImageServed(app, image);
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

  it('never shows the person of the retouched "AI" pictures among the real ones', () => {
    // Each person's photos live in a folder of their own (person-a/...); the official portraits
    // are one person per file.
    const person = (file: string) =>
      file.startsWith('real-portraits/') ? file : file.split('/')[0];
    const aiPeople = new Set(
      defaultQuizImages.flatMap((image) =>
        image.isAi ? [person(sources[image.recipe.source].file)] : [],
      ),
    );
    const realPeople = defaultQuizImages.flatMap((image) =>
      image.isAi ? [] : [person(image.file)],
    );
    expect(new Set(realPeople).size).toBe(quiz.realImageCount);
    expect(realPeople.filter((someone) => aiPeople.has(someone))).toEqual([]);
  });
});

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
    expect(landing.categories).toHaveLength(landingCarouselCategories.length);
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
});
