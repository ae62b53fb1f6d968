import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserModel } from '../../../common/api/studio.ts';
import { modelsMessages, trainingMessages } from '../../../common/messages/models.ts';
import {
  createModelMessages,
  nameModelMessages,
  uploadMessages,
  validationMessages,
} from '../../../common/messages/studio.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import { creditLedger, studioDrafts, trainingPhotos, userModels } from '../../db/schema/index.ts';
import { analyzePhoto, faceSimilarity } from '../../images/analysis.ts';
import { startFakeS3, type FakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { deleteFilesJob, startTrainingJob } from './jobs.ts';
import { apiCaller, photoFixtures, waitFor } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../../tests/helpers/test-app.ts';
import { multipart, overTenMegabyteJpeg } from '../../../../tests/helpers/uploads.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/**
 * Model creation through the real HTTP API with the real photos: uploads, validation with face
 * analysis, the rules of creating a model, training with the local engine, privacy clean-up.
 */

let app: TestApp;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  app = await createTestApp();
  api = apiCaller(app);
});
afterAll(async () => {
  await app?.stop();
});

/** Files under the user's storage folder, relative to it. */
function userFiles(user: SignedInUser, folder = ''): string[] {
  const root = path.join(app.config.storage.localDir, 'users', user.id, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** A draft photo row without a validation job: it stays pending, as one still being checked. */
function photoBeingChecked(user: SignedInUser, id: string) {
  return {
    id,
    userId: user.id,
    storageKey: `users/${user.id}/training-images/${id}.jpg`,
    thumbnailKey: `users/${user.id}/training-images/${id}-thumb.webp`,
    fileName: `${id}.jpg`,
    width: 900,
    height: 1200,
    bytes: 1,
  };
}

async function uploadPersonA(user: SignedInUser, count: number) {
  for (let n = 1; n <= count; n += 1) {
    const { status, body } = await api.upload(user, photoFixtures.personA(n));
    expect(status, JSON.stringify(body)).toBe(201);
  }
}

describe('uploading and validating training photos', () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await signUp(app);
  });

  it('passes eight photos of one person and fails a non-face, two faces, a blurry photo and another person, each with its reason', async () => {
    const { status, body } = await api.upload(user, photoFixtures.personA(1));
    expect(status).toBe(201);
    expect(body.photo).toMatchObject({ fileName: 'a-01.jpg', status: 'pending', reason: null });
    await uploadPersonA2to8(user);
    const odd = {
      [path.basename(photoFixtures.notAFace)]: 'noFace',
      [path.basename(photoFixtures.twoFaces)]: 'multipleFaces',
      [path.basename(photoFixtures.blurry)]: 'tooBlurry',
      [path.basename(photoFixtures.personB(1))]: 'differentPerson',
    };
    for (const file of [
      photoFixtures.notAFace,
      photoFixtures.twoFaces,
      photoFixtures.blurry,
      photoFixtures.personB(1),
    ]) {
      expect((await api.upload(user, file)).status).toBe(201);
    }

    const draft = await api.settledDraft(user);
    expect(draft.counts).toEqual({ total: 12, passed: 8, failed: 4, pending: 0 });
    expect(draft.trainingStatus).toBe('VALIDATION_COMPLETE');
    for (const photo of draft.photos) {
      expect(photo.reason, photo.fileName).toBe(odd[photo.fileName] ?? null);
    }
    // Twelve photos validated one after another: 15 s on a quiet machine, over 30 s in a CI run.
  }, 90_000);

  it("fails the fixtures' edited copies (a-09 to a-12) as the same shot as the photo they copy, naming its number, and lets failed photos take none of the 12 places", async () => {
    // a-09 to a-12 are edits of a-01, a-03, a-02 and a-05 (tests/fixtures/photos/README.md),
    // which are photos 1, 3, 2 and 5 of this draft.
    for (let n = 9; n <= 12; n += 1) {
      const { status, body } = await api.upload(user, photoFixtures.personA(n));
      expect(status, JSON.stringify(body)).toBe(201);
    }
    const draft = await api.settledDraft(user);
    expect(draft.counts).toEqual({ total: 16, passed: 8, failed: 8, pending: 0 });
    const copies = draft.photos.slice(12).map((photo) => [photo.reason, photo.sameShotAs]);
    expect(copies).toEqual([
      ['sameShot', 1],
      ['sameShot', 3],
      ['sameShot', 2],
      ['sameShot', 5],
    ]);

    // Four photos still being checked take the last four places; a 13th place is refused.
    const db = app.deps.database.db;
    const holders = ['held-1', 'held-2', 'held-3', 'held-4'].map((id) => `${user.id}-${id}`);
    await db.insert(trainingPhotos).values(holders.map((id) => photoBeingChecked(user, id)));
    const before = userFiles(user).length;
    const { status, body } = await api.upload(user, photoFixtures.personA(1));
    expect(status).toBe(409);
    expect(body.error?.message).toBe(uploadMessages.tooMany);
    expect(userFiles(user)).toHaveLength(before);
    for (const id of holders) {
      expect((await api.call(user, 'DELETE', `/api/studio/photos/${id}`)).status).toBe(204);
    }
  }, 90_000);

  it('serves previews only through signed URLs of their owner', async () => {
    const draft = await api.draft(user);
    const url = new URL(draft.photos[0]!.thumbnailUrl, app.origin);
    const served = await app.app!.inject({ method: 'GET', url: url.pathname + url.search });
    expect(served.statusCode).toBe(200);
    const { format, width } = await sharp(served.rawPayload).metadata();
    expect(format).toBe('webp');
    expect(width).toBeLessThanOrEqual(320);
    const tampered = url.pathname.replace(user.id, 'someone-else') + url.search;
    expect((await app.app!.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
  });

  it('does not let the rules be skipped: creating a model with failed photos is refused', async () => {
    await api.buyPlan(user, 'price_pro');
    const { status, body } = await api.call(user, 'POST', '/api/studio/models', {
      name: 'Me',
      gender: 'woman',
    });
    expect(status).toBe(400);
    expect(body.error?.message).toBe(uploadMessages.someInvalid);
    expect((await api.models(user)).models).toHaveLength(0);
    expect(await api.subscription(user)).toMatchObject({ monthlyFreeTrainingsLeft: 1 });
  });

  it('re-settles the draft when a photo is deleted, and answers 404 for a photo that is not there', async () => {
    const draft = await api.draft(user);
    // Removing a-01 lets its copy a-09 take its place.
    const a01 = draft.photos[0]!;
    expect((await api.call(user, 'DELETE', `/api/studio/photos/${a01.id}`)).status).toBe(204);
    const without = await api.draft(user);
    expect(without.photos.find((p) => p.fileName === 'a-09.jpg')).toMatchObject({
      status: 'passed',
      reason: null,
      sameShotAs: null,
    });
    // a-10 now copies the photo numbered 2 (a-03): the numbers follow the page's.
    expect(without.photos.find((p) => p.fileName === 'a-10.jpg')?.sameShotAs).toBe(2);
    for (const photo of without.photos.filter((p) => p.status === 'failed')) {
      const { status } = await api.call(user, 'DELETE', `/api/studio/photos/${photo.id}`);
      expect(status).toBe(204);
    }
    const after = await api.draft(user);
    expect(after.counts).toEqual({ total: 8, passed: 8, failed: 0, pending: 0 });
    const again = await api.call(user, 'DELETE', `/api/studio/photos/${a01.id}`);
    expect(again.status).toBe(404);
    // The deleted photos' files are gone too (two files per photo: the photo and its preview).
    expect(userFiles(user, 'training-images')).toHaveLength(16);
  });
});

describe('the variety check', () => {
  it('fails a mirrored copy of a photo already in the draft with "almost the same as photo 2"', async () => {
    const user = await signUp(app);
    for (let n = 1; n <= 3; n += 1)
      expect((await api.upload(user, photoFixtures.personA(n))).status).toBe(201);
    const mirrored = await sharp(readFileSync(photoFixtures.personA(2)))
      .flop()
      .jpeg()
      .toBuffer();
    expect((await api.upload(user, mirrored, 'mirrored.jpg')).status).toBe(201);
    const draft = await api.settledDraft(user);
    expect(draft.counts).toEqual({ total: 4, passed: 3, failed: 1, pending: 0 });
    const copy = draft.photos[3]!;
    expect(copy).toMatchObject({ fileName: 'mirrored.jpg', status: 'failed', reason: 'sameShot' });
    expect(validationMessages.sameShotAs(copy.sameShotAs!)).toBe(
      'This photo is almost the same as photo 2',
    );
  });

  it('fails exactly the later of two copies uploaded at the same time', async () => {
    const user = await signUp(app);
    const original = readFileSync(photoFixtures.personA(4));
    const copy = await sharp(original).flop().modulate({ brightness: 1.2 }).jpeg().toBuffer();
    const answers = await Promise.all([
      api.upload(user, original, 'original.jpg'),
      api.upload(user, copy, 'copy.jpg'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    const draft = await api.settledDraft(user);
    expect(draft.counts).toMatchObject({ total: 2, passed: 1, failed: 1 });
    // Whichever was recorded first is photo 1 and stays; the other copies it.
    expect(draft.photos.map((photo) => [photo.status, photo.sameShotAs])).toEqual([
      ['passed', null],
      ['failed', 1],
    ]);
  });
});

async function uploadPersonA2to8(user: SignedInUser) {
  for (let n = 2; n <= photoRules.min; n += 1) {
    const { status } = await api.upload(user, photoFixtures.personA(n));
    expect(status).toBe(201);
  }
}

describe('bad files', () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await signUp(app);
  });

  const cases: [string, () => Buffer, number, string][] = [
    [
      'a truncated JPEG',
      () => readFileSync(photoFixtures.badFile('truncated.jpg')),
      400,
      validationMessages.reasons.unreadable,
    ],
    [
      'text named .jpg',
      () => readFileSync(photoFixtures.badFile('not-an-image.jpg')),
      415,
      validationMessages.reasons.unsupportedType,
    ],
    [
      'a decompression bomb (400 MP PNG)',
      () => readFileSync(photoFixtures.badFile('bomb.png')),
      400,
      validationMessages.reasons.dimensionsTooLarge,
    ],
    ['a file over 10 MB', overTenMegabyteJpeg, 413, validationMessages.reasons.fileTooLarge],
    [
      'an SVG with a script',
      () => readFileSync(photoFixtures.badFile('svg-with-script.svg')),
      415,
      validationMessages.reasons.unsupportedType,
    ],
  ];

  it.each(cases)(
    'refuses %s with a clear message and leaves no row or file',
    async (_name, file, code, message) => {
      const { status, body } = await api.upload(user, file(), 'upload.jpg');
      expect(status).toBe(code);
      expect(body.error?.message).toBe(message);
      const rows = await app.deps.database.db
        .select()
        .from(trainingPhotos)
        .where(eq(trainingPhotos.userId, user.id));
      expect(rows).toHaveLength(0);
      expect(userFiles(user)).toEqual([]);
    },
  );

  it('refuses a request that is not multipart, and a signed-out upload', async () => {
    const json = await api.call(user, 'POST', '/api/studio/photos', { file: 'x' });
    expect(json.status).toBe(415);
    const anonymous = await app.app!.inject({
      method: 'POST',
      url: '/api/studio/photos',
      headers: { origin: app.origin },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("converts a HEIC photo (an iPhone's) to an upright JPEG and validates it", async () => {
    const heicUser = await signUp(app);
    const { status, body } = await api.upload(
      heicUser,
      photoFixtures.badFile('selfie.heic'),
      'IMG_0001.HEIC',
    );
    expect(status).toBe(201);
    expect(body.photo).toMatchObject({ width: 900, height: 1200 });
    const stored = userFiles(heicUser, 'training-images').find((file) => file.endsWith('.jpg'))!;
    const meta = await sharp(
      path.join(app.config.storage.localDir, 'users', heicUser.id, 'training-images', stored),
    ).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 900, height: 1200 });
    const settled = await api.settledDraft(heicUser);
    expect(settled.counts).toMatchObject({ passed: 1, failed: 0 });
  });

  it('strips metadata and turns an EXIF-rotated photo upright', async () => {
    const { status, body } = await api.upload(user, photoFixtures.upright);
    expect(status).toBe(201);
    const stored = userFiles(user, 'training-images').find((file) => file.endsWith('.jpg'))!;
    const meta = await sharp(
      path.join(app.config.storage.localDir, 'users', user.id, 'training-images', stored),
    ).metadata();
    expect(meta.height).toBeGreaterThan(meta.width!);
    expect(meta.orientation ?? 1).toBe(1);
    expect(meta.exif).toBeUndefined();
    expect(body.photo).toMatchObject({ width: meta.width, height: meta.height });
  });
});

describe('creating a model and training it with the local engine', () => {
  it('needs an active subscription', async () => {
    const user = await signUp(app);
    await uploadPersonA(user, photoRules.min);
    await api.settledDraft(user);
    const { status, body } = await api.call(user, 'POST', '/api/studio/models', {
      name: 'Me',
      gender: 'woman',
    });
    expect(status).toBe(402);
    expect(body.error?.message).toBe(createModelMessages.subscriptionRequired);
  });

  it('spends the free training once, trains to complete, shows the featured image and deletes the training photos', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    await uploadPersonA(user, photoRules.min);
    expect((await api.settledDraft(user)).counts.passed).toBe(8);
    await api.call(user, 'PUT', '/api/studio/draft', { gender: 'woman', name: '  Studio me ' });
    expect((await api.call(user, 'GET', '/api/studio/draft')).body).toEqual({
      gender: 'woman',
      name: '  Studio me ',
    });

    const blank = await api.call(user, 'POST', '/api/studio/models', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error?.message).toBe(nameModelMessages.nameRequired);

    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: '  Studio me ',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.model).toMatchObject({
      name: 'Studio me',
      gender: 'woman',
      paidWith: 'free-training',
      photoCount: 8,
    });
    expect(await api.subscription(user)).toMatchObject({
      credits: 500,
      monthlyFreeTrainingsLeft: 0,
    });
    // The draft starts over.
    expect((await api.draft(user)).counts.total).toBe(0);
    expect((await api.call(user, 'GET', '/api/studio/draft')).body).toEqual({
      gender: null,
      name: '',
    });

    const model = await api.modelWhen(user, created.body.model.id, (m) => m.status === 'complete');
    expect(model.featuredImageUrl).toBeTruthy();
    const featured = new URL(model.featuredImageUrl!, app.origin);
    const image = await app.app!.inject({
      method: 'GET',
      url: featured.pathname + featured.search,
    });
    expect(image.statusCode).toBe(200);
    expect((await sharp(image.rawPayload).metadata()).width).toBe(512);

    // The grey profile black-and-white pictures are scored against, measured as training started.
    const [row] = await app.deps.database.db
      .select()
      .from(userModels)
      .where(eq(userModels.id, model.id));
    const greyProfile = row!.faceEmbeddingGrey!;
    expect(greyProfile).toHaveLength(256);
    expect(Math.hypot(...greyProfile)).toBeCloseTo(1, 4);
    const greyed = await sharp(readFileSync(photoFixtures.personA(1)))
      .greyscale()
      .jpeg()
      .toBuffer();
    const [face] = (await analyzePhoto(greyed, { grey: true })).faces;
    expect(faceSimilarity(face!.grey!.embedding, greyProfile)).toBeGreaterThan(0.7);

    const me = await api.call<{ profile: { trainingInProgress: boolean } }>(user, 'GET', '/api/me');
    expect(me.body.profile.trainingInProgress).toBe(false);
    expect((await api.models(user)).trainingInProgress).toBe(false);

    // Privacy: the photos and the zip go after training; the model's own files stay.
    await waitFor(
      async () => userFiles(user, 'training-images').length + userFiles(user, 'image_zips').length,
      (n) => n === 0,
    );
    expect(userFiles(user, `models/${model.id}`).length).toBeGreaterThan(0);
    const ledger = await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `model:${model.id}`));
    expect(ledger).toHaveLength(1);
    // The first local training of a test process loads its models: over 30 s on a loaded machine.
  }, 90_000);

  it('keeps the training photos when the user asked to', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    expect(
      (await api.call(user, 'PUT', '/api/studio/settings', { keepTrainingPhotos: true })).body,
    ).toEqual({ keepTrainingPhotos: true });
    await uploadPersonA(user, photoRules.min);
    await api.settledDraft(user);
    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Kept',
      gender: 'other',
    });
    await api.modelWhen(user, created.body.model.id, (m) => m.status === 'complete');
    // Eight photos kept: each with its preview.
    expect(userFiles(user, 'training-images')).toHaveLength(16);
    expect(userFiles(user, 'image_zips')).toHaveLength(1);
    // Validation and training of eight photos: half a minute when the machine is busy.
  }, 60_000);

  async function trainFromEightPhotos(user: SignedInUser, name: string) {
    await uploadPersonA(user, photoRules.min);
    await api.settledDraft(user);
    return api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name,
      gender: 'woman',
    });
  }

  it('pays with 50 credits once the free training is used', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    const first = await trainFromEightPhotos(user, 'One');
    expect(first.body.model?.paidWith).toBe('free-training');
    const second = await trainFromEightPhotos(user, 'Two');
    expect(second.status).toBe(201);
    expect(second.body.model?.paidWith).toBe('credits');
    expect(await api.subscription(user)).toMatchObject({
      credits: 450,
      monthlyFreeTrainingsLeft: 0,
    });
  });

  const ledgerOf = (modelId: string) =>
    app.deps.database.db
      .select({ reason: creditLedger.reason, delta: creditLedger.delta })
      .from(creditLedger)
      .where(eq(creditLedger.reference, `model:${modelId}`));

  it('fails a training whose photo was lost from storage with the zipping error and refunds the 50 credits', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    const first = await trainFromEightPhotos(user, 'Free');
    await api.modelWhen(user, first.body.model.id, (m) => m.status === 'complete');

    await uploadPersonA(user, photoRules.min);
    await api.settledDraft(user);
    const [lost] = await app.deps.database.db
      .select({ key: trainingPhotos.storageKey })
      .from(trainingPhotos)
      .where(eq(trainingPhotos.userId, user.id));
    rmSync(path.join(app.config.storage.localDir, ...lost!.key.split('/')));
    const created = await api.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Paid',
      gender: 'woman',
    });
    expect(created.body.model.paidWith).toBe('credits');
    const failed = await api.modelWhen(user, created.body.model.id, (m) => m.status === 'failed');
    expect(failed.failureReason).toBe(trainingMessages.zippingFailed);
    expect(await ledgerOf(failed.id)).toEqual([
      { reason: 'training', delta: -50 },
      { reason: 'refund', delta: 50 },
    ]);
    expect(await api.subscription(user)).toMatchObject({ credits: 500 });
    expect((await api.models(user)).trainingInProgress).toBe(false);
  }, 120_000);

  it('leaves no file behind when a model is deleted while it trains', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_pro');
    const created = await trainFromEightPhotos(user, 'Short-lived');
    const modelId = created.body.model.id;
    // The local engine trains in process for a few seconds: the delete lands meanwhile.
    await api.modelWhen(user, modelId, (m) => m.status === 'training');
    expect((await api.call(user, 'DELETE', `/api/studio/models/${modelId}`)).status).toBe(204);

    // Once the training job has given up and the deletions ran, nothing of the model is left.
    await waitFor(
      async () => {
        const depth = await app.deps.queue.depth();
        return (depth[startTrainingJob.name] ?? 0) + (depth[deleteFilesJob.name] ?? 0);
      },
      (n) => n === 0,
    );
    expect(userFiles(user)).toEqual([]);
    expect((await api.models(user)).models).toEqual([]);
  }, 60_000);

  it('refuses the Basic plan a second model, spending nothing', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_basic');
    expect((await trainFromEightPhotos(user, 'One')).status).toBe(201);
    const second = await trainFromEightPhotos(user, 'Two');
    expect(second.status).toBe(409);
    expect(second.body.error?.message).toBe(createModelMessages.modelLimitReached('Basic', 1));
    expect(await api.subscription(user)).toMatchObject({
      credits: 50,
      monthlyFreeTrainingsLeft: 0,
    });
    expect((await api.draft(user)).counts.passed).toBe(8);
  });
});

