import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TryOn } from '../../../common/api/tryon.ts';
import { messages } from '../../../common/messages.ts';
import { creditLedger, tryOns } from '../../db/schema/index.ts';
import { startFakeFashn, type FakeFashn } from '../../../../tests/fakes/fashn-api.ts';
import { startFakeS3, type FakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { apiCaller, photoFixtures, waitFor } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { overTenMegabyteJpeg } from '../../../../tests/helpers/uploads.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/** Try-on through the real HTTP API with the local engine and real photos. */

let app: TestApp;
let api: ReturnType<typeof apiCaller>;
let pro: SignedInUser;
let garment: Buffer;

/** A flat-lay product photo: a red T-shirt on white. */
async function tShirt(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <rect width="800" height="800" fill="#ffffff"/>
    <path d="M250 150 L330 110 Q400 160 470 110 L550 150 L680 260 L600 340 L560 300 L560 700 L240 700 L240 300 L200 340 L120 260 Z" fill="#c0392b"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

function multipartBody(
  parts: { name: string; file?: Buffer; filename?: string; value?: string }[],
) {
  const boundary = `----likeness${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.file
      ? `form-data; name="${part.name}"; filename="${part.filename ?? `${part.name}.jpg`}"\r\nContent-Type: image/jpeg`
      : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(part.file ?? Buffer.from(part.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function startTryOn(
  user: SignedInUser,
  parts: Parameters<typeof multipartBody>[0],
  target: TestApp = app,
) {
  const body = multipartBody(parts);
  const response = await target.app!.inject({
    method: 'POST',
    url: '/api/tryons',
    headers: { ...user.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  return {
    status: response.statusCode,
    body: response.json() as { tryOn?: TryOn; error?: { code: string; message: string } },
  };
}

function userFiles(user: SignedInUser): string[] {
  const root = path.join(app.config.storage.localDir, 'users', user.id);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

async function tryOnWhen(user: SignedInUser, id: string) {
  return (
    await waitFor(
      () => api.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${id}`),
      (response) => response.body.tryOn.status !== 'processing',
      60_000,
    )
  ).body.tryOn;
}

beforeAll(async () => {
  app = await createTestApp();
  api = apiCaller(app);
  garment = await tShirt();
  pro = await signUp(app);
  await api.buyPlan(pro, 'price_pro');
});
afterAll(async () => {
  await app?.stop();
});

describe('try-on with the local engine', () => {
  it('puts the garment on an uploaded person for one credit, stored under the spec folders', async () => {
    const before = (await api.subscription(pro)).credits;
    const started = await startTryOn(pro, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await api.subscription(pro)).credits).toBe(before - 1);
    const files = userFiles(pro);
    expect(files.some((file) => file.startsWith('person-uploads/'))).toBe(true);
    expect(files.some((file) => file.startsWith('garment-uploads/'))).toBe(true);

    const done = await tryOnWhen(pro, started.body.tryOn!.id);
    expect(done).toMatchObject({ status: 'completed', isPreview: true, failureReason: null });
    const result = await app.app!.inject({ method: 'GET', url: done.resultImageUrl! });
    expect(result.statusCode).toBe(200);
    const person = await sharp(readFileSync(photoFixtures.personA(1))).metadata();
    expect((await sharp(result.rawPayload).metadata()).width).toBe(person.width);
    const download = await app.app!.inject({ method: 'GET', url: done.downloadUrl! });
    expect(download.headers['content-disposition']).toMatch(/attachment/);

    const list = await api.call<{ tryOns: TryOn[] }>(pro, 'GET', '/api/tryons');
    expect(list.body.tryOns[0]!.id).toBe(done.id);
  });

  it('fails with a reason and refunds once when the person photo shows nobody', async () => {
    const before = (await api.subscription(pro)).credits;
    const started = await startTryOn(pro, [
      { name: 'person', file: readFileSync(photoFixtures.notAFace) },
      { name: 'garment', file: garment },
    ]);
    expect(started.status).toBe(201);
    const failed = await tryOnWhen(pro, started.body.tryOn!.id);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBeTruthy();
    expect(failed.resultImageUrl).toBeNull();
    expect((await api.subscription(pro)).credits).toBe(before);
    const rows = await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `tryon:${failed.id}`));
    expect(rows.map((row) => [row.reason, row.delta])).toEqual([
      ['tryon', -1],
      ['refund', 1],
    ]);
  });
});

