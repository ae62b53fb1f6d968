import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '../../../common/api/generation.ts';
import type { UserModel } from '../../../common/api/studio.ts';
import { generationMessages } from '../../../common/messages/generation.ts';
import { identity } from '../../../common/product/identity.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { metrics } from '../../observability/metrics.ts';
import { replicateGenerationInput } from '../../adapters/engine/replicate-generation.ts';
import {
  categories,
  creditLedger,
  generations,
  presets,
  providerCosts,
  userModels,
} from '../../db/schema/index.ts';
import { spend } from '../billing/ledger.ts';
import { generationReference } from './service.ts';
import { startFakeReplicate, type FakeReplicate } from '../../../../tests/fakes/replicate-api.ts';
import type { ScriptedFailure } from '../../../../tests/fakes/provider-fake-kit.ts';
import { apiCaller, photoFixtures, waitFor } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/**
 * Generation on a GPU service, through the whole app over real HTTP against the Replicate fake:
 * the image is copied into our storage at once, a flagged image is kept as blocked with no file,
 * a failure is refunded once, a transient error is retried; a retry resumes the prediction already
 * made, and the reconciler collects or cancels predictions whose worker is gone.
 */

let fake: FakeReplicate;
let app: TestApp;
let api: ReturnType<typeof apiCaller>;
let user: SignedInUser;
let model: UserModel;

async function generate(timeoutMs = 60_000) {
  const created = await api.call<{ generation: Generation }>(user, 'POST', '/api/generations', {
    userModelId: model.id,
    presetId: 'studio-headshot',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (
    await waitFor(
      () =>
        api.call<{ generation: Generation }>(
          user,
          'GET',
          `/api/generations/${created.body.generation.id}`,
        ),
      (response) => response.body.generation.status !== 'processing',
      timeoutMs,
    )
  ).body.generation;
}

function storedGenerationFiles(): string[] {
  const root = path.join(app.config.storage.localDir, 'users', user.id, 'generations');
  return existsSync(root) ? readdirSync(root) : [];
}

/** The stored files of one generation, sorted. */
function filesOf(generationId: string): string[] {
  return storedGenerationFiles()
    .filter((file) => file.startsWith(generationId))
    .sort();
}

async function ledger(generationId: string) {
  return (
    await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `generation:${generationId}`))
  ).map((row) => [row.reason, row.delta]);
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

type PredictionBody = { version: string; input: Record<string, unknown> };

/** The bodies of the predictions created, the upscaler's (provider HD) or the trained model's. */
function predictionBodies(kind: 'generation' | 'upscale' = 'generation'): PredictionBody[] {
  return fake.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/predictions')
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as PredictionBody)
    .filter((body) => body.version.startsWith('nightmareai/real-esrgan:') === (kind === 'upscale'));
}

function predictionsCreated() {
  return predictionBodies().length;
}