describe.skipIf(!usesPostgres)('the draft read while a validation commits', () => {
  it('answers the photos and the training status of one moment', async () => {
    const user = await signUp(app);
    await api.upload(user, photoFixtures.personA(1));
    const settled = await api.settledDraft(user);
    expect(settled.trainingStatus).toBe('VALIDATION_COMPLETE');
    // Another transaction puts a photo back to being checked, as an upload does, and holds the
    // drafts table until the read below has begun and waits for it.
    const writer = new pg.Client({ connectionString: app.config.database.url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(
        "update training_photos set status = 'pending', embedding = null where id = $1",
        [settled.photos[0]!.id],
      );
      await writer.query(
        "update studio_drafts set training_status = 'VALIDATING' where user_id = $1",
        [user.id],
      );
      await writer.query('lock table studio_drafts in access exclusive mode');
      const read = api.draft(user);
      await waitFor(
        async () =>
          (
            await writer.query<{ n: number }>(
              `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
                where c.relname = 'studio_drafts' and not l.granted`,
            )
          ).rows[0]!.n,
        (waiting) => waiting > 0,
        10_000,
      );
      await writer.query('commit');
      const draft = await read;
      // Before the commit or after it, but never the photos of one and the status of the other.
      expect(draft.trainingStatus).toBe(
        draft.counts.pending > 0 ? 'VALIDATING' : 'VALIDATION_COMPLETE',
      );
    } finally {
      await writer.end();
    }
  });
});

describe('the training status while photos are uploaded', () => {
  let listening: TestApp;
  let listeningApi: ReturnType<typeof apiCaller>;
  beforeAll(async () => {
    listening = await createTestApp({ listen: true });
    listeningApi = apiCaller(listening);
  });
  afterAll(async () => {
    await listening?.stop();
  });

  /**
   * Sends an upload over real HTTP in two halves and reports the draft's training status seen
   * while the second half is held back (then runs `whileHeld`); answers that and the upload's
   * HTTP status.
   */
  async function uploadHalting(
    user: SignedInUser,
    file: Buffer,
    filename: string,
    whileHeld: () => Promise<unknown> = async () => {},
  ) {
    const body = multipart(file, { filename });
    const half = Math.floor(body.payload.length / 2);
    const url = new URL('/api/studio/photos', listening.url);
    let answered!: (status: number) => void;
    const done = new Promise<number>((resolve) => (answered = resolve));
    const upload = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          ...user.headers,
          ...body.headers,
          'content-length': String(body.payload.length),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => answered(response.statusCode ?? 0));
      },
    );
    upload.write(body.payload.subarray(0, half));
    const during = await waitFor(
      async () => (await listeningApi.draft(user)).trainingStatus,
      (status) => status === 'UPLOADING',
      10_000,
    );
    await whileHeld();
    upload.end(body.payload.subarray(half));
    return { during, status: await done };
  }

  it('is UPLOADING from the start of an upload, VALIDATING once recorded, VALIDATION_COMPLETE once checked, and back after a refused file', async () => {
    const user = await signUp(listening);
    expect((await listeningApi.draft(user)).trainingStatus).toBeNull();

    const first = await uploadHalting(user, readFileSync(photoFixtures.personA(1)), 'a-01.jpg');
    expect(first).toEqual({ during: 'UPLOADING', status: 201 });
    // Recorded: VALIDATING exactly while its check is pending.
    const recorded = await listeningApi.draft(user);
    expect(recorded.trainingStatus).toBe(
      recorded.counts.pending > 0 ? 'VALIDATING' : 'VALIDATION_COMPLETE',
    );
    expect((await listeningApi.settledDraft(user)).trainingStatus).toBe('VALIDATION_COMPLETE');

    const refused = await uploadHalting(user, Buffer.from('not a picture at all'), 'notes.jpg');
    expect(refused).toEqual({ during: 'UPLOADING', status: 415 });
    expect((await listeningApi.draft(user)).trainingStatus).toBe('VALIDATION_COMPLETE');
  });

  it('is VALIDATION_COMPLETE after a refused file when the photo being checked as it started was settled meanwhile', async () => {
    const user = await signUp(listening);
    await listeningApi.upload(user, photoFixtures.personA(1));
    await listeningApi.settledDraft(user);
    // A photo still being checked, as an upload leaves it.
    const checking = `${user.id}-checking`;
    const db = listening.deps.database.db;
    await db.insert(trainingPhotos).values(photoBeingChecked(user, checking));
    await db
      .update(studioDrafts)
      .set({ trainingStatus: 'VALIDATING' })
      .where(eq(studioDrafts.userId, user.id));
    expect((await listeningApi.draft(user)).trainingStatus).toBe('VALIDATING');

    // While a refused file is on its way, the photo being checked is removed: nothing waits.
    const refused = await uploadHalting(user, Buffer.from('not a picture'), 'notes.jpg', () =>
      listeningApi.call(user, 'DELETE', `/api/studio/photos/${checking}`),
    );
    expect(refused).toEqual({ during: 'UPLOADING', status: 415 });
    const draft = await listeningApi.draft(user);
    expect(draft.counts).toEqual({ total: 1, passed: 1, failed: 0, pending: 0 });
    expect(draft.trainingStatus).toBe('VALIDATION_COMPLETE');
  });
});