describe('refusals that change nothing', () => {
  const cases: [string, () => Parameters<typeof multipartBody>[0], number, string][] = [
    [
      'no garment',
      () => [{ name: 'person', file: readFileSync(photoFixtures.personA(2)) }],
      400,
      messages.tryon.selectBoth,
    ],
    ['no person', () => [{ name: 'garment', file: garment }], 400, messages.tryon.selectBoth],
    [
      'a garment that is not an image',
      () => [
        { name: 'person', file: readFileSync(photoFixtures.personA(2)) },
        { name: 'garment', file: Buffer.from('just some text, named like a picture') },
      ],
      415,
      messages.validation.reasons.unsupportedType,
    ],
    [
      'a garment over 10 MB',
      () => [
        { name: 'person', file: readFileSync(photoFixtures.personA(2)) },
        { name: 'garment', file: overTenMegabyteJpeg() },
      ],
      413,
      messages.validation.reasons.fileTooLarge,
    ],
    [
      "a generation that is not the user's",
      () => [
        { name: 'personGenerationId', value: 'someone-elses-generation' },
        { name: 'garment', file: garment },
      ],
      404,
      messages.generation.detail.notFound,
    ],
  ];

  it.each(cases)(
    '%s: a clear error, no credit spent, no file kept',
    async (_name, parts, status, message) => {
      const user = await signUp(app);
      await api.buyPlan(user, 'price_pro');
      const { status: got, body } = await startTryOn(user, parts());
      expect(got).toBe(status);
      expect(body.error?.message).toBe(message);
      expect((await api.subscription(user)).credits).toBe(500);
      expect(userFiles(user)).toEqual([]);
    },
  );

  it('a Basic user meets the tier gate before anything is read', async () => {
    const basic = await signUp(app);
    await api.buyPlan(basic, 'price_basic');
    const { status, body } = await startTryOn(basic, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    expect(status).toBe(403);
    expect(body.error?.message).toBe(messages.tryon.proOnly);
    expect(userFiles(basic)).toEqual([]);
    expect((await api.subscription(basic)).credits).toBe(50);
  });

  it("another user's try-ons answer 404", async () => {
    const stranger = await signUp(app);
    const mine = (await api.call<{ tryOns: TryOn[] }>(pro, 'GET', '/api/tryons')).body.tryOns[0]!;
    expect((await api.call(stranger, 'GET', `/api/tryons/${mine.id}`)).status).toBe(404);
    expect(
      (await api.call<{ tryOns: TryOn[] }>(stranger, 'GET', '/api/tryons')).body.tryOns,
    ).toEqual([]);
  });
});

describe('try-on on a bucket that refuses the upload', () => {
  const bucket = 'likeness-tryon';
  let s3: FakeS3;
  let bucketApp: TestApp;
  let user: SignedInUser;

  beforeAll(async () => {
    const credentials = { accessKeyId: 'AKIDTRYON', secretAccessKey: 'tryon-secret' };
    s3 = await startFakeS3({ ...credentials, buckets: [bucket] });
    bucketApp = await createTestApp({
      env: {
        STORAGE: 's3',
        S3_BUCKET: bucket,
        S3_ENDPOINT: s3.url,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      },
    });
    user = await signUp(bucketApp);
    await apiCaller(bucketApp).buyPlan(user, 'price_pro');
  });
  afterAll(async () => {
    await bucketApp?.stop();
    await s3?.close();
  });

  it('says the person image could not be uploaded, spends nothing and stores nothing', async () => {
    const before = (await apiCaller(bucketApp).subscription(user)).credits;
    s3.failNext('PutObject', 403, 'AccessDenied');
    const started = await startTryOn(
      user,
      [
        { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
        { name: 'garment', file: garment },
      ],
      bucketApp,
    );
    expect(started.status).toBe(500);
    expect(started.body.error?.message).toBe(messages.tryon.personUploadFailed);
    expect((await apiCaller(bucketApp).subscription(user)).credits).toBe(before);
    expect(await bucketApp.deps.database.db.select().from(tryOns)).toEqual([]);
    expect([...s3.bucket(bucket).keys()].filter((key) => key.includes('-uploads/'))).toEqual([]);
  });
});

describe('try-on with FASHN (over real HTTP against its fake)', () => {
  let fashn: FakeFashn;
  let remote: TestApp;
  let remoteApi: ReturnType<typeof apiCaller>;
  let user: SignedInUser;

  async function startRemote(parts: Parameters<typeof multipartBody>[0]) {
    const body = multipartBody(parts);
    const response = await remote.app!.inject({
      method: 'POST',
      url: '/api/tryons',
      headers: { ...user.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { tryOn: TryOn }).tryOn;
  }

  async function ledgerReasons(tryOnId: string) {
    const rows = await remote.deps.database.db
      .select({ reason: creditLedger.reason })
      .from(creditLedger)
      .where(eq(creditLedger.reference, `tryon:${tryOnId}`))
      .orderBy(creditLedger.id);
    return rows.map((row) => row.reason);
  }

  async function runOf(tryOnId: string) {
    const [row] = await remote.deps.database.db
      .select({ reference: tryOns.engineReference })
      .from(tryOns)
      .where(eq(tryOns.id, tryOnId));
    return row?.reference ?? null;
  }

  beforeAll(async () => {
    fashn = await startFakeFashn();
    remote = await createTestApp({ listen: true, env: fashn.env });
    remoteApi = apiCaller(remote);
    user = await signUp(remote);
    await remoteApi.buyPlan(user, 'price_pro');
  });
  afterAll(async () => {
    await remote?.stop();
    await fashn?.close();
  });

  it('ends by the webhook (token checked, state re-read from FASHN) with the result copied to our storage', async () => {
    fashn.scriptRun({ outcome: 'succeed', polls: Infinity });
    const tryOn = await startRemote([
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    const reference = await waitFor(() => runOf(tryOn.id), Boolean);
    const run = fashn.run(reference!)!;
    expect(run.inputs).toMatchObject({
      category: 'auto',
      mode: 'balanced',
      garment_photo_type: 'auto',
    });
    expect(run.webhookUrl).toContain(`tryon=${tryOn.id}`);

    // A delivery with a forged token is refused and changes nothing.
    const forged = new URL(run.webhookUrl!);
    forged.searchParams.set('token', 'forged');
    const refused = await fetch(forged, { method: 'POST', body: '{"status":"completed"}' });
    expect(refused.status).toBe(401);

    await fashn.complete(reference!);
    const done = (
      await waitFor(
        () => remoteApi.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${tryOn.id}`),
        (response) => response.body.tryOn.status !== 'processing',
      )
    ).body.tryOn;
    expect(done).toMatchObject({ status: 'completed', isPreview: false });
    expect(done.resultImageUrl).toMatch(/^\/api\/files\/users\//);
    expect(fashn.webhooks.at(-1)?.status).toBe(200);
  });

  /** Starts a try-on of person A in the T-shirt whose run FASHN fails with `errorName`. */
  async function runFailingWith(errorName: string): Promise<TryOn> {
    fashn.scriptRun({ outcome: 'fail', errorName, polls: 0 });
    const tryOn = await startRemote([
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    const ended = await waitFor(
      () => remoteApi.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${tryOn.id}`),
      (response) => response.body.tryOn.status !== 'processing',
    );
    return ended.body.tryOn;
  }

  it('maps a runtime error to words and refunds once', async () => {
    const before = (await remoteApi.subscription(user)).credits;
    const failed = await runFailingWith('PoseError');
    expect(failed).toMatchObject({ status: 'failed', failureReason: messages.tryon.errors.pose });
    expect((await remoteApi.subscription(user)).credits).toBe(before);
    expect(await ledgerReasons(failed.id)).toEqual(['tryon', 'refund']);
  });

  it('keeps the credit of a try-on the safety filter blocked, saying so', async () => {
    const before = (await remoteApi.subscription(user)).credits;
    const blocked = await runFailingWith('ContentModerationError');
    expect(blocked).toMatchObject({
      status: 'blocked',
      failureReason: messages.tryon.errors.contentModeration,
      resultImageUrl: null,
      downloadUrl: null,
    });
    expect((await remoteApi.subscription(user)).credits).toBe(before - 1);
    expect(await ledgerReasons(blocked.id)).toEqual(['tryon']);
  });
});
