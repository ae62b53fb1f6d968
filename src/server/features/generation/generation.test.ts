import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq, isNull, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { BulkJob, Generation, GenerationsPage } from '../../../common/api/generation.ts';
import type { UserModel } from '../../../common/api/studio.ts';
import { bulkMessages, generationMessages } from '../../../common/messages/generation.ts';
import { lists } from '../../../common/product/limits.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import {
  categories,
  creditLedger,
  generations,
  presets,
  subscriptions,
  userModels,
} from '../../db/schema/index.ts';
import { isColourless } from '../../images/colourfulness.ts';
import { analyzePhoto, faceSimilarity } from '../../images/analysis.ts';
import { adjust } from '../billing/ledger.ts';
import { storeImage } from '../catalog/images.ts';
import {
  apiCaller,
  fixturePhoto,
  photoFixtures,
  waitFor,
} from '../../../../tests/helpers/studio.ts';
import { openEventStream } from '../../../../tests/helpers/event-stream.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/**
 * Generation through the real HTTP API with the local engine: a user trained on real photos
 * makes images of real presets; credits move by exactly the images accepted, failures are
 * refunded once, and nobody reaches another user's images.
 */

let app: TestApp;
let api: ReturnType<typeof apiCaller>;
let pro: SignedInUser;
let proModel: UserModel;
/** Presets of the offline studio's scenes (read from their prompts). */
let portraitPresets: string[];

async function trainedUser(priceId: 'price_pro' | 'price_basic') {
  const user = await signUp(app);
  await api.buyPlan(user, priceId);
  for (let n = 1; n <= photoRules.min; n += 1) await api.upload(user, photoFixtures.personA(n));
  await api.settledDraft(user);
  const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
    name: 'Me',
    gender: 'woman',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const model = await api.modelWhen(user, created.body.model.id, (m) => m.status === 'complete');
  return { user, model };
}

async function addPresets() {
  const db = app.deps.database.db;
  await db
    .insert(categories)
    .values({ manualId: 'portraits', displayName: 'Portraits', orderIndex: 0 });
  const ids: string[] = [];
  for (const [index, name] of ['hopper', 'chu', 'clyburn'].entries()) {
    const image = await storeImage(app.deps.storage, ['presets', name], {
      bytes: readFileSync(fixturePhoto('real-portraits', `${name}.jpg`)),
    });
    const id = `preset-${name}`;
    await db.insert(presets).values({
      id,
      manualId: `portrait-${name}`,
      categoryId: 'portraits',
      displayName: `Portrait ${index + 1}`,
      description: 'An official portrait, studio light',
      prompt: 'official portrait photo of {trigger}, studio light',
      featuredImage: image,
      orderIndex: index,
    });
    ids.push(id);
  }
  return ids;
}

/**
 * Runs `work` while the model's likeness profile cannot be read, so every picture of it fails
 * at once with the engine's reason (and is refunded), then puts the profile back.
 */
async function withUnreadableProfile<T>(model: UserModel, work: () => Promise<T>): Promise<T> {
  const [row] = await app.deps.database.db
    .select({ weights: userModels.weights })
    .from(userModels)
    .where(eq(userModels.id, model.id));
  const key = row!.weights!;
  const profile = await app.deps.storage.read(key);
  await app.deps.storage.put(key, Buffer.from('{}'), 'application/json');
  try {
    return await work();
  } finally {
    await app.deps.storage.put(key, profile, 'application/json');
  }
}

async function credits(user: SignedInUser) {
  return (await api.subscription(user)).credits;
}

async function generationWhen(user: SignedInUser, id: string, done: (g: Generation) => boolean) {
  return (
    await waitFor(
      () => api.call<{ generation: Generation }>(user, 'GET', `/api/generations/${id}`),
      (response) => done(response.body.generation),
      60_000,
    )
  ).body.generation;
}

