import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCategory,
  AdminExamplePhoto,
  AdminPreset,
  AdminQuizImage,
} from '../../../common/api/admin.ts';
import type { LandingResponse } from '../../../common/api/catalog.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';
import {
  catalogFiles,
  expectImageServed,
  fixtures,
  multipart,
  overTenMegabyteJpeg,
  signUpAdmin,
} from './test-kit.ts';

let app: TestApp;
let admin: SignedInUser;
let member: SignedInUser;

beforeAll(async () => {
  // No default content here (SEED_CONTENT is off in tests): every row is made by the test.
  app = await createTestApp();
  admin = await signUpAdmin(app);
  member = await signUp(app);
});
afterAll(async () => {
  await app.stop();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ErrorBody {
  error: { code: string; message: string };
}

async function call<T = ErrorBody>(
  method: Method,
  url: string,
  options: { as?: SignedInUser | null; json?: unknown; body?: ReturnType<typeof multipart> } = {},
) {
  const who = options.as === undefined ? admin : options.as;
  const headers: Record<string, string> = { origin: app.origin, ...(who?.headers ?? {}) };
  const response = await app.app!.inject({
    method,
    url,
    headers: {
      ...headers,
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.body?.headers ?? {}),
    },
    ...(options.json !== undefined ? { payload: JSON.stringify(options.json) } : {}),
    ...(options.body ? { payload: options.body.payload } : {}),
  });
  // 204 and 304 have no body.
  const body = (response.body ? response.json<T>() : undefined) as T;
  return { status: response.statusCode, body, response };
}

const prompt = 'portrait of {trigger}, studio light';

async function createCategory(manualId: string, extra: Record<string, unknown> = {}) {
  const { status, body } = await call<{ category: AdminCategory }>(
    'POST',
    '/api/admin/categories',
    {
      json: { manualId, displayName: manualId.toUpperCase(), ...extra },
    },
  );
  expect(status, JSON.stringify(body)).toBe(201);
  return body.category;
}

async function createPreset(categoryId: string, displayName: string, extra = {}) {
  const { status, body } = await call<{ preset: AdminPreset }>('POST', '/api/admin/presets', {
    json: { categoryId, displayName, description: `${displayName} look`, prompt, ...extra },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.preset;
}

async function uploadPresetImage(id: string, file: Buffer = fixtures.portrait(), as?: string) {
  const { status, body } = await call<{ preset: AdminPreset }>(
    'POST',
    `/api/admin/presets/${id}/images${as ? `?as=${as}` : ''}`,
    { body: multipart(file) },
  );
  expect(status, JSON.stringify(body)).toBe(200);
  return body.preset;
}

async function landing() {
  const { status, body } = await call<LandingResponse>('GET', '/api/catalog/landing', {
    as: null,
  });
  expect(status).toBe(200);
  return body;
}

describe('an admin builds the catalog through the API', () => {
  it('creates a category and a preset with an uploaded picture, and it appears on the landing page', async () => {
    const category = await createCategory('studio-tests', { emoji: '📸' });
    expect(category).toMatchObject({ active: true, presetCount: 0, emoji: '📸' });
    const preset = await createPreset('studio-tests', 'Soft Window Light');
    expect(preset.manualId).toBe('soft-window-light');
    expect(preset.featuredImage).toBeNull();

    // Without a picture it is listed, but not on the landing page.
    expect((await landing()).categories.map((c) => c.manualId)).not.toContain('studio-tests');

    const withImage = await uploadPresetImage(preset.id);
    expect(withImage.featuredImage).not.toBeNull();
    // 960 px wide source: 320 and 640 px variants and the source width.
    expect(withImage.featuredImage!.variants.map((v) => v.width)).toEqual([320, 640, 960]);
    expect(withImage.featuredImage).toMatchObject({ width: 640, height: 853 });

    const group = (await landing()).categories.find((c) => c.manualId === 'studio-tests');
    expect(group).toMatchObject({ displayName: 'STUDIO-TESTS', emoji: '📸' });
    expect(group!.presets).toEqual([
      {
        id: preset.id,
        manualId: 'soft-window-light',
        displayName: 'Soft Window Light',
        featuredImage: withImage.featuredImage,
      },
    ]);
    await expectImageServed(app, group!.presets[0]!.featuredImage);

    // The detail page gets the category and the pictures, but never the engine prompt.
    const detail = await call<{ preset: Record<string, unknown> }>(
      'GET',
      `/api/catalog/presets/${preset.id}`,
      { as: member },
    );
    expect(detail.status).toBe(200);
    expect(detail.body.preset).toMatchObject({
      id: preset.id,
      category: { manualId: 'studio-tests', displayName: 'STUDIO-TESTS' },
      additionalImages: [],
    });
    expect(detail.body.preset).not.toHaveProperty('prompt');
  });

  it('adds, promotes and removes additional pictures, deleting their files', async () => {
    await createCategory('pictures');
    const preset = await createPreset('pictures', 'Gallery');
    const first = await uploadPresetImage(preset.id);
    const second = await uploadPresetImage(preset.id, fixtures.otherPortrait());
    expect(second.featuredImage!.id).toBe(first.featuredImage!.id);
    expect(second.additionalImages).toHaveLength(1);
    const extra = second.additionalImages[0]!;
    await expectImageServed(app, extra);

    // The same picture again is one picture, not two.
    const again = await uploadPresetImage(preset.id, fixtures.otherPortrait());
    expect(again.additionalImages.map((i) => i.id)).toEqual([extra.id]);

    const promoted = await call<{ preset: AdminPreset }>(
      'POST',
      `/api/admin/presets/${preset.id}/images/${extra.id}/feature`,
    );
    expect(promoted.body.preset.featuredImage!.id).toBe(extra.id);
    expect(promoted.body.preset.additionalImages.map((i) => i.id)).toEqual([
      first.featuredImage!.id,
    ]);

    const removed = await call<{ preset: AdminPreset }>(
      'DELETE',
      `/api/admin/presets/${preset.id}/images/${first.featuredImage!.id}`,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.preset.additionalImages).toEqual([]);
    const gone = await app.app!.inject({ url: first.featuredImage!.src });
    expect(gone.statusCode).toBe(404);

    // Deleting the preset takes its remaining files with it.
    expect((await call('DELETE', `/api/admin/presets/${preset.id}`)).status).toBe(204);
    expect(catalogFiles(app).filter((f) => f.includes(preset.id))).toEqual([]);
    expect((await call('GET', `/api/catalog/presets/${preset.id}`, { as: null })).status).toBe(404);
  });

  it('reorders categories and presets', async () => {
    const before = await call<{ categories: AdminCategory[] }>('GET', '/api/admin/categories');
    const keys = before.body.categories.map((c) => c.manualId);
    const reversed = [...keys].reverse();
    const reordered = await call<{ categories: AdminCategory[] }>(
      'PUT',
      '/api/admin/categories/order',
      { json: { manualIds: reversed } },
    );
    expect(reordered.status).toBe(200);
    expect(reordered.body.categories.map((c) => c.manualId)).toEqual(reversed);
    const publicList = await call<{ categories: { manualId: string }[] }>(
      'GET',
      '/api/catalog/categories',
      { as: null },
    );
    expect(publicList.body.categories.map((c) => c.manualId)).toEqual(reversed);

    // An order that leaves one out is refused.
    const partial = await call('PUT', '/api/admin/categories/order', {
      json: { manualIds: reversed.slice(1) },
    });
    expect(partial.status).toBe(400);
    expect(partial.body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'The new order must list every item exactly once.' },
    });

    await createCategory('ordering');
    const a = await createPreset('ordering', 'Alpha');
    const b = await createPreset('ordering', 'Bravo');
    const c = await createPreset('ordering', 'Charlie');
    for (const p of [a, b, c]) await uploadPresetImage(p.id);
    const names = async () =>
      (await landing()).categories
        .find((g) => g.manualId === 'ordering')!
        .presets.map((p) => p.displayName);
    expect(await names()).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const moved = await call<{ presets: AdminPreset[] }>('PUT', '/api/admin/presets/order', {
      json: { categoryId: 'ordering', ids: [c.id, a.id, b.id] },
    });
    expect(moved.status).toBe(200);
    expect(await names()).toEqual(['Charlie', 'Alpha', 'Bravo']);
    const listed = await call<{ presets: { displayName: string }[] }>(
      'GET',
      '/api/catalog/presets?category=ordering',
      { as: null },
    );
    expect(listed.body.presets.map((p) => p.displayName)).toEqual(['Charlie', 'Alpha', 'Bravo']);
  });

  it('deactivating hides a preset or a whole category everywhere', async () => {
    await createCategory('seasonal');
    const shown = await createPreset('seasonal', 'Autumn');
    const hidden = await createPreset('seasonal', 'Winter');
    for (const p of [shown, hidden]) await uploadPresetImage(p.id);

    const off = await call<{ preset: AdminPreset }>('PATCH', `/api/admin/presets/${hidden.id}`, {
      json: { active: false },
    });
    expect(off.body.preset.active).toBe(false);
    const group = (await landing()).categories.find((g) => g.manualId === 'seasonal')!;
    expect(group.presets.map((p) => p.id)).toEqual([shown.id]);
    const list = await call<{ presets: { id: string }[] }>('GET', '/api/catalog/presets', {
      as: null,
    });
    expect(list.body.presets.map((p) => p.id)).not.toContain(hidden.id);
    const detail = await call('GET', `/api/catalog/presets/${hidden.id}`, { as: member });
    expect(detail.status).toBe(404);
    expect(detail.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Model not found' } });
    // The admin still sees it, marked inactive.
    const adminList = await call<{ presets: AdminPreset[] }>(
      'GET',
      '/api/admin/presets?category=seasonal',
    );
    expect(adminList.body.presets.find((p) => p.id === hidden.id)?.active).toBe(false);

    await call('PATCH', '/api/admin/categories/seasonal', { json: { active: false } });
    expect((await landing()).categories.map((g) => g.manualId)).not.toContain('seasonal');
    const categories = await call<{ categories: { manualId: string }[] }>(
      'GET',
      '/api/catalog/categories',
      { as: null },
    );
    expect(categories.body.categories.map((c) => c.manualId)).not.toContain('seasonal');
    expect((await call('GET', `/api/catalog/presets/${shown.id}`, { as: null })).status).toBe(404);
    const byCategory = await call('GET', '/api/catalog/presets?category=seasonal', { as: null });
    expect(byCategory.status).toBe(404);
    expect(byCategory.body).toEqual({
      error: { code: 'NOT_FOUND', message: 'Category not found' },
    });

    await call('PATCH', '/api/admin/categories/seasonal', { json: { active: true } });
    expect((await landing()).categories.map((g) => g.manualId)).toContain('seasonal');
  });

  it('keeps at most 8 presets per category on the landing page and hides categories without pictures', async () => {
    await createCategory('crowded');
    const presets: AdminPreset[] = [];
    for (let i = 1; i <= 10; i++) presets.push(await createPreset('crowded', `Look ${i}`));
    // Pictures for all but the second: it is skipped, the cap counts only pictured presets.
    const small = await fixtures.small();
    for (const [index, p] of presets.entries())
      if (index !== 1) await uploadPresetImage(p.id, small);
    const group = (await landing()).categories.find((g) => g.manualId === 'crowded')!;
    expect(group.presets.map((p) => p.displayName)).toEqual([
      'Look 1',
      'Look 3',
      'Look 4',
      'Look 5',
      'Look 6',
      'Look 7',
      'Look 8',
      'Look 9',
    ]);
    // The category page lists all ten (the one without a picture shows its fallback).
    const all = await call<{ presets: unknown[] }>('GET', '/api/catalog/categories/crowded', {
      as: null,
    });
    expect(all.body.presets).toHaveLength(10);

    await createCategory('no-pictures');
    await createPreset('no-pictures', 'Coming Soon');
    const body = await landing();
    expect(body.categories.map((g) => g.manualId)).not.toContain('no-pictures');
    for (const category of body.categories) {
      expect(category.presets.length).toBeGreaterThan(0);
      expect(category.presets.length).toBeLessThanOrEqual(8);
    }
  });

  it('enforces keys, prompts and category rules with clear messages', async () => {
    await createCategory('rules');
    const duplicate = await call('POST', '/api/admin/categories', {
      json: { manualId: 'rules', displayName: 'Again' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      error: { code: 'CONFLICT', message: 'A category with the key "rules" already exists.' },
    });
    const badKey = await call('POST', '/api/admin/categories', {
      json: { manualId: 'Bad Key!', displayName: 'x' },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.message).toContain('Use lowercase letters, digits and single hyphens');
    const noTrigger = await call('POST', '/api/admin/presets', {
      json: { categoryId: 'rules', displayName: 'No Trigger', prompt: 'a portrait' },
    });
    expect(noTrigger.status).toBe(400);
    expect(noTrigger.body.error.message).toContain('{trigger}');
    const missingCategory = await call('POST', '/api/admin/presets', {
      json: { categoryId: 'nowhere', displayName: 'Lost', prompt },
    });
    expect(missingCategory.status).toBe(404);
    expect(missingCategory.body.error.message).toBe('Category not found');

    const preset = await createPreset('rules', 'Keeper');
    const twin = await createPreset('rules', 'Keeper');
    expect(twin.manualId).toBe('keeper-2');
    const blocked = await call('DELETE', '/api/admin/categories/rules');
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toBe(
      'This category still has 2 presets. Move or delete them first.',
    );

    // Renaming a category key carries its presets along.
    const renamed = await call<{ category: AdminCategory }>(
      'PATCH',
      '/api/admin/categories/rules',
      {
        json: { manualId: 'house-rules', displayName: 'House Rules' },
      },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.category).toMatchObject({ manualId: 'house-rules', presetCount: 2 });
    const moved = await call<{ preset: AdminPreset }>('GET', `/api/admin/presets/${preset.id}`);
    expect(moved.body.preset.categoryId).toBe('house-rules');

    for (const p of [preset, twin]) await call('DELETE', `/api/admin/presets/${p.id}`);
    expect((await call('DELETE', '/api/admin/categories/house-rules')).status).toBe(204);
  });
});

describe('uploads are checked from their bytes and a refused one leaves nothing behind', () => {
  let presetId: string;
  beforeAll(async () => {
    await createCategory('uploads');
    presetId = (await createPreset('uploads', 'Upload Target')).id;
  });

  const cases: {
    name: string;
    file: () => Buffer;
    filename: string;
    status: number;
    message: string;
  }[] = [
    {
      name: 'a text file named .jpg',
      file: () => fixtures.badFile('not-an-image.jpg'),
      filename: 'not-an-image.jpg',
      status: 415,
      message: 'Not a supported image type (JPEG, PNG or WebP)',
    },
    {
      name: 'an SVG with a script',
      file: () => fixtures.badFile('svg-with-script.svg'),
      filename: 'picture.jpg',
      status: 415,
      message: 'Not a supported image type (JPEG, PNG or WebP)',
    },
    {
      name: 'a HEIC photo',
      file: () => fixtures.badFile('selfie.heic'),
      filename: 'selfie.jpg',
      status: 415,
      message: 'Not a supported image type (JPEG, PNG or WebP)',
    },
    {
      name: 'a decompression bomb',
      file: () => fixtures.badFile('bomb.png'),
      filename: 'bomb.png',
      status: 400,
      message: 'Image dimensions are too large',
    },
    {
      name: 'a truncated JPEG',
      file: () => fixtures.badFile('truncated.jpg'),
      filename: 'truncated.jpg',
      status: 400,
      message: 'The image could not be read',
    },
    {
      name: 'a JPEG over 10 MB',
      file: overTenMegabyteJpeg,
      filename: 'over-10mb.jpg',
      status: 413,
      message: 'File is larger than 10 MB',
    },
  ];

  for (const testCase of cases) {
    it(`refuses ${testCase.name}`, async () => {
      const filesBefore = catalogFiles(app);
      const [examplesBefore, quizBefore] = await Promise.all([
        call<{ photos: unknown[] }>('GET', '/api/admin/example-photos'),
        call<{ images: unknown[] }>('GET', '/api/admin/quiz-images'),
      ]);
      const targets = [
        `/api/admin/presets/${presetId}/images`,
        '/api/admin/example-photos?goodOrBad=good&caption=Refused',
        '/api/admin/quiz-images?isAi=true',
      ];
      for (const url of targets) {
        const { status, body } = await call('POST', url, {
          body: multipart(testCase.file(), { filename: testCase.filename }),
        });
        expect(status, url).toBe(testCase.status);
        expect(body, url).toEqual({
          error: { code: expect.any(String), message: testCase.message },
        });
      }
      expect(catalogFiles(app)).toEqual(filesBefore);
      const preset = await call<{ preset: AdminPreset }>('GET', `/api/admin/presets/${presetId}`);
      expect(preset.body.preset.featuredImage).toBeNull();
      expect(preset.body.preset.additionalImages).toEqual([]);
      const [examplesAfter, quizAfter] = await Promise.all([
        call<{ photos: unknown[] }>('GET', '/api/admin/example-photos'),
        call<{ images: unknown[] }>('GET', '/api/admin/quiz-images'),
      ]);
      expect(examplesAfter.body.photos).toHaveLength(examplesBefore.body.photos.length);
      expect(quizAfter.body.images).toHaveLength(quizBefore.body.images.length);
    });
  }

  it('refuses an announced body far over the limit before reading it', async () => {
    const { status, body } = await call('POST', `/api/admin/presets/${presetId}/images`, {
      body: multipart(Buffer.concat([overTenMegabyteJpeg(), Buffer.alloc(1024 * 1024)])),
    });
    expect(status).toBe(413);
    expect(body).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'File is larger than 10 MB' },
    });
  });

  it('refuses a request without a file, or not multipart', async () => {
    const json = await call('POST', `/api/admin/presets/${presetId}/images`, { json: {} });
    expect(json.status).toBe(415);
    expect(json.body.error.message).toBe(
      'Send the image as multipart/form-data in a field named "file".',
    );
    const otherField = await call('POST', `/api/admin/presets/${presetId}/images`, {
      body: multipart(fixtures.portrait(), { field: 'picture' }),
    });
    expect(otherField.status).toBe(400);
    const { headers } = multipart(fixtures.portrait());
    const garbled = await call('POST', `/api/admin/presets/${presetId}/images`, {
      body: { headers, payload: Buffer.from('not a multipart body') },
    });
    expect(garbled.status).toBe(400);
    expect(garbled.body.error.message).toBe(
      'The upload was incomplete or malformed. Please try again.',
    );
  });
});

describe('example photos and quiz pictures', () => {
  it('are managed by an admin and listed publicly in order', async () => {
    const good = await call<{ photo: AdminExamplePhoto }>(
      'POST',
      '/api/admin/example-photos?goodOrBad=good&caption=Clear%20and%20sharp',
      { body: multipart(fixtures.portrait()) },
    );
    expect(good.status).toBe(201);
    expect(good.body.photo).toMatchObject({ goodOrBad: 'good', caption: 'Clear and sharp' });
    const bad = await call<{ photo: AdminExamplePhoto }>(
      'POST',
      '/api/admin/example-photos?goodOrBad=bad&caption=Too%20dark',
      { body: multipart(fixtures.otherPortrait()) },
    );
    expect(bad.status).toBe(201);

    const reordered = await call<{ photos: AdminExamplePhoto[] }>(
      'PUT',
      '/api/admin/example-photos/order',
      { json: { ids: [bad.body.photo.id, good.body.photo.id] } },
    );
    expect(reordered.body.photos.map((p) => p.id)).toEqual([bad.body.photo.id, good.body.photo.id]);
    const publicList = await call<{ photos: { id: string; goodOrBad: string; caption: string }[] }>(
      'GET',
      '/api/catalog/example-photos',
      { as: null },
    );
    expect(publicList.body.photos.map((p) => [p.goodOrBad, p.caption])).toEqual([
      ['bad', 'Too dark'],
      ['good', 'Clear and sharp'],
    ]);
    await expectImageServed(app, good.body.photo.image);

    await call('PATCH', `/api/admin/example-photos/${bad.body.photo.id}`, {
      json: { active: false },
    });
    const afterHide = await call<{ photos: { id: string }[] }>(
      'GET',
      '/api/catalog/example-photos',
      { as: null },
    );
    expect(afterHide.body.photos.map((p) => p.id)).toEqual([good.body.photo.id]);
    expect((await call('DELETE', `/api/admin/example-photos/${bad.body.photo.id}`)).status).toBe(
      204,
    );
    expect(catalogFiles(app).filter((f) => f.includes(bad.body.photo.id))).toEqual([]);
  });

  it('serves at most 16 quiz pictures with their answers', async () => {
    const made: AdminQuizImage[] = [];
    const small = await fixtures.small();
    for (let i = 0; i < 17; i++) {
      const { status, body } = await call<{ image: AdminQuizImage }>(
        'POST',
        `/api/admin/quiz-images?isAi=${i % 2 === 0}`,
        { body: multipart(small) },
      );
      expect(status).toBe(201);
      made.push(body.image);
    }
    const quiz = await call<{ images: Record<string, unknown>[] }>(
      'GET',
      '/api/catalog/quiz-images',
      { as: null },
    );
    expect(quiz.body.images).toHaveLength(16);
    expect(quiz.body.images[0]).toEqual({
      id: made[0]!.id,
      isAi: true,
      src: expect.stringMatching(/^\/api\/catalog\/images\/quiz-images\//),
      width: 400,
      height: 533,
      srcset: expect.stringContaining(' 320w, '),
      alt: 'Quiz portrait 1',
    });
    // The alt text never gives the answer away.
    for (const image of quiz.body.images) expect(String(image.alt)).not.toMatch(/\b(AI|real)\b/i);
    const flipped = await call<{ image: AdminQuizImage }>(
      'PATCH',
      `/api/admin/quiz-images/${made[0]!.id}`,
      { json: { isAi: false } },
    );
    expect(flipped.body.image.isAi).toBe(false);
  });
});

describe('catalog pictures are public, immutable files', () => {
  it('answers 304 to a revalidation and 404 to anything that is not a catalog picture', async () => {
    await createCategory('caching');
    const preset = await uploadPresetImage((await createPreset('caching', 'Cached')).id);
    const src = preset.featuredImage!.src;
    const first = await app.app!.inject({ url: src });
    expect(first.headers.etag).toBeTruthy();
    const again = await app.app!.inject({
      url: src,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    for (const url of [
      '/api/catalog/images/presets/nope/missing-320.webp',
      '/api/catalog/images/..%2F..%2Fsecrets%2Fauth-secret',
      '/api/catalog/images/presets/../../secrets/auth-secret',
      `${src.replace('.webp', '.jpg')}`,
    ]) {
      const response = await app.app!.inject({ url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('lets caches revalidate catalog JSON with an ETag', async () => {
    const first = await app.app!.inject({ url: '/api/catalog/landing' });
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await app.app!.inject({
      url: '/api/catalog/landing',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('the admin area does not exist for anyone but admins', () => {
  const routes: [Method, string][] = [
    ['GET', '/api/admin/categories'],
    ['POST', '/api/admin/categories'],
    ['PUT', '/api/admin/categories/order'],
    ['PATCH', '/api/admin/categories/professional'],
    ['DELETE', '/api/admin/categories/professional'],
    ['GET', '/api/admin/presets'],
    ['POST', '/api/admin/presets'],
    ['PUT', '/api/admin/presets/order'],
    ['GET', '/api/admin/presets/some-id'],
    ['PATCH', '/api/admin/presets/some-id'],
    ['DELETE', '/api/admin/presets/some-id'],
    ['POST', '/api/admin/presets/some-id/images'],
    ['POST', '/api/admin/presets/some-id/images/some-image/feature'],
    ['DELETE', '/api/admin/presets/some-id/images/some-image'],
    ['GET', '/api/admin/example-photos'],
    ['POST', '/api/admin/example-photos'],
    ['PUT', '/api/admin/example-photos/order'],
    ['PATCH', '/api/admin/example-photos/some-id'],
    ['DELETE', '/api/admin/example-photos/some-id'],
    ['GET', '/api/admin/quiz-images'],
    ['POST', '/api/admin/quiz-images'],
    ['PUT', '/api/admin/quiz-images/order'],
    ['PATCH', '/api/admin/quiz-images/some-id'],
    ['DELETE', '/api/admin/quiz-images/some-id'],
    // Unknown addresses and wrong methods look the same.
    ['GET', '/api/admin/nothing-here'],
    ['DELETE', '/api/admin/categories'],
  ];
  const notFound = { error: { code: 'NOT_FOUND', message: 'There is nothing at this address.' } };

  it('answers 404 to a signed-in member and to a signed-out visitor on every route', async () => {
    const upload = multipart(fixtures.portrait());
    for (const who of [member, null]) {
      for (const [method, url] of routes) {
        const isUpload =
          url.endsWith('/images') || url.endsWith('-photos') || url.endsWith('-images');
        const { status, body } = await call(method, url, {
          as: who,
          ...(method === 'POST' && isUpload
            ? { body: upload }
            : method === 'GET' || method === 'DELETE'
              ? {}
              : { json: { manualId: 'x', displayName: 'x', ids: ['x'] } }),
        });
        expect(status, `${who ? 'member' : 'visitor'} ${method} ${url}`).toBe(404);
        expect(body).toEqual(notFound);
      }
    }
    expect(catalogFiles(app).some((f) => f.includes('some-id'))).toBe(false);
  });

  it('stops answering a user whose admin role is revoked', async () => {
    const former = await signUpAdmin(app);
    expect((await call('GET', '/api/admin/categories', { as: former })).status).toBe(200);
    const { setRole } = await import('../admin/roles.ts');
    await setRole(app.deps.database.db, former.email, 'user');
    expect((await call('GET', '/api/admin/categories', { as: former })).status).toBe(404);
  });
});
