import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TryOn } from '../../../common/api/tryon.ts';
import { generationMessages } from '../../../common/messages/generation.ts';
import { validationMessages } from '../../../common/messages/studio.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { tryOn as tryOnNumbers } from '../../../common/product/tryon.ts';
import { creditLedger, subscriptions, tryOns } from '../../db/schema/index.ts';
import { startFakeFashn, type FakeFashn } from '../../../../tests/fakes/fashn-api.ts';
import { startFakeS3, type FakeS3 } from '../../../../tests/fakes/s3-api.ts';
import { apiCaller, photoFixtures, waitFor } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../../tests/helpers/test-app.ts';
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
    const sentAt = Date.now();
    const started = await startTryOn(pro, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    const answeredInMs = Date.now() - sentAt;
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // The local engine works in-process: the start answer waits for it, up to
    // startAnswerWaitMs. Only an answer that took that long may say it is still processing (a
    // CI machine running every test stage at once can be that slow).
    expect(
      answeredInMs >= tryOnNumbers.startAnswerWaitMs ? ['completed', 'processing'] : ['completed'],
    ).toContain(started.body.tryOn?.status);
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

  it('puts a white garment cut out on a transparent PNG on the person', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
      <path d="M250 150 L330 110 Q400 160 470 110 L550 150 L680 260 L600 340 L560 300 L560 700 L240 700 L240 300 L200 340 L120 260 Z" fill="#fbfbf8"/>
    </svg>`;
    const cutOut = await sharp(Buffer.from(svg)).png().toBuffer();
    const started = await startTryOn(pro, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: cutOut, filename: 'white-shirt.png' },
    ]);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const done = await tryOnWhen(pro, started.body.tryOn!.id);
    expect(done).toMatchObject({ status: 'completed', failureReason: null });
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

describe('the results list', () => {
  it('pages past the first 50, newest first, each labelled by the engine that made it', async () => {
    const user = await signUp(app);
    // Recorded directly: making 51 try-ons through the engine would take minutes.
    const count = tryOnNumbers.listPageSize + 1;
    const start = Date.now() - count * 60_000;
    await app.deps.database.db.insert(tryOns).values(
      Array.from({ length: count }, (_, index) => ({
        id: `tryon-page-${String(index).padStart(3, '0')}`,
        userId: user.id,
        personKey: `users/${user.id}/person-uploads/${index}.jpg`,
        garmentKey: `users/${user.id}/garment-uploads/${index}.jpg`,
        status: 'failed',
        failureReason: tryonMessages.errors.generic,
        // The oldest was made by FASHN, before the setting changed to local.
        engine: index === 0 ? 'fashn' : 'local',
        createdAt: new Date(start + index * 60_000),
      })),
    );
    type Page = { tryOns: TryOn[]; nextCursor: string | null };
    const first = (await api.call<Page>(user, 'GET', '/api/tryons')).body;
    expect(first.tryOns).toHaveLength(tryOnNumbers.listPageSize);
    expect(first.tryOns[0]!.id).toBe(`tryon-page-${String(count - 1).padStart(3, '0')}`);
    expect(first.tryOns.every((tryOn) => tryOn.isPreview)).toBe(true);
    expect(first.nextCursor).toBe(first.tryOns.at(-1)!.id);

    const second = (
      await api.call<Page>(
        user,
        'GET',
        `/api/tryons?cursor=${encodeURIComponent(first.nextCursor!)}`,
      )
    ).body;
    expect(second.tryOns.map((tryOn) => [tryOn.id, tryOn.isPreview])).toEqual([
      ['tryon-page-000', false],
    ]);
    expect(second.nextCursor).toBeNull();

    // Another user's cursor finds nothing of theirs.
    const stranger = await signUp(app);
    const foreign = await api.call<Page>(stranger, 'GET', `/api/tryons?cursor=${first.nextCursor}`);
    expect(foreign.body.tryOns).toEqual([]);
  });
});

describe('refusals that change nothing', () => {
  const cases: [string, () => Parameters<typeof multipartBody>[0], number, string][] = [
    [
      'no garment',
      () => [{ name: 'person', file: readFileSync(photoFixtures.personA(2)) }],
      400,
      tryonMessages.selectBoth,
    ],
    ['no person', () => [{ name: 'garment', file: garment }], 400, tryonMessages.selectBoth],
    [
      'a garment that is not an image',
      () => [
        { name: 'person', file: readFileSync(photoFixtures.personA(2)) },
        { name: 'garment', file: Buffer.from('just some text, named like a picture') },
      ],
      415,
      validationMessages.reasons.unsupportedType,
    ],
    [
      'a garment over 10 MB',
      () => [
        { name: 'person', file: readFileSync(photoFixtures.personA(2)) },
        { name: 'garment', file: overTenMegabyteJpeg() },
      ],
      413,
      validationMessages.reasons.fileTooLarge,
    ],
    [
      "a generation that is not the user's",
      () => [
        { name: 'personGenerationId', value: 'someone-elses-generation' },
        { name: 'garment', file: garment },
      ],
      404,
      generationMessages.detail.notFound,
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

  it('a Pro user whose subscription lapsed is asked for an active one, after the pictures', async () => {
    const lapsed = await signUp(app);
    await api.buyPlan(lapsed, 'price_pro');
    await app.deps.database.db
      .update(subscriptions)
      .set({ active: false })
      .where(eq(subscriptions.userId, lapsed.id));
    const noGarment = await startTryOn(lapsed, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
    ]);
    expect(noGarment.body.error?.message).toBe(tryonMessages.selectBoth);
    const { status, body } = await startTryOn(lapsed, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    expect(status).toBe(402);
    expect(body.error?.message).toBe(generationMessages.needSubscription);
    expect(userFiles(lapsed)).toEqual([]);
    expect(
      await app.deps.database.db.select().from(tryOns).where(eq(tryOns.userId, lapsed.id)),
    ).toEqual([]);
  });

  it('a Basic user meets the tier gate before anything is read', async () => {
    const basic = await signUp(app);
    await api.buyPlan(basic, 'price_basic');
    const { status, body } = await startTryOn(basic, [
      { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
      { name: 'garment', file: garment },
    ]);
    expect(status).toBe(403);
    expect(body.error?.message).toBe(tryonMessages.proOnly);
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
        ...s3.appEnv(bucket),
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
    expect(started.body.error?.message).toBe(tryonMessages.personUploadFailed);
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

  async function ended(tryOnId: string): Promise<TryOn> {
    return (
      await waitFor(
        () => remoteApi.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${tryOnId}`),
        (response) => response.body.tryOn.status !== 'processing',
      )
    ).body.tryOn;
  }

  async function storedRow(tryOnId: string) {
    const [row] = await remote.deps.database.db.select().from(tryOns).where(eq(tryOns.id, tryOnId));
    return row;
  }

  const personAndShirt = () => [
    { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
    { name: 'garment', file: garment },
  ];

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

  it('ends once with its image when the webhook comes several times at once while the poller polls', async () => {
    const before = (await remoteApi.subscription(user)).credits;
    fashn.scriptRun({ outcome: 'succeed', polls: Infinity });
    const tryOn = await startRemote(personAndShirt());
    const reference = (await waitFor(() => runOf(tryOn.id), Boolean))!;
    fashn.loseWebhooks = true;
    await fashn.complete(reference);
    fashn.loseWebhooks = false;
    // FASHN's retries and the poller all see "completed" together: each stores a copy and tries
    // to end the try-on.
    const deliveries = await Promise.all([1, 2, 3, 4].map(() => fashn.redeliver(reference)));
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200]);

    const done = await ended(tryOn.id);
    expect(done.status).toBe('completed');
    const image = await remote.app!.inject({ method: 'GET', url: done.resultImageUrl! });
    expect(image.statusCode).toBe(200);
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');
    const results = path.join(remote.config.storage.localDir, 'users', user.id, 'tryon-results');
    expect(readdirSync(results).filter((name) => name.startsWith(tryOn.id))).toHaveLength(1);
    expect((await remoteApi.subscription(user)).credits).toBe(before - 1);
    expect(await ledgerReasons(tryOn.id)).toEqual(['tryon']);

    // A replay later changes nothing.
    const stored = await storedRow(tryOn.id);
    expect((await fashn.redeliver(reference)).status).toBe(200);
    expect(await storedRow(tryOn.id)).toEqual(stored);
  });

  it('ends by polling FASHN when the webhook is lost', async () => {
    fashn.loseWebhooks = true;
    try {
      fashn.scriptRun({ outcome: 'succeed', polls: 2 });
      const tryOn = await startRemote(personAndShirt());
      const done = await ended(tryOn.id);
      expect(done).toMatchObject({ status: 'completed', isPreview: false });
      const reference = await runOf(tryOn.id);
      expect(fashn.webhooks.filter((hook) => hook.runId === reference)).toMatchObject([
        { status: 0 },
      ]);
      expect(await ledgerReasons(tryOn.id)).toEqual(['tryon']);
    } finally {
      fashn.loseWebhooks = false;
    }
  });

  it('starts a new run after a PipelineError (FASHN: retry, not charged) and spends 1 credit', async () => {
    const runs = () => fashn.requests.filter((request) => request.path === '/v1/run').length;
    const runsBefore = runs();
    fashn.scriptRun({ outcome: 'fail', errorName: 'PipelineError', polls: 0 });
    fashn.scriptRun({ outcome: 'succeed', polls: 0 });
    const tryOn = await startRemote(personAndShirt());
    const done = await ended(tryOn.id);
    expect(done).toMatchObject({ status: 'completed', failureReason: null });
    expect(runs()).toBe(runsBefore + 2);
    expect(await ledgerReasons(tryOn.id)).toEqual(['tryon']);
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
    expect(failed).toMatchObject({ status: 'failed', failureReason: tryonMessages.errors.pose });
    expect((await remoteApi.subscription(user)).credits).toBe(before);
    expect(await ledgerReasons(failed.id)).toEqual(['tryon', 'refund']);

    // FASHN delivering the failure again (twice at once) refunds nothing more.
    const reference = (await runOf(failed.id))!;
    const again = await Promise.all([fashn.redeliver(reference), fashn.redeliver(reference)]);
    expect(again.map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(await ledgerReasons(failed.id)).toEqual(['tryon', 'refund']);
    expect((await remoteApi.subscription(user)).credits).toBe(before);
  });

  it('keeps the credit of a try-on the safety filter blocked, saying so', async () => {
    const before = (await remoteApi.subscription(user)).credits;
    const blocked = await runFailingWith('ContentModerationError');
    expect(blocked).toMatchObject({
      status: 'blocked',
      failureReason: tryonMessages.errors.contentModeration,
      resultImageUrl: null,
      downloadUrl: null,
    });
    expect((await remoteApi.subscription(user)).credits).toBe(before - 1);
    expect(await ledgerReasons(blocked.id)).toEqual(['tryon']);
  });
});

