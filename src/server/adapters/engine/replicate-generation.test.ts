import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeReplicate,
  replicateNsfwError,
  startFakeReplicate,
} from '../../../../tests/fakes/replicate-api.ts';
import {
  fakeJpeg,
  type FileHost,
  startFileHost,
} from '../../../../tests/fakes/provider-fake-kit.ts';
import type { ReplicateConfig } from '../../config.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
  GenerationRequest,
} from './generation-engine.ts';
import {
  createReplicateGenerationEngine,
  type ReplicateGenerationOptions,
} from './replicate-generation.ts';
import { EngineError } from './training-engine.ts';

let fake: FakeReplicate;
let config: ReplicateConfig;
let engine: GenerationEngine;
let version: string;

const fast: ReplicateGenerationOptions = { pollIntervalMs: 5, maxPollIntervalMs: 20 };

beforeAll(async () => {
  fake = await startFakeReplicate();
  config = {
    apiToken: fake.apiToken,
    webhookSecret: fake.webhookSecret,
    baseUrl: fake.baseUrl,
    trainer: fake.trainer,
    owner: fake.owner,
  };
  engine = createReplicateGenerationEngine(config, fast);
  version = fake.addVersion('likeness-mdl-gen1');
});
afterAll(async () => {
  await fake?.close();
});

let count = 0;
function generationRequest(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  count += 1;
  return {
    generationId: `gen_${count}`,
    userId: 'user_1',
    weights: version,
    triggerWord: 'lkns7x',
    gender: 'woman',
    prompt: `a professional headshot photo of lkns7x, studio lighting, take ${count}`,
    preset: null,
    ...overrides,
  };
}

const deadline = () => AbortSignal.timeout(10_000);

async function engineError(work: Promise<unknown>): Promise<EngineError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/** Requests the fake received since `from` (an index into fake.requests). */
const since = (from: number) => fake.requests.slice(from);
const lines = (from: number) => since(from).map((request) => `${request.method} ${request.path}`);

function referenceOf(outcome: GenerationOutcome): string {
  expect(outcome.reference).toEqual(expect.any(String));
  return outcome.reference!;
}

describe('Replicate generation: the request', () => {
  it('runs the trained version in sync mode and downloads the image at once', async () => {
    const from = fake.requests.length;
    const request = generationRequest();
    const outcome = await engine.generate(request, deadline());

    const create = since(from)[0]!;
    expect(`${create.method} ${create.path}`).toBe('POST /v1/predictions');
    expect(create.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    expect(create.headers.prefer).toBe('wait=60');
    expect(create.body).toEqual({
      version,
      input: {
        prompt: request.prompt,
        num_outputs: 1,
        aspect_ratio: '3:4',
        output_format: 'jpg',
        output_quality: 90,
        num_inference_steps: 28,
        guidance_scale: 3.5,
        lora_scale: 1,
        model: 'dev',
        disable_safety_checker: false,
      },
    });
    expect((create.body as { input: { prompt: string } }).input.prompt).toContain('lkns7x');

    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    const id = referenceOf(outcome);
    expect(fake.prediction(id)?.status).toBe('succeeded');
    // Sync mode answered the final object: no poll, one download.
    expect(lines(from)).toEqual(['POST /v1/predictions', `GET /delivery/${id}/out-0.jpg`]);
    expect(outcome.image.contentType).toBe('image/jpeg');
    const metadata = await sharp(outcome.image.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 768, height: 1024 });
  });

  it('polls with backoff until a slow prediction ends', async () => {
    fake.scriptPrediction({ polls: 3 });
    const from = fake.requests.length;
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome.status).toBe('succeeded');
    const id = referenceOf(outcome);
    expect(lines(from)).toEqual([
      'POST /v1/predictions',
      ...Array<string>(4).fill(`GET /v1/predictions/${id}`),
      `GET /delivery/${id}/out-0.jpg`,
    ]);
  });

  it('keeps polling through transient poll failures (5xx, 429, a malformed answer)', async () => {
    fake.scriptPrediction({ polls: 1 });
    const poll = /^GET \/v1\/predictions\//;
    fake.failNext({ match: poll, status: 503 });
    fake.failNext({ match: poll, status: 429, retryAfter: 0 });
    fake.failNext({ match: poll, malformed: true });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome.status).toBe('succeeded');
  });
});