describe('on a bucket that refuses to store', () => {
  const bucket = 'likeness-studio';
  let s3: FakeS3;
  let bucketApp: TestApp;
  let bucketApi: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    const credentials = { accessKeyId: 'AKIDSTUDIO', secretAccessKey: 'studio-secret' };
    s3 = await startFakeS3({ ...credentials, buckets: [bucket] });
    bucketApp = await createTestApp({
      env: s3.appEnv(bucket),
    });
    bucketApi = apiCaller(bucketApp);
  });
  afterAll(async () => {
    await bucketApp?.stop();
    await s3?.close();
  });

  const keysUnder = (user: SignedInUser, folder: string) =>
    [...s3.bucket(bucket).keys()].filter((key) => key.startsWith(`users/${user.id}/${folder}/`));

  it('answers a photo it could not store with the reason for "Failed to record", keeping nothing', async () => {
    const user = await signUp(bucketApp);
    s3.failNext('PutObject', 403, 'AccessDenied');
    const { status, body } = await bucketApi.upload(user, photoFixtures.personA(1));
    expect(status).toBe(500);
    expect(body.error?.message).toBe(uploadMessages.notStored);
    const draft = await bucketApi.draft(user);
    expect(draft.counts.total).toBe(0);
    expect(draft.trainingStatus).toBeNull();
    await waitFor(
      async () => keysUnder(user, 'training-images'),
      (keys) => keys.length === 0,
    );
  });

  it('fails a training whose zip it keeps refusing with "Failed to upload zip." and refunds it', async () => {
    const user = await signUp(bucketApp);
    await bucketApi.buyPlan(user, 'price_pro');
    for (let n = 1; n <= photoRules.min; n += 1)
      expect((await bucketApi.upload(user, photoFixtures.personA(n))).status).toBe(201);
    await bucketApi.settledDraft(user);
    // Every attempt of the start job (the first and its 4 retries) meets a refusal.
    for (let attempt = 0; attempt <= startTrainingJob.retry.retryLimit; attempt += 1)
      s3.failNext('PutObject', 403, 'AccessDenied');
    const created = await bucketApi.call<{ model: UserModel }>(user, 'POST', '/api/studio/models', {
      name: 'Zipless',
      gender: 'man',
    });
    const failed = await bucketApi.modelWhen(
      user,
      created.body.model.id,
      (m) => m.status === 'failed',
    );
    expect(failed.failureReason).toBe(trainingMessages.zipUploadFailed);
    expect(await bucketApi.subscription(user)).toMatchObject({ monthlyFreeTrainingsLeft: 1 });
    expect(keysUnder(user, 'image_zips')).toEqual([]);
  }, 90_000);
});

