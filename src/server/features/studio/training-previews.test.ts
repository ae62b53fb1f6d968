import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserModel } from '../../../common/api/studio.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { creditLedger } from '../../db/schema/index.ts';
import { openEventStream } from '../../../../tests/helpers/event-stream.ts';
import {
  addCategoriesWithPresets,
  apiCaller,
  photoFixtures,
  waitFor,
} from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';
import type { TrainingRequest } from '../../adapters/engine/training-engine.ts';

/**
 * Training previews (decision 039) through the real HTTP API with the local engine: starting a
 * training makes four previews of four categories' first presets from the user's photos, shown
 * with the model before its training ends, free of charge; with TRAINING_PREVIEWS=false none.
 */

/** Five categories in catalog order (orderIndex), two presets each: previews use the first four. */
async function addCatalog(app: TestApp) {
  const names = ['studio', 'outdoor', 'night', 'classic', 'extra'];
  // Inserted last first: catalog order is the categories' orderIndex, not insertion.
  await addCategoriesWithPresets(app, names, {
    prompt: (name) =>
      `portrait photo of {trigger}, ${name === 'night' ? 'neon lights at night' : 'soft light'}`,
    insertLastFirst: true,
  });
  return ['studio-1', 'outdoor-1', 'night-1', 'classic-1'];
}

async function userWithPhotos(app: TestApp, api: ReturnType<typeof apiCaller>) {
  const user = await signUp(app);
  await api.buyPlan(user, 'price_pro');
  for (let n = 1; n <= photoRules.min; n += 1) {
    const { status } = await api.upload(user, photoFixtures.personA(n));
    expect(status).toBe(201);
  }
  await api.settledDraft(user);
  return user;
}

async function ledgerOf(app: TestApp, user: SignedInUser) {
  return app.deps.database.db
    .select({ delta: creditLedger.delta, reason: creditLedger.reason })
    .from(creditLedger)
    .where(eq(creditLedger.userId, user.id));
}

function filesUnder(app: TestApp, ...segments: string[]): string[] {
  const root = path.join(app.config.storage.localDir, ...segments);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe('training previews with the local engine', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;
  let expectedPresets: string[];

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    api = apiCaller(app);
    expectedPresets = await addCatalog(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('makes four previews of four categories while the model trains, at no credit cost, and deleting the model deletes them', async () => {
    const user = await userWithPhotos(app, api);
    // The engine's training is held until the previews are checked, so they demonstrably come
    // before the training ends (the local engine would otherwise train in seconds).
    const engine = app.deps.studio.engine;
    const realStart = engine.start.bind(engine);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    engine.start = async (request: TrainingRequest) => {
      await held;
      return realStart(request);
    };
    const stream = openEventStream(app.url!, user.headers.cookie);
    try {
      await stream.ready;
      const creditsBefore = (await api.subscription(user)).credits;
      const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
        name: 'Me',
        gender: 'woman',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const model = created.body.model;
      // Shown at once as being made, one per category, in catalog order.
      expect(model.previews.map((p) => [p.presetId, p.status])).toEqual(
        expectedPresets.map((id) => [id, 'processing']),
      );
      const ledgerAfterStart = await ledgerOf(app, user);
      const creditsAfterStart = (await api.subscription(user)).credits;

      const ready = await api.modelWhen(
        user,
        model.id,
        (m) => m.previews.length === 4 && m.previews.every((p) => p.status === 'complete'),
        60_000,
      );
      // Made while the model still trains (its start, then the held engine).
      expect(['pending', 'training']).toContain(ready.status);
      expect(ready.previews.map((p) => p.presetId)).toEqual(expectedPresets);
      expect(new Set(ready.previews.map((p) => p.presetName)).size).toBe(4);
      for (const preview of ready.previews) {
        expect(preview).toMatchObject({ width: 512, height: 640 });
        const image = await app.app!.inject({ url: preview.imageUrl! });
        expect(image.statusCode).toBe(200);
        const meta = await sharp(image.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 512, 640]);
        const thumbnail = await app.app!.inject({ url: preview.thumbnailUrl! });
        expect(thumbnail.statusCode).toBe(200);
      }
      // Each arrived live on the event stream.
      for (const preview of ready.previews)
        await stream.waitFor(
          (event) =>
            event.type === 'preview.updated' &&
            event.data.previewId === preview.id &&
            event.data.status === 'complete',
        );
      // No credit moved for them: the ledger is as the training's start left it.
      expect(await ledgerOf(app, user)).toEqual(ledgerAfterStart);
      expect((await api.subscription(user)).credits).toBe(creditsAfterStart);
      expect(creditsAfterStart).toBe(creditsBefore);

      release();
      const trained = await api.modelWhen(user, model.id, (m) => m.status === 'complete');
      // They stay with the model once it is trained.
      expect(trained.previews.map((p) => [p.id, p.status])).toEqual(
        ready.previews.map((p) => [p.id, 'complete']),
      );
      expect(await ledgerOf(app, user)).toEqual(ledgerAfterStart);

      const previewFiles = ['users', user.id, 'models', model.id, 'previews'];
      expect(filesUnder(app, ...previewFiles)).toHaveLength(8);
      const deleted = await api.call(user, 'DELETE', `/api/studio/models/${model.id}`);
      expect(deleted.status).toBe(204);
      await waitFor(
        async () => filesUnder(app, ...previewFiles),
        (files) => files.length === 0,
      );
    } finally {
      release();
      engine.start = realStart;
      stream.close();
    }
  }, 120_000);
});

describe('training previews turned off', () => {
  let app: TestApp;
  let api: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    app = await createTestApp({ env: { TRAINING_PREVIEWS: 'false' } });
    api = apiCaller(app);
    await addCatalog(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('makes none with TRAINING_PREVIEWS=false', async () => {
    const user = await userWithPhotos(app, api);
    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Me',
      gender: 'woman',
    });
    expect(created.status).toBe(201);
    expect(created.body.model.previews).toEqual([]);
    const trained = await api.modelWhen(
      user,
      created.body.model.id,
      (m) => m.status === 'complete',
    );
    expect(trained.previews).toEqual([]);
    expect(filesUnder(app, 'users', user.id, 'models', created.body.model.id, 'previews')).toEqual(
      [],
    );
  });
});