describe('Replicate generation: blocked and failed', () => {
  it('is blocked when the safety checker filtered our only image (succeeded, empty output)', async () => {
    fake.scriptPrediction({ outcome: 'filtered', polls: 1 });
    const from = fake.requests.length;
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toEqual({ status: 'blocked', reference: expect.any(String) });
    expect(fake.prediction(outcome.reference!)).toMatchObject({ status: 'succeeded', output: [] });
    expect(lines(from).some((line) => line.includes('/delivery/'))).toBe(false);
  });

  it('is blocked when every image was NSFW (failed with "NSFW content detected")', async () => {
    fake.scriptPrediction({ outcome: 'nsfw' });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toEqual({ status: 'blocked', reference: expect.any(String) });
    expect(fake.prediction(outcome.reference!)).toMatchObject({
      status: 'failed',
      error: replicateNsfwError,
    });
  });

  it("fails with the model's error", async () => {
    fake.scriptPrediction({ outcome: 'fail', error: 'CUDA out of memory', polls: 2 });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toEqual({
      status: 'failed',
      error: 'CUDA out of memory',
      reference: expect.any(String),
    });
  });

  it.each([
    ['cancel', /canceled/],
    ['abort', /aborted/],
  ] as const)('fails readably when the prediction ends %sed', async (ending, reason) => {
    fake.scriptPrediction({ outcome: ending });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error).toMatch(reason);
  });

  it("fails with Replicate's detail when the create request is refused (a 4xx)", async () => {
    const gone = `${fake.owner}/likeness-deleted:${'0'.repeat(64)}`;
    const outcome = await engine.generate(generationRequest({ weights: gone }), deadline());
    expect(outcome).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^Replicate answered 422: .*version does not exist/),
      reference: null,
    });
  });

  it("fails when the output file cannot be downloaded or isn't an image", async () => {
    fake.scriptPrediction({ file: { status: 404, body: 'Not Found', contentType: 'text/plain' } });
    const expired = await engine.generate(generationRequest(), deadline());
    expect(expired).toMatchObject({ status: 'failed', error: expect.stringMatching(/HTTP 404/) });

    fake.scriptPrediction({ file: { body: '<html>oops</html>', contentType: 'text/html' } });
    const html = await engine.generate(generationRequest(), deadline());
    expect(html).toMatchObject({ status: 'failed', error: expect.stringMatching(/not an image/) });

    fake.scriptPrediction({ file: { body: 'not a jpeg at all', contentType: 'image/jpeg' } });
    const garbage = await engine.generate(generationRequest(), deadline());
    expect(garbage).toMatchObject({ status: 'failed', error: expect.stringMatching(/readable/) });

    const small = createReplicateGenerationEngine(config, { ...fast, maxImageBytes: 10_000 });
    const huge = await small.generate(generationRequest(), deadline());
    expect(huge).toMatchObject({ status: 'failed', error: expect.stringMatching(/larger than/) });
  });
});

