import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '../../src/common/api/generation.ts';
import type { TryOn } from '../../src/common/api/tryon.ts';
import type { UserModel } from '../../src/common/api/studio.ts';
import { validationMessages } from '../../src/common/messages/studio.ts';
import { tryonMessages } from '../../src/common/messages/tryon.ts';
import { creditLedger } from '../../src/server/db/schema/index.ts';
import type { NormalizedPhoto } from '../../src/server/images/intake.ts';
import {
  addPreset,
  changes,
  generationDone,
  multipartBody,
  settle,
  snapshot,
  storedFiles,
  trainedUser,
} from '../helpers/hostile.ts';
import { apiCaller, photoFixtures, waitFor } from '../helpers/studio.ts';
import {
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type TestApp,
  usesPostgres,
} from '../helpers/test-app.ts';
import type { SignedInUser } from '../helpers/users.ts';

/**
 * The NSFW check through the whole app with the real model. Nothing explicit is committed: an
 * operator's very strict NSFW_THRESHOLD makes the classifier flag ordinary pictures, which stand
 * in for explicit ones (the default threshold flags none of them: src/server/images/nsfw.test.ts).
 * The user and their model are made at the default threshold; then the app restarts on the same
 * data with the strict one.
 */
const strictThreshold = '0.00001';

let dataDir: string;
let databaseUrl: string | undefined;
let app: TestApp;
let api: ReturnType<typeof apiCaller>;
let user: SignedInUser;
let model: UserModel;
let presetId: string;

const startApp = (env: Record<string, string> = {}) =>
  createTestApp({ dataDir, persistent: true, env, ...(databaseUrl ? { databaseUrl } : {}) });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-nsfw-'));
  if (usesPostgres) databaseUrl = await createTestDatabase();
  const lenient = await startApp();
  try {
    ({ user, model } = await trainedUser(lenient, apiCaller(lenient)));
    ({ presetId } = await addPreset(lenient));
    // The privacy clean-up after training runs now, not in the middle of a test below.
    await settle(lenient);
  } finally {
    await lenient.stop();
  }
  app = await startApp({ NSFW_THRESHOLD: strictThreshold });
  api = apiCaller(app);
}, 240_000);
afterAll(async () => {
  await app?.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
});

async function ledger(reference: string) {
  return (
    await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, reference))
  ).map((row) => [row.reason, row.delta]);
}

/** A photo as the upload route would hand it on (which, at this threshold, it refuses to do). */
async function normalized(bytes: Buffer): Promise<NormalizedPhoto> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .jpeg({ quality: 90 })
    .toBuffer({ resolveWithObject: true });
  const thumbnail = await sharp(data).resize(320, 320).webp().toBuffer();
  return { jpeg: data, thumbnail, width: info.width, height: info.height };
}

/** A flat-lay product photo: a red T-shirt on white. */
async function tShirt(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <rect width="800" height="800" fill="#ffffff"/>
    <path d="M250 150 L330 110 Q400 160 470 110 L550 150 L680 260 L600 340 L560 300 L560 700 L240 700 L240 300 L200 340 L120 260 Z" fill="#c0392b"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

describe('pictures the NSFW classifier flags', () => {
  it('refuses a flagged training photo with the reason, keeping no row and no file', async () => {
    const before = await snapshot(app);
    const refused = await api.upload(user, photoFixtures.personA(9));
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(validationMessages.reasons.explicit);
    expect(changes(before, await snapshot(app))).toEqual([]);
  });

  it('refuses flagged try-on pictures before anything is stored or spent', async () => {
    const before = await snapshot(app);
    const body = multipartBody([
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: await tShirt() },
    ]);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/tryons',
      headers: { ...user.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toBe(
      validationMessages.reasons.explicit,
    );
    expect(changes(before, await snapshot(app))).toEqual([]);
  });

  it('blocks a flagged generated image as a provider flag is blocked: no file, no refund', async () => {
    const created = await api.call<{ generation: Generation }>(user, 'POST', '/api/generations', {
      userModelId: model.id,
      presetId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await generationDone(api, user, created.body.generation.id);
    expect(done).toMatchObject({
      status: 'complete',
      hasNsfwContent: true,
      imageUrl: null,
      downloadUrl: null,
      thumbnailUrl: null,
    });
    expect(storedFiles(app).filter((file) => file.includes(done.id))).toEqual([]);
    expect(await ledger(`generation:${done.id}`)).toEqual([['generation', -1]]);
  }, 120_000);

  it('blocks a flagged try-on result with the content filter reason: no file, no refund', async () => {
    const started = await app.deps.tryOn.service.create(
      user.id,
      { upload: await normalized(readFileSync(photoFixtures.personA(1))) },
      await normalized(await tShirt()),
    );
    const done = (
      await waitFor(
        () => api.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${started.id}`),
        (response) => response.body.tryOn.status !== 'processing',
        60_000,
      )
    ).body.tryOn;
    expect(done).toMatchObject({
      status: 'blocked',
      failureReason: tryonMessages.errors.contentModeration,
      resultImageUrl: null,
      downloadUrl: null,
    });
    expect(storedFiles(app).filter((file) => file.includes('tryon-results'))).toEqual([]);
    expect(await ledger(`tryon:${done.id}`)).toEqual([['tryon', -1]]);
  }, 90_000);
});
