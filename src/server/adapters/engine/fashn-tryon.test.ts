import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFashn, fakePng, startFakeFashn } from '../../../../tests/fakes/fashn-api.ts';
import {
  type FileHost,
  fakeJpeg,
  startFileHost,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../../tests/fakes/provider-fake-kit.ts';
import { engineError, requestLog } from '../../../../tests/helpers/provider-engines.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { loadConfig } from '../../config.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { createTryOnEngine } from './create-tryon-engine.ts';
import { createFashnTryOnEngine, fashnWebhookToken } from './fashn-tryon.ts';
import {
  makesPreviews,
  type TryOnEngine,
  type TryOnRequest,
  type TryOnState,
} from './tryon-engine.ts';

let fake: FakeFashn;
let files: FileHost;
let receiver: WebhookReceiver;
let engine: TryOnEngine;
const webhookSecret = 'fashn-webhook-test-secret';
let personUrl: string;
let garmentUrl: string;

beforeAll(async () => {
  [fake, files, receiver] = await Promise.all([
    startFakeFashn(),
    startFileHost(),
    startWebhookReceiver(),
  ]);
  engine = createFashnTryOnEngine(
    { apiKey: fake.apiKey, baseUrl: `${fake.baseUrl}/`, webhookSecret },
    { requestTimeoutMs: 5000 },
  );
  const image = await fakeJpeg(96, 128);
  personUrl = files.serve('/u/user_1/person.jpg', { body: image, contentType: 'image/jpeg' });
  garmentUrl = files.serve('/u/user_1/garment.jpg', { body: image, contentType: 'image/jpeg' });
});
afterAll(async () => {
  await Promise.all([fake?.close(), files?.close(), receiver?.close()]);
});

let count = 0;
function tryOnRequest(overrides: Partial<TryOnRequest> = {}): TryOnRequest {
  count += 1;
  return {
    tryOnId: `try_${count}`,
    userId: 'user_1',
    personUrl,
    personKey: 'users/user_1/tryon/person.jpg',
    garmentUrl,
    garmentKey: 'users/user_1/tryon/garment.jpg',
    options: { category: 'auto', mode: 'balanced', garmentPhotoType: 'auto' },
    webhookUrl: null,
    ...overrides,
  };
}

const { since } = requestLog(() => fake);

/** Starts a try-on and polls until it ends (the fake advances on polls). */
async function run(overrides: Partial<TryOnRequest> = {}): Promise<TryOnState> {
  const { reference } = await engine.start(tryOnRequest(overrides));
  for (let poll = 0; poll < 10; poll++) {
    const state = await engine.status(reference!);
    if (state.status !== 'running') return state;
  }
  throw new Error('the try-on never ended');
}

describe('FASHN try-on: the run', () => {
  it("sends the spec's run request, with the webhook URL and its token, and downloads the output at once", async () => {
    const from = fake.requests.length;
    const request = tryOnRequest();
    const webhookUrl = engine.webhookUrl(`${receiver.url}/api/tryon/webhook`, request.tryOnId);
    expect(webhookUrl).toBe(
      `${receiver.url}/api/tryon/webhook?tryon=${request.tryOnId}&token=${fashnWebhookToken(webhookSecret, request.tryOnId)}`,
    );
    const started = await engine.start({ ...request, webhookUrl });
    expect(started).toEqual({ reference: expect.stringMatching(/-u1$/) });

    const [runRequest] = since(from);
    expect(runRequest).toMatchObject({
      method: 'POST',
      path: '/v1/run',
      query: { webhook_url: webhookUrl },
    });
    expect(runRequest!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(runRequest!.headers['content-type']).toBe('application/json');
    expect(runRequest!.body).toEqual({
      model_name: 'tryon-v1.6',
      inputs: {
        model_image: personUrl,
        garment_image: garmentUrl,
        category: 'auto',
        mode: 'balanced',
        garment_photo_type: 'auto',
        moderation_level: 'conservative',
        num_samples: 1,
        segmentation_free: true,
        output_format: 'png',
        return_base64: false,
      },
    });
    // FASHN runs it with the stricter moderation, not its permissive default.
    expect(fake.run(started.reference!)?.moderationLevel).toBe('conservative');
    const state = await engine.status(started.reference!);
    expect(state.status).toBe('succeeded');
    if (state.status !== 'succeeded') return;
    expect(state.image.contentType).toBe('image/png');
    // (equals, not toEqual: a deep comparison of a megabyte buffer takes seconds)
    expect(state.image.bytes.equals(await fakePng())).toBe(true);
    // The service fetched both images.
    expect(files.hits.get('/u/user_1/person.jpg')).toBeGreaterThan(0);
    expect(files.hits.get('/u/user_1/garment.jpg')).toBeGreaterThan(0);
    expect(since(from).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/run',
      `GET /v1/status/${started.reference}`,
      `GET /cdn/${started.reference}/output_0.png`,
    ]);

    // FASHN posted the status body, unsigned, to our URL: the token there names the try-on.
    const delivery = receiver.received.at(-1)!;
    expect(JSON.parse(delivery.rawBody.toString())).toEqual(fake.prediction(started.reference!));
    expect(engine.readWebhook(delivery)).toBe(request.tryOnId);
  });

  it('sends no webhook_url without one', async () => {
    const from = fake.requests.length;
    await engine.start(tryOnRequest());
    expect(since(from)[0]!.query).toEqual({});
  });

  it('reports running while the prediction is starting, queued or processing', async () => {
    fake.scriptRun({ polls: 2 });
    const { reference } = await engine.start(tryOnRequest());
    expect(fake.prediction(reference!)!.status).toBe('starting');
    expect(await engine.status(reference!)).toEqual({ status: 'running' });
    expect(fake.prediction(reference!)!.status).toBe('in_queue');
    expect(await engine.status(reference!)).toEqual({ status: 'running' });
    expect(fake.prediction(reference!)!.status).toBe('processing');
    expect((await engine.status(reference!)).status).toBe('succeeded');
  });

  it('reads a prediction a webhook announced (completed without polls)', async () => {
    fake.scriptRun({ polls: Infinity });
    const request = tryOnRequest();
    const { reference } = await engine.start({
      ...request,
      webhookUrl: engine.webhookUrl(`${receiver.url}/hook`, request.tryOnId),
    });
    const received = receiver.received.length;
    await fake.complete(reference!);
    expect(receiver.received.length).toBe(received + 1);
    expect(engine.readWebhook(receiver.received.at(-1)!)).toBe(request.tryOnId);
    expect((await engine.status(reference!)).status).toBe('succeeded');
  });
});

describe('FASHN try-on: outcomes', () => {
  it.each([
    ['ImageLoadError', tryonMessages.errors.imageLoad],
    ['PoseError', tryonMessages.errors.pose],
    ['InputValidationError', tryonMessages.errors.generic],
    ['3rdPartyProviderError', tryonMessages.errors.generic],
    ['constructor', tryonMessages.errors.generic],
  ])('maps the runtime error %s to its words', async (errorName, words) => {
    fake.scriptRun({ outcome: 'fail', errorName });
    expect(await run()).toEqual({ status: 'failed', error: words });
  });

  it('marks a PipelineError worth another run (FASHN: "Retry; failures are not charged")', async () => {
    fake.scriptRun({ outcome: 'fail', errorName: 'PipelineError' });
    expect(await run()).toEqual({
      status: 'failed',
      error: tryonMessages.errors.generic,
      retry: true,
    });
  });

  it('reports a ContentModerationError as blocked by the safety filter', async () => {
    fake.scriptRun({ outcome: 'fail', errorName: 'ContentModerationError' });
    expect(await run()).toEqual({
      status: 'failed',
      error: tryonMessages.errors.contentModeration,
      blocked: true,
    });
  });

  it('fails a canceled prediction with the generic words', async () => {
    fake.scriptRun({ outcome: 'cancel' });
    expect(await run()).toEqual({ status: 'failed', error: tryonMessages.errors.generic });
  });

  it("fails with ImageLoadError's words when the service cannot load an image", async () => {
    const text = files.serve('/u/user_1/notes.jpg', { body: 'hello', contentType: 'text/plain' });
    const expired = files.serve('/u/user_1/expired.jpg', {
      status: 403,
      body: 'Request has expired',
      contentType: 'text/plain',
    });
    for (const overrides of [{ garmentUrl: text }, { personUrl: expired }]) {
      const state = await run(overrides);
      expect(state).toEqual({ status: 'failed', error: tryonMessages.errors.imageLoad });
    }
  });

  it('fails when the output is gone or not an image, and retries a CDN hiccup', async () => {
    fake.scriptRun({ file: { status: 404, body: 'Not Found', contentType: 'text/plain' } });
    expect(await run()).toEqual({ status: 'failed', error: tryonMessages.errors.generic });
    fake.scriptRun({ file: { body: '<html></html>', contentType: 'text/html' } });
    expect(await run()).toEqual({ status: 'failed', error: tryonMessages.errors.generic });
    fake.scriptRun({ file: { status: 503, body: 'busy', contentType: 'text/plain' } });
    const error = await engineError(run());
    expect(error.transient).toBe(true);
  });
});

describe('FASHN try-on: API errors', () => {
  it.each([
    [{ status: 429, detail: 'RateLimitExceeded', retryAfter: 7 }, /RateLimitExceeded/],
    [{ status: 429, detail: 'ConcurrencyLimitExceeded' }, /ConcurrencyLimitExceeded/],
    [{ status: 500 }, /InternalServerError/],
    [{ status: 503 }, /503/],
    [{ malformed: true }, /unreadable/],
    [{ hang: true }, /did not answer within/],
  ])('is transient on %o', async (failure, message) => {
    fake.failNext({ match: 'POST /v1/run', ...failure });
    const impatient = createFashnTryOnEngine(
      { apiKey: fake.apiKey, baseUrl: fake.baseUrl, webhookSecret },
      { requestTimeoutMs: 500 },
    );
    const error = await engineError(impatient.start(tryOnRequest()));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(message);
    if ('retryAfter' in failure) expect(error.retryAfterSeconds).toBe(7);
  });

  it('is transient when a status poll fails the same ways', async () => {
    const { reference } = await engine.start(tryOnRequest());
    for (const failure of [{ status: 429 }, { status: 502 }, { malformed: true }]) {
      fake.failNext({ match: 'GET /v1/status', ...failure });
      expect((await engineError(engine.status(reference!))).transient).toBe(true);
    }
    expect((await engine.status(reference!)).status).toBe('succeeded');
  });

  it('is final when our account is out of credits', async () => {
    fake.failNext({ match: 'POST /v1/run', status: 429, detail: 'OutOfCredits' });
    const error = await engineError(engine.start(tryOnRequest()));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/OutOfCredits/);
  });

  it('is final on a refused request, a wrong key or an unknown prediction', async () => {
    const invalid = await engineError(engine.start(tryOnRequest({ personUrl: 'not a url' })));
    expect(invalid).toMatchObject({ transient: false });
    expect(invalid.message).toMatch(/400: BadRequest: inputs\.model_image is invalid/);

    const wrongKey = createFashnTryOnEngine({
      apiKey: 'fa-wrong',
      baseUrl: fake.baseUrl,
      webhookSecret,
    });
    const unauthorized = await engineError(wrongKey.start(tryOnRequest()));
    expect(unauthorized).toMatchObject({ transient: false });
    expect(unauthorized.message).toMatch(/401: UnauthorizedAccess/);

    const unknown = await engineError(engine.status('00000000-0000-0000-0000-000000000000-u1'));
    expect(unknown).toMatchObject({ transient: false });
    expect(unknown.message).toMatch(/404: NotFound/);
  });

  it('is transient when FASHN cannot be reached', async () => {
    const nowhere = createFashnTryOnEngine({
      apiKey: fake.apiKey,
      baseUrl: 'http://127.0.0.1:1',
      webhookSecret,
    });
    expect((await engineError(nowhere.start(tryOnRequest()))).transient).toBe(true);
  });
});