/** A prediction started on the provider directly, as a worker that then died had started it. */
async function startPrediction(): Promise<string> {
  const response = await fetch(`${fake.baseUrl}/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fake.apiToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      version: fake.addVersion(),
      input: { prompt: 'photo of TOK', ...replicateGenerationInput },
    }),
  });
  return ((await response.json()) as { id: string }).id;
}

/**
 * A paid generation as the database holds it when no worker holds its job: still waiting in the
 * queue (heardAt null), or started and then silent since `heardAt` (its worker died).
 */
async function silentGeneration(values: {
  engineReference: string | null;
  heardAt: Date | null;
  createdAt: Date;
}): Promise<string> {
  const id = randomUUID();
  await app.deps.billing.ledger.transaction(async (tx) => {
    await spend(tx, user.id, 1, 'generation', generationReference(id));
    await tx.insert(generations).values({
      id,
      userId: user.id,
      userModelId: model.id,
      userModelName: model.name,
      presetId: 'studio-headshot',
      modelName: 'Studio Headshot',
      engine: 'replicate',
      ...values,
    });
  });
  return id;
}

/** A generation whose worker died an hour ago, after starting `prediction`, once swept: its id. */
async function sweptAfterWorkerDied(prediction: string): Promise<string> {
  const id = await silentGeneration({
    engineReference: prediction,
    heardAt: hoursAgo(1),
    createdAt: hoursAgo(1),
  });
  await app.deps.generation.worker.sweep();
  return id;
}

async function generationById(id: string) {
  return (await api.call<{ generation: Generation }>(user, 'GET', `/api/generations/${id}`)).body
    .generation;
}

beforeAll(async () => {
  fake = await startFakeReplicate();
  app = await createTestApp({ listen: true, env: { ...fake.env, TRAINING_POLL_SECONDS: '1' } });
  api = apiCaller(app);
  const db = app.deps.database.db;
  await db.insert(categories).values({ manualId: 'professional', displayName: 'Professional' });
  await db.insert(presets).values({
    id: 'studio-headshot',
    manualId: 'studio-headshot',
    categoryId: 'professional',
    displayName: 'Studio Headshot',
    prompt: 'professional headshot photo of {trigger}, studio lighting',
  });
  user = await signUp(app);
  await api.buyPlan(user, 'price_pro');
  for (let n = 1; n <= photoRules.min; n += 1) await api.upload(user, photoFixtures.personA(n));
  await api.settledDraft(user);
  const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
    name: 'GPU me',
    gender: 'man',
  });
  const reference = await waitFor(async () => {
    const [row] = await db
      .select({ reference: userModels.engineReference })
      .from(userModels)
      .where(eq(userModels.id, created.body.model.id));
    return row?.reference ?? null;
  }, Boolean);
  // No public webhook URL here: the app's poll finds the finished training.
  await fake.completeTraining(reference!);
  model = await api.modelWhen(user, created.body.model.id, (m) => m.status === 'complete');
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('generation with the Replicate engine', () => {
  it('runs the trained version with the preset prompt and copies the image into our storage', async () => {
    fake.scriptPrediction({ outcome: 'succeed', polls: 1 });
    const done = await generate();
    expect(done).toMatchObject({ status: 'complete', hasNsfwContent: false, isPreview: false });
    const body = predictionBodies().at(-1)!;
    expect(body.version).toMatch(/^likeness-test\/likeness-.+:[0-9a-f]{64}$/);
    expect(body.input.prompt).toBe('professional headshot photo of TOK, studio lighting');
    expect(done.imageUrl).toMatch(/^\/api\/files\/users\//);
    // Provider HD: the 768x1024 picture is kept at 1536x2048.
    const image = await app.app!.inject({ method: 'GET', url: done.imageUrl! });
    expect((await sharp(image.rawPayload).metadata()).width).toBe(1536);
  });

  it('upscales the picture in the same job: the download is HD, the list keeps a small variant', async () => {
    const upscales = predictionBodies('upscale').length;
    fake.scriptPrediction({ outcome: 'succeed' });
    const done = await generate();
    expect(done).toMatchObject({ status: 'complete', hasNsfwContent: false });

    // One upscale, of our own copy (a signed, absolute URL of this site), ×2, no face redrawing.
    const sent = predictionBodies('upscale').slice(upscales);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toEqual({
      image: expect.stringMatching(new RegExp(`^${app.config.publicUrl}/api/files/users/`)),
      scale: 2,
      face_enhance: false,
    });

    const download = await app.app!.inject({ method: 'GET', url: done.downloadUrl! });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/attachment/);
    const hd = await sharp(download.rawPayload).metadata();
    expect(hd).toMatchObject({ format: 'jpeg', width: 1536, height: 2048 });
    expect(Math.max(hd.width!, hd.height!)).toBeGreaterThanOrEqual(2048);

    const thumbnail = await app.app!.inject({ method: 'GET', url: done.thumbnailUrl! });
    const small = await sharp(thumbnail.rawPayload).metadata();
    expect(small).toMatchObject({ format: 'webp', width: 480 });
    // Only the HD picture and the thumbnail are kept (the original JPEG is not).
    // The files a picture replaces go just after it ends.
    await expect
      .poll(() => filesOf(done.id))
      .toEqual([`${done.id}-hd.jpg`, `${done.id}-thumb.webp`]);
    expect(await ledger(done.id)).toEqual([['generation', -1]]);
  });

  it('gives the user the picture as made when the upscaler fails, counted for the operator', async () => {
    const errors = async () =>
      (await metrics.engineErrors.get()).values
        .filter((value) => value.labels.operation === 'upscale')
        .reduce((sum, value) => sum + value.value, 0);
    const before = await errors();
    fake.scriptPrediction({ outcome: 'succeed' });
    fake.scriptUpscale({ outcome: 'fail', error: 'CUDA out of memory.' });
    const done = await generate();

    expect(done).toMatchObject({ status: 'complete', hasNsfwContent: false });
    const download = await app.app!.inject({ method: 'GET', url: done.downloadUrl! });
    expect(await sharp(download.rawPayload).metadata()).toMatchObject({ width: 768, height: 1024 });
    expect(await ledger(done.id)).toEqual([['generation', -1]]);
    expect(await errors()).toBe(before + 1);
    // The files a picture replaces go just after it ends.
    await expect.poll(() => filesOf(done.id)).toEqual([`${done.id}-thumb.webp`, `${done.id}.jpg`]);
  });

  it('keeps a flagged image as blocked, with no file to serve, and no refund', async () => {
    fake.scriptPrediction({ outcome: 'nsfw' });
    const before = storedGenerationFiles().length;
    const blocked = await generate();
    expect(blocked).toMatchObject({
      status: 'complete',
      hasNsfwContent: true,
      imageUrl: null,
      downloadUrl: null,
      thumbnailUrl: null,
    });
    expect(storedGenerationFiles()).toHaveLength(before);
    expect(storedGenerationFiles().some((file) => file.startsWith(blocked.id))).toBe(false);
    expect(await ledger(blocked.id)).toEqual([['generation', -1]]);

    fake.scriptPrediction({ outcome: 'filtered' });
    const filtered = await generate();
    expect(filtered).toMatchObject({ status: 'complete', hasNsfwContent: true, imageUrl: null });
  });

  it("fails with our words (the provider's stay in the log) and refunds once", async () => {
    fake.scriptPrediction({ outcome: 'fail', error: 'CUDA error: out of memory' });
    const failed = await generate();
    expect(failed).toMatchObject({ status: 'failed', failureReason: generationMessages.failed });
    expect(await ledger(failed.id)).toEqual([
      ['generation', -1],
      ['refund', 1],
    ]);
  });

  // What a provider answers when it is in trouble: a gateway error, a body cut short, and a
  // 429 asking to come back later (the job layer waits at least its Retry-After).
  const faults: [string, ScriptedFailure][] = [
    ['a 503', { status: 503 }],
    ['malformed JSON', { malformed: true }],
    ['a 429 with Retry-After', { status: 429, retryAfter: 1 }],
  ];

  it.each(faults)(
    'gives up after the retries with our words and refunds once when the provider keeps answering %s',
    async (_fault, failure) => {
      // Every attempt (the first and the queue's 3 retries with backoff) meets the fault.
      for (let attempt = 0; attempt < 4; attempt += 1)
        fake.failNext({ match: 'POST /v1/predictions', ...failure });
      const failed = await generate(90_000);
      expect(failed).toMatchObject({ status: 'failed', failureReason: generationMessages.failed });
      expect(await ledger(failed.id)).toEqual([
        ['generation', -1],
        ['refund', 1],
      ]);
    },
    120_000,
  );

  it.each([['a 500', { status: 500 }] as [string, ScriptedFailure], ...faults.slice(1)])(
    'retries after %s, then completes, paid once',
    async (_fault, failure) => {
      fake.failNext({ match: 'POST /v1/predictions', ...failure });
      const done = await generate();
      expect(done.status).toBe('complete');
      expect(await ledger(done.id)).toEqual([['generation', -1]]);
    },
  );

  it('resumes the prediction it created when its job is retried, instead of paying for a second one', async () => {
    // The prediction succeeds, but its image fails to download (a 503): the job is retried.
    fake.failNext({ match: /^GET \/delivery\//, status: 503 });
    const before = predictionsCreated();
    const done = await generate();
    expect(done.status).toBe('complete');
    expect(done.imageUrl).toMatch(/^\/api\/files\/users\//);
    expect(predictionsCreated() - before).toBe(1);
    expect(await ledger(done.id)).toEqual([['generation', -1]]);
  });

  it('never sweeps a generation still waiting its turn in the queue, however old', async () => {
    const id = await silentGeneration({
      engineReference: null,
      heardAt: null,
      createdAt: hoursAgo(5),
    });
    await app.deps.generation.worker.sweep();
    expect((await generationById(id)).status).toBe('processing');
    expect(await ledger(id)).toEqual([['generation', -1]]);
  });

  it('collects the image of a prediction whose worker died from the provider', async () => {
    const prediction = await startPrediction();
    const id = await sweptAfterWorkerDied(prediction);
    const done = await generationById(id);
    expect(done).toMatchObject({ status: 'complete', hasNsfwContent: false });
    const image = await app.app!.inject({ method: 'GET', url: done.imageUrl! });
    expect((await sharp(image.rawPayload).metadata()).width).toBe(1536);
    expect(await ledger(id)).toEqual([['generation', -1]]);
  });

  it('cancels a prediction without news past the limit, and fails and refunds it once', async () => {
    fake.scriptPrediction({ polls: Infinity });
    const prediction = await startPrediction();
    const id = await sweptAfterWorkerDied(prediction);
    expect(await generationById(id)).toMatchObject({
      status: 'failed',
      failureReason: generationMessages.timedOut,
    });
    expect(fake.prediction(prediction)?.status).toBe('canceled');
    await app.deps.generation.worker.sweep();
    expect(await ledger(id)).toEqual([
      ['generation', -1],
      ['refund', 1],
    ]);
  });
});

type Labels = Record<string, string | number | undefined>;

describe('provider costs', () => {
  it('records what the operator paid for the picture, its re-roll and its HD upscale, once each', async () => {
    const photoOf = (file: string) => ({ body: readFileSync(file), contentType: 'image/jpeg' });
    fake.scriptPrediction({ file: photoOf(photoFixtures.personB(1)) });
    fake.scriptPrediction({ file: photoOf(photoFixtures.personA(10)) });
    const done = await generate();
    expect(done.status).toBe('complete');
    const rows = await app.deps.database.db
      .select()
      .from(providerCosts)
      .where(eq(providerCosts.reference, done.id));
    expect(rows.map((row) => row.kind).sort()).toEqual(['picture', 'reroll', 'upscale']);
    expect(rows.every((row) => row.engine === 'replicate' && row.usd > 0)).toBe(true);
  });
});

describe('likeness-checked results', () => {
  const photoOf = (file: string) => ({ body: readFileSync(file), contentType: 'image/jpeg' });
  const predictionInputs = () => predictionBodies();
  const counted = async (
    metric: typeof metrics.likenessChecks | typeof metrics.likenessRefunds,
    labels: Record<string, string>,
  ) =>
    (await metric.get()).values
      .filter((value) =>
        Object.entries(labels).every(([k, v]) => (value.labels as Labels)[k] === v),
      )
      .reduce((sum, value) => sum + value.value, 0);

  it('makes a picture of someone else again with a new seed, at no cost to the user', async () => {
    const firstBelow = await counted(metrics.likenessChecks, { attempt: 'first', result: 'below' });
    const rerollAbove = await counted(metrics.likenessChecks, {
      attempt: 'reroll',
      result: 'above',
    });
    const sent = predictionInputs().length;
    // The provider's first picture is of person B; the re-roll's of the user (person A).
    fake.scriptPrediction({ file: photoOf(photoFixtures.personB(1)) });
    fake.scriptPrediction({ file: photoOf(photoFixtures.personA(10)) });
    const done = await generate();

    expect(done).toMatchObject({ status: 'complete', likenessRefunded: false });
    expect(done.likeness).toBeGreaterThanOrEqual(50);
    const inputs = predictionInputs().slice(sent);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]!.input).not.toHaveProperty('seed');
    expect(inputs[1]!.input).toHaveProperty('seed');
    expect(await ledger(done.id)).toEqual([['generation', -1]]);
    // Only the picture kept is stored: person B's is deleted.
    await expect.poll(() => filesOf(done.id)).toHaveLength(2);
    expect(await counted(metrics.likenessChecks, { attempt: 'first', result: 'below' })).toBe(
      firstBelow + 1,
    );
    expect(await counted(metrics.likenessChecks, { attempt: 'reroll', result: 'above' })).toBe(
      rerollAbove + 1,
    );
    expect((await metrics.likenessRerollThreshold.get()).values[0]!.value).toBe(
      identity.rerollBelowSimilarity,
    );
  });

  it('keeps the more alike of two pictures of someone else, refunds the credit and says so', async () => {
    const refunds = await counted(metrics.likenessRefunds, {});
    fake.scriptPrediction({ file: photoOf(photoFixtures.personB(2)) });
    fake.scriptPrediction({ file: photoOf(photoFixtures.personB(3)) });
    const done = await generate();

    expect(done).toMatchObject({ status: 'complete', likenessRefunded: true });
    expect(done.likeness).toBeLessThan(50);
    expect(done.downloadUrl).not.toBeNull();
    expect(await ledger(done.id)).toEqual([
      ['generation', -1],
      ['refund', 1],
    ]);
    await expect.poll(() => filesOf(done.id)).toHaveLength(2);
    // Counted after the commit that the picture's status is read from.
    await expect.poll(() => counted(metrics.likenessRefunds, {})).toBe(refunds + 1);
  });

  it('keeps the first picture, refunded, when its re-roll fails', async () => {
    fake.scriptPrediction({ file: photoOf(photoFixtures.personB(4)) });
    fake.scriptPrediction({ outcome: 'fail' });
    const done = await generate();

    expect(done).toMatchObject({ status: 'complete', likenessRefunded: true });
    expect(done.imageUrl).not.toBeNull();
    expect(await ledger(done.id)).toEqual([
      ['generation', -1],
      ['refund', 1],
    ]);
  });
});
