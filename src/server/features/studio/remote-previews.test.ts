import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserModel } from '../../../common/api/studio.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { creditLedger, userModels } from '../../db/schema/index.ts';
import { startFakeReplicate, type FakeReplicate } from '../../../../tests/fakes/replicate-api.ts';
import {
  addCategoriesWithPresets,
  apiCaller,
  photoFixtures,
  waitFor,
} from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';

/**
 * Training previews (decision 039, 041) from a GPU engine, through the whole app over real HTTP:
 * with the Replicate engine, starting a training sends the user's best photo (a signed absolute
 * URL of this site) to the pinned PuLID-FLUX four times, one per preset, and the four pictures it
 * answers are shown with the model while the training still runs, at no credit cost.
 */

let fake: FakeReplicate;
let app: TestApp;
let api: ReturnType<typeof apiCaller>;

/** Four categories in catalog order, two presets each: previews use each one's first. */
async function addCatalog() {
  const names = ['studio', 'outdoor', 'night', 'classic'];
  await addCategoriesWithPresets(app, names, {
    prompt: (name, n) => `portrait photo of {trigger}, ${name} look ${n}`,
  });
  return names.map((name) => `${name}-1`);
}

type PredictionBody = { version: string; input: Record<string, unknown> };

function previewPredictions(): PredictionBody[] {
  return fake.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/predictions')
    .map((r) => r.body as PredictionBody)
    .filter((body) => body.version.startsWith('bytedance/flux-pulid:'));
}

beforeAll(async () => {
  fake = await startFakeReplicate();
  // Polling is off (an hour): the training ends only when the test has the fake say so.
  app = await createTestApp({
    listen: true,
    env: { ...fake.env, TRAINING_POLL_SECONDS: '3600' },
  });
  api = apiCaller(app);
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('training previews with the Replicate engine', () => {
  it('makes four previews with PuLID-FLUX from the best photo before the training ends, at no credit cost', async () => {
    const expectedPresets = await addCatalog();
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    for (let n = 1; n <= photoRules.min; n += 1) await api.upload(user, photoFixtures.personA(n));
    await api.settledDraft(user);
    const creditsBefore = (await api.subscription(user)).credits;

    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Me',
      gender: 'woman',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const modelId = created.body.model.id;
    const ledger = () =>
      app.deps.database.db
        .select({ reason: creditLedger.reason, delta: creditLedger.delta })
        .from(creditLedger)
        .where(eq(creditLedger.userId, user.id));
    const ledgerAfterStart = await ledger();

    const ready = await api.modelWhen(
      user,
      modelId,
      (m) => m.previews.length === 4 && m.previews.every((p) => p.status === 'complete'),
    );
    // The training has not ended: it is being started or runs at the provider, not told to finish.
    expect(['pending', 'training']).toContain(ready.status);
    expect(ready.previews.map((p) => p.presetId)).toEqual(expectedPresets);

    // Four predictions of the pinned model, each with the best photo as a signed absolute URL of
    // this site and its preset's prompt with the person in words (no trigger word).
    const sent = previewPredictions();
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((body) => body.version))).toEqual(
      new Set([`bytedance/flux-pulid:${fake.previewer.version}`]),
    );
    expect(sent.map((body) => body.input.prompt)).toEqual(
      ['studio', 'outdoor', 'night', 'classic'].map(
        (name) => `portrait photo of the woman, ${name} look 1`,
      ),
    );
    const faces = new Set(sent.map((body) => body.input.main_face_image as string));
    expect(faces.size).toBe(1);
    const [face] = [...faces];
    expect(face).toMatch(new RegExp(`^${app.config.publicUrl}/api/files/users/${user.id}/`));

    // Each preview is the provider's picture: 768x960, made from that photo (the fake crops it).
    const photo = await fetch(face!);
    expect(photo.status).toBe(200);
    const expected = await sharp(Buffer.from(await photo.arrayBuffer()))
      .rotate()
      .resize(768, 960, { fit: 'cover' })
      .stats();
    for (const preview of ready.previews) {
      expect(preview).toMatchObject({ width: 768, height: 960 });
      const image = await app.app!.inject({ url: preview.imageUrl! });
      expect(image.statusCode).toBe(200);
      const stats = await sharp(image.rawPayload).stats();
      for (const channel of [0, 1, 2])
        expect(
          Math.abs(stats.channels[channel]!.mean - expected.channels[channel]!.mean),
        ).toBeLessThan(4);
    }

    // Free for the user: no ledger row or credit moved for them.
    expect(await ledger()).toEqual(ledgerAfterStart);
    expect((await api.subscription(user)).credits).toBe(creditsBefore);

    // The training then ends (by its signed webhook); the previews stay with the model.
    const trainingId = await waitFor(async () => {
      const [row] = await app.deps.database.db
        .select({ reference: userModels.engineReference })
        .from(userModels)
        .where(eq(userModels.id, modelId));
      return row?.reference ?? null;
    }, Boolean);
    await fake.completeTraining(trainingId!);
    const trained = await api.modelWhen(user, modelId, (m) => m.status === 'complete');
    expect(trained.previews.map((p) => [p.id, p.status])).toEqual(
      ready.previews.map((p) => [p.id, 'complete']),
    );
    expect(previewPredictions()).toHaveLength(4);
    expect(await ledger()).toEqual(ledgerAfterStart);
  }, 120_000);
});