describe('FASHN try-on: webhook tokens', () => {
  const delivery = (query: Record<string, string | undefined>) => ({
    headers: { 'content-type': 'application/json' },
    query,
    rawBody: Buffer.from('{"id":"x","status":"completed"}'),
  });

  it('accepts the token it made for the try-on', () => {
    const url = new URL(engine.webhookUrl('https://app.example/api/tryon/webhook', 'try_abc'));
    expect(engine.readWebhook(delivery(Object.fromEntries(url.searchParams)))).toBe('try_abc');
  });

  it('keeps a query the base URL already has', () => {
    const url = new URL(engine.webhookUrl('https://app.example/hook?v=1', 'try_abc'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      v: '1',
      tryon: 'try_abc',
      token: fashnWebhookToken(webhookSecret, 'try_abc'),
    });
  });

  it('refuses a forged, missing or foreign token', () => {
    const token = fashnWebhookToken(webhookSecret, 'try_abc');
    for (const query of [
      { tryon: 'try_abc', token: 'A'.repeat(token.length) }, // forged
      { tryon: 'try_abc', token: `${token}x` }, // another length
      { tryon: 'try_abc', token: fashnWebhookToken('another-secret', 'try_abc') },
      { tryon: 'try_abc' }, // missing
      { tryon: 'try_abc', token: '' },
      { token }, // no try-on id
      { tryon: 'try_other', token }, // the token of another try-on
    ])
      expect(engine.readWebhook(delivery(query))).toBeNull();
  });
});

describe('try-on engine choice', () => {
  it('builds the engine TRYON_ENGINE names', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-tryon-choice-'));
    try {
      const storage = new LocalStorage({
        root: path.join(dataDir, 'storage'),
        secret: 'choice-test-secret',
        defaultTtlSeconds: 3600,
        publicPath: '/api/files',
      });
      expect(createTryOnEngine(loadConfig({ DATA_DIR: dataDir }), storage).name).toBe('local');
      const fashn = createTryOnEngine(loadConfig({ ...fake.env, DATA_DIR: dataDir }), storage);
      expect(fashn).toMatchObject({ name: 'fashn', inProcess: false });
      expect(makesPreviews(fashn.name)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