// A web process (ROLE=web) sends jobs but runs none: the try-ons stay as a dead job left them.
// Separate processes share a Postgres server, so this needs TEST_DATABASE_URL (CI runs it there).
describe.skipIf(!usesPostgres)(
  'FASHN try-ons whose job has not run (a web process, no worker)',
  () => {
    let fashn: FakeFashn;
    let web: TestApp;
    let webApi: ReturnType<typeof apiCaller>;
    let user: SignedInUser;

    beforeAll(async () => {
      fashn = await startFakeFashn();
      web = await createTestApp({ listen: true, env: { ...fashn.env, ROLE: 'web' } });
      webApi = apiCaller(web);
      user = await signUp(web);
      await webApi.buyPlan(user, 'price_pro');
    });
    afterAll(async () => {
      await web?.stop();
      await fashn?.close();
    });

    async function startStalled(): Promise<TryOn> {
      const started = await startTryOn(
        user,
        [
          { name: 'person', file: readFileSync(photoFixtures.personA(1)) },
          { name: 'garment', file: garment },
        ],
        web,
      );
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      expect(started.body.tryOn!.status).toBe('processing');
      return started.body.tryOn!;
    }

    const webhookUrl = (tryOnId: string) =>
      web.deps.tryOn.engine.webhookUrl(`${web.config.publicUrl}/api/webhooks/tryon/fashn`, tryOnId);

    /** What a worker in another process does first: start the run at FASHN and record its id. */
    async function startRun(tryOnId: string): Promise<string> {
      const [row] = await web.deps.database.db.select().from(tryOns).where(eq(tryOns.id, tryOnId));
      const url = async (key: string) =>
        new URL(await web.deps.storage.signedUrl(key), web.config.publicUrl).toString();
      const started = await web.deps.tryOn.engine.start({
        tryOnId,
        userId: row!.userId,
        personUrl: await url(row!.personKey),
        personKey: row!.personKey,
        garmentUrl: await url(row!.garmentKey),
        garmentKey: row!.garmentKey,
        options: tryOnNumbers.engineOptions,
        webhookUrl: webhookUrl(tryOnId),
      });
      await web.deps.database.db
        .update(tryOns)
        .set({ engineReference: started.reference })
        .where(eq(tryOns.id, tryOnId));
      return started.reference!;
    }

    async function current(tryOnId: string): Promise<TryOn> {
      return (await webApi.call<{ tryOn: TryOn }>(user, 'GET', `/api/tryons/${tryOnId}`)).body
        .tryOn;
    }

    async function ledgerReasons(tryOnId: string) {
      const rows = await web.deps.database.db
        .select({ reason: creditLedger.reason })
        .from(creditLedger)
        .where(eq(creditLedger.reference, `tryon:${tryOnId}`))
        .orderBy(creditLedger.id);
      return rows.map((row) => row.reason);
    }

    /** As if the try-on had started longer ago than the sweep waits. */
    async function makeStale(tryOnId: string) {
      await web.deps.database.db
        .update(tryOns)
        .set({ createdAt: new Date(Date.now() - (tryOnNumbers.staleAfterMinutes + 1) * 60_000) })
        .where(eq(tryOns.id, tryOnId));
    }

    it('answers a webhook that comes before the run is recorded with 503, so FASHN delivers it again', async () => {
      const tryOn = await startStalled();
      const early = await fetch(webhookUrl(tryOn.id), { method: 'POST', body: '{}' });
      expect(early.status).toBe(503);
      expect((await current(tryOn.id)).status).toBe('processing');

      const reference = await startRun(tryOn.id);
      fashn.loseWebhooks = true;
      await fashn.complete(reference);
      fashn.loseWebhooks = false;
      expect((await fashn.redeliver(reference)).status).toBe(200);
      const done = await current(tryOn.id);
      expect(done.status).toBe('completed');
      expect((await web.app!.inject({ method: 'GET', url: done.resultImageUrl! })).statusCode).toBe(
        200,
      );
    });

    it("the sweep settles a stale try-on with FASHN's result when FASHN has one", async () => {
      const tryOn = await startStalled();
      const reference = await startRun(tryOn.id);
      fashn.loseWebhooks = true;
      await fashn.complete(reference);
      fashn.loseWebhooks = false;

      expect(await web.deps.tryOn.service.sweep()).toBe(0); // not stale yet
      expect((await current(tryOn.id)).status).toBe('processing');
      await makeStale(tryOn.id);
      expect(await web.deps.tryOn.service.sweep()).toBe(1);
      const done = await current(tryOn.id);
      expect(done.status).toBe('completed');
      expect((await web.app!.inject({ method: 'GET', url: done.resultImageUrl! })).statusCode).toBe(
        200,
      );
      expect(await ledgerReasons(tryOn.id)).toEqual(['tryon']);
    });

    it('the sweep fails a stale try-on FASHN never finished (or never started) and refunds it once', async () => {
      const before = (await webApi.subscription(user)).credits;
      const neverStarted = await startStalled();
      fashn.scriptRun({ outcome: 'succeed', polls: Infinity });
      const stillRunning = await startStalled();
      await startRun(stillRunning.id);
      await makeStale(neverStarted.id);
      await makeStale(stillRunning.id);

      expect(await web.deps.tryOn.service.sweep()).toBe(2);
      expect(await web.deps.tryOn.service.sweep()).toBe(0);
      for (const tryOn of [neverStarted, stillRunning]) {
        expect(await current(tryOn.id)).toMatchObject({
          status: 'failed',
          failureReason: tryonMessages.errors.timedOut,
          resultImageUrl: null,
        });
        expect(await ledgerReasons(tryOn.id)).toEqual(['tryon', 'refund']);
      }
      expect((await webApi.subscription(user)).credits).toBe(before);
    });
  },
);