describe('Replicate generation: transient trouble', () => {
  it('throws a transient error with Retry-After on a 429', async () => {
    fake.failNext({ match: 'POST /v1/predictions', status: 429, retryAfter: 7 });
    const error = await engineError(engine.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.message).toMatch(/throttled/);
  });

  it.each([
    ['a 500', { status: 500 }],
    ['a malformed answer', { malformed: true }],
  ])('throws a transient error on %s', async (_, failure) => {
    fake.failNext({ match: 'POST /v1/predictions', ...failure });
    const error = await engineError(engine.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
  });

  it('throws a transient error when the image download fails with a 5xx', async () => {
    fake.scriptPrediction({ file: { status: 503, body: 'busy', contentType: 'text/plain' } });
    const error = await engineError(engine.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
  });

  it('cancels the prediction and throws a transient error when the signal aborts', async () => {
    fake.scriptPrediction({ polls: Infinity });
    const from = fake.requests.length;
    const controller = new AbortController();
    const running = engine.generate(generationRequest(), controller.signal);
    await expect.poll(() => lines(from).length, { interval: 5 }).toBeGreaterThan(3);
    controller.abort();
    const error = await engineError(running);
    expect(error.transient).toBe(true);
    const id = (since(from)[1]!.path.split('/') as string[]).at(-1)!;
    expect(lines(from).at(-1)).toBe(`POST /v1/predictions/${id}/cancel`);
    expect(fake.prediction(id)?.status).toBe('canceled');
  });

  it('gives up after too many poll failures in a row, canceling the prediction', async () => {
    const impatient = createReplicateGenerationEngine(config, { ...fast, maxPollFailures: 1 });
    fake.scriptPrediction({ polls: Infinity });
    fake.failNext({ match: /^GET \/v1\/predictions\//, status: 502 });
    fake.failNext({ match: /^GET \/v1\/predictions\//, status: 502 });
    const from = fake.requests.length;
    const error = await engineError(impatient.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/502/);
    expect(lines(from).at(-1)).toMatch(/^POST \/v1\/predictions\/\w+\/cancel$/);
  });

  it('sends nothing when the signal has already aborted', async () => {
    const from = fake.requests.length;
    const error = await engineError(engine.generate(generationRequest(), AbortSignal.abort()));
    expect(error.transient).toBe(true);
    expect(since(from)).toEqual([]);
  });
});

describe('Replicate upscale (provider HD)', () => {
  let files: FileHost;
  let hd: GenerationEngine;
  let picture: string;

  beforeAll(async () => {
    files = await startFileHost();
    hd = createReplicateGenerationEngine({ ...config, upscaler: fake.upscaler }, fast);
    picture = files.serve('/signed/picture.jpg', {
      body: await fakeJpeg(768, 1024),
      contentType: 'image/jpeg',
    });
  });
  afterAll(async () => {
    await files?.close();
  });

  const upscaleRequest = (imageUrl: string) => ({
    generationId: 'gen_hd',
    imageUrl,
    width: 768,
    height: 1024,
  });

  it('runs the pinned real-esrgan on our signed URL ×2, without face enhancement, and downloads it', async () => {
    const from = fake.requests.length;
    const image = await hd.upscale!(upscaleRequest(picture), deadline());

    const create = since(from).find((r) => r.method === 'POST' && r.path === '/v1/predictions')!;
    expect(create.body).toEqual({
      version: `nightmareai/real-esrgan:${fake.upscaler.version}`,
      input: { image: picture, scale: 2, face_enhance: false },
    });
    // The provider fetched the picture from our URL; the answer is twice its size, downloaded.
    expect(files.hits.get('/signed/picture.jpg')).toBe(1);
    expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 1536, height: 2048 });
    expect(image.contentType).toBe('image/png');
  });

  it('is absent when no upscaler is configured (PROVIDER_HD=false)', () => {
    expect(engine.upscale).toBeUndefined();
  });

  it('tries again after a transient refusal (a 503), then succeeds', async () => {
    fake.failNext({ match: 'POST /v1/predictions', status: 503 });
    const from = fake.requests.length;
    const image = await hd.upscale!(upscaleRequest(picture), AbortSignal.timeout(15_000));
    expect((await sharp(image.bytes).metadata()).width).toBe(1536);
    expect(lines(from).filter((line) => line === 'POST /v1/predictions')).toHaveLength(2);
  });

  it('throws a final error with the reason when the prediction cannot fetch the picture', async () => {
    const expired = files.serve('/signed/expired.jpg', {
      status: 403,
      body: 'Request has expired',
      contentType: 'text/plain',
    });
    const from = fake.requests.length;
    const error = await engineError(hd.upscale!(upscaleRequest(expired), deadline()));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/upscale failed on Replicate: Failed to download .*403/);
    // A final failure is not tried again.
    expect(since(from).filter((r) => r.path === '/v1/predictions')).toHaveLength(1);
  });

  it('throws a final error when the provider refuses the input (422)', async () => {
    const error = await engineError(hd.upscale!(upscaleRequest('not a url'), deadline()));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/input\.image/);
  });
});

describe('Replicate training preview (PuLID-FLUX)', () => {
  let files: FileHost;
  let previews: GenerationEngine;
  let face: string;

  /** A photo of one flat colour, so the preview can be told to come from it. */
  const photo = (red: number, green: number, blue: number) =>
    sharp({
      create: { width: 600, height: 800, channels: 3, background: { r: red, g: green, b: blue } },
    })
      .jpeg()
      .toBuffer();

  beforeAll(async () => {
    files = await startFileHost();
    previews = createReplicateGenerationEngine({ ...config, previewer: fake.previewer }, fast);
    face = files.serve('/signed/best-face.jpg', {
      body: await photo(200, 40, 40),
      contentType: 'image/jpeg',
    });
    files.serve('/signed/second-face.jpg', {
      body: await photo(40, 40, 200),
      contentType: 'image/jpeg',
    });
  });
  afterAll(async () => {
    await files?.close();
  });

  const previewRequest = (photos: string[]) => ({
    previewId: 'preview_1',
    userId: 'user_1',
    gender: 'woman' as const,
    photos: photos.map((url, index) => ({ key: `users/user_1/photo-${index}.jpg`, url })),
    prompt: 'portrait photo of the woman, soft light',
    preset: { id: 'studio-1', scene: null },
  });

  it('runs the pinned PuLID-FLUX on the best photo with the plain-subject prompt and downloads a 4:5 picture made from it', async () => {
    const from = fake.requests.length;
    const outcome = await previews.preview!(
      previewRequest([face, `${files.url}/signed/second-face.jpg`]),
      deadline(),
    );

    const create = since(from).find((r) => r.method === 'POST' && r.path === '/v1/predictions')!;
    expect(create.headers.prefer).toBe('wait=60');
    expect(create.body).toEqual({
      version: `bytedance/flux-pulid:${fake.previewer.version}`,
      input: {
        main_face_image: face,
        prompt: 'portrait photo of the woman, soft light',
        width: 768,
        height: 960,
        num_steps: 20,
        start_step: 4,
        guidance_scale: 4,
        id_weight: 1,
        true_cfg: 1,
        num_outputs: 1,
        output_format: 'jpg',
        output_quality: 90,
      },
    });
    // Only the best photo was fetched by the provider, and the picture is made from it (red).
    expect(files.hits.get('/signed/best-face.jpg')).toBe(1);
    expect(files.hits.get('/signed/second-face.jpg')).toBeUndefined();
    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    expect(fake.prediction(outcome.reference!)?.status).toBe('succeeded');
    expect(outcome.image.contentType).toBe('image/jpeg');
    expect(await sharp(outcome.image.bytes).metadata()).toMatchObject({ width: 768, height: 960 });
    const { channels } = await sharp(outcome.image.bytes).stats();
    expect(channels[0]!.mean).toBeGreaterThan(150);
    expect(channels[2]!.mean).toBeLessThan(90);
  });

  it('is absent when no previewer is configured (TRAINING_PREVIEWS=false)', () => {
    expect(engine.preview).toBeUndefined();
  });

  it('is blocked when Replicate reports NSFW content, and downloads nothing', async () => {
    fake.scriptPreview({ outcome: 'nsfw' });
    const from = fake.requests.length;
    const outcome = await previews.preview!(previewRequest([face]), deadline());
    expect(outcome.status).toBe('blocked');
    expect(lines(from).some((line) => line.startsWith('GET /delivery/'))).toBe(false);
  });

  it('fails with the reason when the provider cannot fetch the photo (an expired signed URL)', async () => {
    const expired = files.serve('/signed/expired-face.jpg', {
      status: 403,
      body: 'Request has expired',
      contentType: 'text/plain',
    });
    const outcome = await previews.preview!(previewRequest([expired]), deadline());
    expect(outcome).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/Failed to download .*403/),
    });
  });

  it('fails with the validation detail when the input is refused (422), and asks nothing without a photo', async () => {
    const refused = await previews.preview!(previewRequest(['not a url']), deadline());
    expect(refused).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/main_face_image/),
    });

    const from = fake.requests.length;
    const none = await previews.preview!(previewRequest([]), deadline());
    expect(none.status).toBe('failed');
    expect(since(from)).toEqual([]);
  });

  it('throws a transient error when Replicate is overloaded (503), for the job to retry', async () => {
    fake.failNext({ match: 'POST /v1/predictions', status: 503 });
    const error = await engineError(previews.preview!(previewRequest([face]), deadline()));
    expect(error.transient).toBe(true);
  });
});