beforeAll(async () => {
  // Listening: the event stream is read over real HTTP.
  app = await createTestApp({ listen: true });
  api = apiCaller(app);
  portraitPresets = await addPresets();
  ({ user: pro, model: proModel } = await trainedUser('price_pro'));
});
afterAll(async () => {
  await app?.stop();
});

describe('one image from a preset', () => {
  it('costs one credit and completes with a stored image, a likeness score and the preview label', async () => {
    const before = await credits(pro);
    const created = await api.call<{ generation: Generation }>(pro, 'POST', '/api/generations', {
      userModelId: proModel.id,
      presetId: portraitPresets[0],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.generation).toMatchObject({
      status: 'processing',
      modelName: 'Portrait 1',
    });
    expect(await credits(pro)).toBe(before - 1);

    const done = await generationWhen(
      pro,
      created.body.generation.id,
      (g) => g.status !== 'processing',
    );
    expect(done).toMatchObject({ status: 'complete', isPreview: true, hasNsfwContent: false });
    expect(done.likeness).toBeGreaterThan(50);
    const image = await app.app!.inject({ method: 'GET', url: done.imageUrl! });
    expect(image.statusCode).toBe(200);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');
    const download = await app.app!.inject({ method: 'GET', url: done.downloadUrl! });
    expect(download.headers['content-disposition']).toMatch(/attachment/);
    expect(await credits(pro)).toBe(before - 1);
  });

  it('fails with its reason and refunds the credit exactly once', async () => {
    const before = await credits(pro);
    const failed = await withUnreadableProfile(proModel, async () => {
      const created = await api.call<{ generation: Generation }>(pro, 'POST', '/api/generations', {
        userModelId: proModel.id,
        presetId: portraitPresets[0],
      });
      expect(created.status).toBe(201);
      return generationWhen(pro, created.body.generation.id, (g) => g.status === 'failed');
    });
    expect(failed.failureReason).toBe(generationMessages.likenessMissing);
    expect(failed.imageUrl).toBeNull();
    expect(await credits(pro)).toBe(before);
    const rows = await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `generation:${failed.id}`));
    expect(rows.map((row) => [row.reason, row.delta])).toEqual([
      ['generation', -1],
      ['refund', 1],
    ]);
  });

  it("checks the missing information first; another user's model does not exist here", async () => {
    const missing = await api.call(pro, 'POST', '/api/generations', {
      presetId: portraitPresets[0],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toBe(generationMessages.missingInformation);

    const noPlan = await signUp(app);
    const gone = await api.call(noPlan, 'POST', '/api/generations', {
      userModelId: proModel.id,
      presetId: portraitPresets[0],
    });
    expect(gone.status).toBe(404); // someone else's model does not exist for this user
  });
});

describe('custom prompts', () => {
  it('makes an image for a Pro user from the scene its prompt describes', async () => {
    const created = await api.call<{ generation: Generation }>(
      pro,
      'POST',
      '/api/generations/custom',
      {
        userModelId: proModel.id,
        prompt: '  An official portrait in studio light  ',
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.generation).toMatchObject({
      promptText: 'An official portrait in studio light',
      modelName: generationMessages.customModelName('Me'),
    });
    const done = await generationWhen(
      pro,
      created.body.generation.id,
      (g) => g.status !== 'processing',
    );
    expect(done.status).toBe('complete');
  });

  it("scores a black-and-white picture in grey, against the model's grey profile", async () => {
    const created = await api.call<{ generation: Generation }>(
      pro,
      'POST',
      '/api/generations/custom',
      { userModelId: proModel.id, prompt: 'A black and white portrait in studio light' },
    );
    const done = await generationWhen(
      pro,
      created.body.generation.id,
      (g) => g.status !== 'processing',
    );
    expect(done.status).toBe('complete');
    const image = await app.app!.inject({ method: 'GET', url: done.imageUrl! });
    const [face] = (await analyzePhoto(image.rawPayload, { grey: true })).faces;
    expect(isColourless(face!.grey!.chromaSpread)).toBe(true);
    const [model] = await app.deps.database.db
      .select()
      .from(userModels)
      .where(eq(userModels.id, proModel.id));
    const [row] = await app.deps.database.db
      .select({ likeness: generations.likeness })
      .from(generations)
      .where(eq(generations.id, done.id));
    const inGrey = faceSimilarity(face!.grey!.embedding, model!.faceEmbeddingGrey!);
    expect(row!.likeness).toBeCloseTo(inGrey, 5);
  });

  it('refuses a blank prompt and a missing model with their messages, spending nothing', async () => {
    const before = await credits(pro);
    const blank = await api.call(pro, 'POST', '/api/generations/custom', {
      userModelId: proModel.id,
      prompt: '   ',
    });
    expect(blank.body.error?.message).toBe(generationMessages.enterPrompt);
    const noModel = await api.call(pro, 'POST', '/api/generations/custom', { prompt: 'hello' });
    expect(noModel.body.error?.message).toBe(generationMessages.selectModel);
    expect(await credits(pro)).toBe(before);
  });

  it('is a Pro feature: Basic users get the tier message', async () => {
    const basic = await signUp(app);
    await api.buyPlan(basic, 'price_basic');
    const refused = await api.call(basic, 'POST', '/api/generations/custom', {
      userModelId: 'any',
      prompt: 'hello',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toBe(generationMessages.customPromptsProOnly);
    const bulk = await api.call(basic, 'POST', '/api/bulk-jobs', {
      kind: 'presets',
      userModelId: 'any',
      presetIds: portraitPresets,
    });
    expect(bulk.status).toBe(403);
    expect(bulk.body.error?.message).toBe(bulkMessages.proOnly);
  });
});

describe('bulk', () => {
  it('accepts presets × one model in one request, spends one credit each and counts progress', async () => {
    const before = await credits(pro);
    const created = await api.call<{ bulkJob: BulkJob; queued: number; failures: number }>(
      pro,
      'POST',
      '/api/bulk-jobs',
      {
        kind: 'presets',
        userModelId: proModel.id,
        presetIds: [...portraitPresets, 'no-such-preset'],
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ queued: 3, failures: 1 });
    expect(await credits(pro)).toBe(before - 3);
    const id = created.body.bulkJob.id;
    const finished = await waitFor(
      () =>
        api.call<{ bulkJob: BulkJob; generations: Generation[] }>(
          pro,
          'GET',
          `/api/bulk-jobs/${id}`,
        ),
      (response) => response.body.bulkJob.status !== 'processing',
      90_000,
    );
    expect(finished.body.bulkJob).toMatchObject({
      status: 'completed',
      completedImages: 3,
      failedImages: 0,
      totalImages: 3,
    });
    expect(finished.body.generations.every((g) => g.status === 'complete')).toBe(true);
    // Bulk images are not in the single list; the job is in the jobs list.
    const single = await api.call<GenerationsPage>(pro, 'GET', '/api/generations');
    expect(single.body.generations.some((g) => g.bulkJobId === id)).toBe(false);
    const jobs = await api.call<{ bulkJobs: BulkJob[] }>(pro, 'GET', '/api/bulk-jobs');
    expect(jobs.body.bulkJobs[0]!.id).toBe(id);

    const zip = await app.app!.inject({
      method: 'GET',
      url: `/api/bulk-jobs/${id}/zip`,
      headers: pro.headers,
    });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // A selection of them downloads as one zip too: one file per selected image.
    const selected = finished.body.generations.slice(0, 2).map((g) => g.id);
    const selection = await app.app!.inject({
      method: 'GET',
      url: `/api/generations/zip?ids=${selected.join(',')}`,
      headers: pro.headers,
    });
    expect(selection.statusCode).toBe(200);
    expect(selection.headers['content-disposition']).toContain('likeness-selection.zip');
    const files = selection.rawPayload.toString('latin1').split('PK\x03\x04').length - 1;
    expect(files).toBe(2);
    const malformed = await app.app!.inject({
      method: 'GET',
      url: '/api/generations/zip?ids=not-an-id',
      headers: pro.headers,
    });
    expect(malformed.statusCode).toBe(400);

    // Deleting one of its images leaves the finished job counting the two left.
    const removed = finished.body.generations[1]!.id;
    expect((await api.call(pro, 'DELETE', `/api/generations/${removed}`)).status).toBe(204);
    const after = await api.call<{ bulkJob: BulkJob; generations: Generation[] }>(
      pro,
      'GET',
      `/api/bulk-jobs/${id}`,
    );
    expect(after.body.bulkJob).toMatchObject({
      status: 'completed',
      completedImages: 2,
      failedImages: 0,
      totalImages: 2,
    });
    expect(after.body.generations.map((g) => g.id)).not.toContain(removed);
    expect(after.body.generations).toHaveLength(2);
  });

  it('accepts a bulk of 100 presets in one request, all paid at once, in the order selected', async () => {
    const db = app.deps.database.db;
    const ids = Array.from({ length: 100 }, (_, i) => `bulk-preset-${i}`);
    onTestFinished(() => db.delete(presets).where(like(presets.id, 'bulk-preset-%')).then());
    await db.insert(presets).values(
      ids.map((id, i) => ({
        id,
        manualId: id,
        categoryId: 'portraits',
        displayName: `Bulk ${i}`,
        prompt: '{trigger}',
        orderIndex: 100 + i,
      })),
    );
    const before = await credits(pro);
    // The profile is unreadable meanwhile: each picture fails at once and is refunded once.
    await withUnreadableProfile(proModel, async () => {
      const created = await api.call<{ bulkJob: BulkJob; queued: number }>(
        pro,
        'POST',
        '/api/bulk-jobs',
        {
          kind: 'presets',
          userModelId: proModel.id,
          // Not the catalog's order: the job keeps the order selected.
          presetIds: ids.toReversed(),
        },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.queued).toBe(100);
      // Workers start at once (and these fail fast), so count the spends rather than the balance.
      const job = await api.call<{ generations: Generation[] }>(
        pro,
        'GET',
        `/api/bulk-jobs/${created.body.bulkJob.id}`,
      );
      expect(job.body.generations.map((g) => g.presetId)).toEqual(ids.toReversed());
      const spends = await db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, pro.id), eq(creditLedger.reason, 'bulk_generation')));
      const references = new Set(spends.map((row) => row.reference));
      expect(job.body.generations.every((g) => references.has(`generation:${g.id}`))).toBe(true);
      await waitFor(
        () =>
          api.call<{ bulkJob: BulkJob }>(pro, 'GET', `/api/bulk-jobs/${created.body.bulkJob.id}`),
        (response) => response.body.bulkJob.status !== 'processing',
        120_000,
      );
    });
    expect(await credits(pro)).toBe(before);
    // A hundred pictures fail and are refunded one job each: on PGlite beside the browser tests
    // that took over 30 s.
  }, 150_000);

  it('refuses a bulk larger than the balance with the credits message, spending nothing', async () => {
    const balance = await credits(pro);
    await app.deps.billing.ledger.transaction((tx) =>
      adjust(tx, pro.id, -(balance - 2), 'test: leave 2 credits', `test:${pro.id}:drain`),
    );
    const refused = await api.call(pro, 'POST', '/api/bulk-jobs', {
      kind: 'presets',
      userModelId: proModel.id,
      presetIds: portraitPresets,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error?.message).toBe(generationMessages.needMoreCredits);
    expect(await credits(pro)).toBe(2);
    await app.deps.billing.ledger.transaction((tx) =>
      adjust(tx, pro.id, balance - 2, 'test: restore', `test:${pro.id}:restore`),
    );
  });
});

describe("another user's generations and bulk jobs", () => {
  it('answer 404, and their files cannot be fetched without the signature', async () => {
    const stranger = await signUp(app);
    const list = await api.call<GenerationsPage>(pro, 'GET', '/api/generations');
    const mine = list.body.generations.find((g) => g.status === 'complete')!;
    for (const [method, url] of [
      ['GET', `/api/generations/${mine.id}`],
      ['DELETE', `/api/generations/${mine.id}`],
      ['POST', `/api/generations/${mine.id}/viewed`],
    ] as const) {
      expect((await api.call(stranger, method, url)).status, url).toBe(404);
    }
    expect(
      (
        await api.call(stranger, 'PUT', `/api/generations/${mine.id}/favourite`, {
          favourite: true,
        })
      ).status,
    ).toBe(404);
    const jobs = await api.call<{ bulkJobs: BulkJob[] }>(pro, 'GET', '/api/bulk-jobs');
    const job = jobs.body.bulkJobs[0]!;
    expect((await api.call(stranger, 'GET', `/api/bulk-jobs/${job.id}`)).status).toBe(404);
    expect((await api.call(stranger, 'GET', `/api/bulk-jobs/${job.id}/zip`)).status).toBe(404);
    expect((await api.call(stranger, 'GET', `/api/generations/zip?ids=${mine.id}`)).status).toBe(
      404,
    );
    expect(
      (await api.call<GenerationsPage>(stranger, 'GET', '/api/generations')).body.generations,
    ).toEqual([]);
    const unsigned = mine.imageUrl!.split('?')[0]!;
    expect((await app.app!.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);
  });

  it('favourites, viewed marks and delete work for the owner, and reach their other tabs', async () => {
    const list = await api.call<GenerationsPage>(pro, 'GET', '/api/generations');
    const mine = list.body.generations.find((g) => g.status === 'complete')!;
    // Another open tab of the same user.
    const tab = openEventStream(app.url!, pro.headers.cookie);
    await tab.ready;
    const newsOfMine = () =>
      tab.events.filter(
        (event) => event.type === 'generation.updated' && event.data.generationId === mine.id,
      ).length;
    const fav = await api.call<{ generation: Generation }>(
      pro,
      'PUT',
      `/api/generations/${mine.id}/favourite`,
      {
        favourite: true,
      },
    );
    expect(fav.body.generation.favourite).toBe(true);
    await waitFor(
      async () => newsOfMine(),
      (count) => count === 1,
      10_000,
    );
    const favourites = await api.call<GenerationsPage>(
      pro,
      'GET',
      '/api/generations?filter=favourites',
    );
    expect(favourites.body.generations.map((g) => g.id)).toEqual([mine.id]);
    const viewed = await api.call<{ generation: Generation }>(
      pro,
      'POST',
      `/api/generations/${mine.id}/viewed`,
    );
    expect(viewed.body.generation.viewed).toBe(true);
    await waitFor(
      async () => newsOfMine(),
      (count) => count === 2,
      10_000,
    );
    tab.close();
    expect((await api.call(pro, 'DELETE', `/api/generations/${mine.id}`)).status).toBe(204);
    expect((await api.call(pro, 'GET', `/api/generations/${mine.id}`)).status).toBe(404);
    expect((await app.app!.inject({ method: 'GET', url: mine.imageUrl! })).statusCode).toBe(404);
  });
});

describe('the gates, in the specification order', () => {
  let adjustments = 0;

  /** Runs `check` while the Pro user's subscription has lapsed (past due: still Pro, not active). */
  async function whileLapsed(check: () => Promise<void>) {
    const db = app.deps.database.db;
    const mine = eq(subscriptions.userId, pro.id);
    await db.update(subscriptions).set({ active: false, status: 'past_due' }).where(mine);
    try {
      await check();
    } finally {
      await db.update(subscriptions).set({ active: true, status: 'active' }).where(mine);
    }
  }

  /** Runs `check` with the Pro user's balance at zero, then gives the credits back. */
  async function withoutCredits(check: () => Promise<void>) {
    const balance = await credits(pro);
    const move = (delta: number) =>
      app.deps.billing.ledger.transaction((tx) =>
        adjust(tx, pro.id, delta, 'test: balance', `test:${pro.id}:gates:${(adjustments += 1)}`),
      );
    await move(-balance);
    try {
      await check();
    } finally {
      await move(balance);
    }
  }

  async function refused(
    user: SignedInUser,
    url: string,
    body: Record<string, unknown>,
    expected: { status: number; message: string },
  ) {
    const before = await credits(user);
    const answer = await api.call(user, 'POST', url, body);
    expect([answer.status, answer.body.error?.message], url).toEqual([
      expected.status,
      expected.message,
    ]);
    expect(await credits(user)).toBe(before);
  }

  /** A generation of a preset and a custom one, asked for Pro's model: where, and what. */
  const singleAndCustom = () =>
    [
      ['/api/generations', { userModelId: proModel.id, presetId: portraitPresets[0] }],
      ['/api/generations/custom', { userModelId: proModel.id, prompt: 'An official portrait' }],
    ] as const;

  it("tells a subscriber whose plan lapsed 'You need an active subscription' on single, custom and bulk", async () => {
    const needSubscription = { status: 402, message: generationMessages.needSubscription };
    await whileLapsed(async () => {
      for (const [url, body] of singleAndCustom()) await refused(pro, url, body, needSubscription);
      await refused(
        pro,
        '/api/bulk-jobs',
        { kind: 'presets', userModelId: proModel.id, presetIds: portraitPresets },
        needSubscription,
      );
      await refused(
        pro,
        '/api/bulk-jobs',
        { kind: 'custom', userModelIds: [proModel.id], prompt: 'An official portrait' },
        needSubscription,
      );
    });
  });

  it('refuses a single and a custom generation without credits', async () => {
    const needCredits = { status: 402, message: generationMessages.needMoreCredits };
    await withoutCredits(async () => {
      for (const [url, body] of singleAndCustom()) await refused(pro, url, body, needCredits);
    });
  });

  it('checks the custom prompt tier before the prompt', async () => {
    const basic = await signUp(app);
    await api.buyPlan(basic, 'price_basic');
    const tier = { status: 403, message: generationMessages.customPromptsProOnly };
    await refused(basic, '/api/generations/custom', { prompt: '   ' }, tier);
    await refused(
      basic,
      '/api/bulk-jobs',
      { kind: 'custom', userModelIds: [], prompt: '  ' },
      { status: 403, message: bulkMessages.proOnly },
    );
  });

  it('asks a bulk for a model, then a prompt, then the model presets are made with', async () => {
    await refused(
      pro,
      '/api/bulk-jobs',
      { kind: 'custom', userModelIds: [], prompt: '  ' },
      { status: 400, message: bulkMessages.selectAtLeastOne },
    );
    await refused(
      pro,
      '/api/bulk-jobs',
      { kind: 'custom', userModelIds: [proModel.id], prompt: '  ' },
      { status: 400, message: bulkMessages.enterPrompt },
    );
    await refused(
      pro,
      '/api/bulk-jobs',
      { kind: 'presets', presetIds: portraitPresets },
      { status: 400, message: bulkMessages.chooseUserModel },
    );
  });
});

describe('a custom prompt across several models', () => {
  /** Another of the Pro user's models, as the database holds it (trained, or still training). */
  async function anotherModel(name: string, status: 'complete' | 'training') {
    const db = app.deps.database.db;
    const [trained] = await db.select().from(userModels).where(eq(userModels.id, proModel.id));
    const id = randomUUID();
    const [copy] = await db
      .insert(userModels)
      .values({
        ...trained!,
        id,
        engineReference: `local-${id}`,
        name,
        status,
        ...(status === 'complete' ? {} : { weights: null, completedAt: null }),
      })
      .returning();
    return copy!;
  }

  async function customBulk(userModelIds: string[]) {
    return api.call<{ bulkJob: BulkJob; queued: number; failures: number }>(
      pro,
      'POST',
      '/api/bulk-jobs',
      { kind: 'custom', userModelIds, prompt: 'An official portrait in studio light' },
    );
  }

  it("makes one image per model, as one 'Custom Prompt Generation' job", async () => {
    const second = await anotherModel('Me too', 'complete');
    const before = await credits(pro);
    const created = await customBulk([proModel.id, second.id]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ queued: 2, failures: 0 });
    expect(created.body.bulkJob.label).toBe('Custom Prompt Generation');
    expect(await credits(pro)).toBe(before - 2);
    const finished = await waitFor(
      () =>
        api.call<{ bulkJob: BulkJob; generations: Generation[] }>(
          pro,
          'GET',
          `/api/bulk-jobs/${created.body.bulkJob.id}`,
        ),
      (response) => response.body.bulkJob.status !== 'processing',
      90_000,
    );
    expect(finished.body.bulkJob).toMatchObject({ status: 'completed', completedImages: 2 });
    expect(finished.body.generations.map((g) => [g.userModelId, g.promptText, g.status])).toEqual([
      [proModel.id, 'An official portrait in studio light', 'complete'],
      [second.id, 'An official portrait in studio light', 'complete'],
    ]);
  });

  it('counts a model still training as a failure, unpaid', async () => {
    const training = await anotherModel('Still training', 'training');
    const before = await credits(pro);
    const created = await customBulk([proModel.id, training.id]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ queued: 1, failures: 1 });
    // What the page then says (generation-rules.ts bulkQueuedMessage).
    expect(bulkMessages.queuedWithFailures(created.body.queued, created.body.failures)).toBe(
      'Queued 1 images for generation with 1 failures.',
    );
    expect(created.body.bulkJob.totalImages).toBe(1);
    expect(await credits(pro)).toBe(before - 1);
  });
});

describe('the generated list', () => {
  it('comes 50 at a time, newest first, the next page read from nextCursor', async () => {
    const db = app.deps.database.db;
    // Made in one go, so they share a creation time: the cursor must still page through them.
    const at = new Date();
    await db.insert(generations).values(
      Array.from({ length: lists.generationsPage + 10 }, (_, n) => ({
        id: randomUUID(),
        userId: pro.id,
        userModelId: proModel.id,
        userModelName: proModel.name,
        presetId: portraitPresets[0]!,
        modelName: `Paged ${n}`,
        status: 'failed',
        failureReason: 'test',
        engine: 'local',
        createdAt: at,
      })),
    );
    const singles = await db
      .select({ id: generations.id })
      .from(generations)
      .where(and(eq(generations.userId, pro.id), isNull(generations.bulkJobId)));

    const first = await api.call<GenerationsPage>(pro, 'GET', '/api/generations');
    expect(first.body.generations).toHaveLength(50);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const pages = [first.body];
    for (let next = first.body.nextCursor; next;) {
      const page = await api.call<GenerationsPage>(
        pro,
        'GET',
        `/api/generations?cursor=${encodeURIComponent(next)}`,
      );
      expect(page.status).toBe(200);
      pages.push(page.body);
      next = page.body.nextCursor;
    }
    expect(pages).toHaveLength(Math.ceil(singles.length / 50));
    const listed = pages.flatMap((page) => page.generations);
    // Every single image once, newest first.
    expect(listed.map((g) => g.id).sort()).toEqual(singles.map((row) => row.id).sort());
    const times = listed.map((g) => Date.parse(g.createdAt));
    expect(times).toEqual(times.toSorted((a, b) => b - a));
  });
});