describe("another user's photos and models", () => {
  it('answer 404', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    await api.buyPlan(owner, 'price_pro');
    await api.buyPlan(other, 'price_pro');
    await uploadPersonA(owner, photoRules.min);
    const draft = await api.settledDraft(owner);
    const created = await api.call<{ model: UserModel }>(owner, 'POST', '/api/studio/models', {
      name: 'Mine',
      gender: 'man',
    });
    const modelId = created.body.model.id;
    await api.modelWhen(owner, modelId, (m) => m.status === 'complete');

    expect((await api.models(other)).models).toEqual([]);
    expect((await api.draft(other)).photos).toEqual([]);
    const photoId = draft.photos[0]!.id;
    expect((await api.call(other, 'DELETE', `/api/studio/photos/${photoId}`)).status).toBe(404);
    expect((await api.call(other, 'DELETE', `/api/studio/models/${modelId}`)).status).toBe(404);
    expect((await api.call(other, 'PUT', '/api/studio/models/selected', { modelId })).status).toBe(
      404,
    );

    // The owner can select it (Pro), then delete it with its files.
    const selected = await api.call<{ selectedModelId: string }>(
      owner,
      'PUT',
      '/api/studio/models/selected',
      { modelId },
    );
    expect(selected.body.selectedModelId).toBe(modelId);
    expect((await api.call(owner, 'DELETE', `/api/studio/models/${modelId}`)).status).toBe(204);
    expect((await api.models(owner)).models).toEqual([]);
    await waitFor(
      async () => userFiles(owner, 'models'),
      (files) => files.length === 0,
    );
  });

  it('a Basic user cannot choose the selected model', async () => {
    const user = await signUp(app);
    await api.buyPlan(user, 'price_basic');
    const { status, body } = await api.call(user, 'PUT', '/api/studio/models/selected', {
      modelId: 'anything',
    });
    expect(status).toBe(403);
    expect(body.error?.message).toBe(modelsMessages.selectProOnly);
  });
});
