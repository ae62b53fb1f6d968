import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeReplicate,
  replicateConfig,
  replicateNsfwError,
  startFakeReplicate,
} from '../../../../tests/fakes/replicate-api.ts';
import { describeGenerationProviderContract } from '../../../../tests/helpers/generation-provider-contract.ts';
import {
  deadline,
  engineError,
  generationRequests,
  requestLog,
} from '../../../../tests/helpers/provider-engines.ts';
import type { ReplicateConfig } from '../../config.ts';
import type { GenerationEngine, GenerationOutcome } from './generation-engine.ts';
import {
  createReplicateGenerationEngine,
  type ReplicateGenerationOptions,
} from './replicate-generation.ts';

let fake: FakeReplicate;
let config: ReplicateConfig;
let engine: GenerationEngine;
let version: string;

const fast: ReplicateGenerationOptions = { pollIntervalMs: 5, maxPollIntervalMs: 20 };

beforeAll(async () => {
  fake = await startFakeReplicate();
  config = replicateConfig(fake);
  engine = createReplicateGenerationEngine(config, fast);
  version = fake.addVersion('likeness-mdl-gen1');
});
afterAll(async () => {
  await fake?.close();
});

const generationRequest = generationRequests(() => ({ weights: version, gender: 'woman' }));

/** Requests the fake received since `from` (an index into fake.requests). */
const { since, lines } = requestLog(() => fake);

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

  it('fails when the output file is not a readable image or is too large', async () => {
    fake.scriptPrediction({ file: { body: 'not a jpeg at all', contentType: 'image/jpeg' } });
    const garbage = await engine.generate(generationRequest(), deadline());
    expect(garbage).toMatchObject({ status: 'failed', error: expect.stringMatching(/readable/) });

    const small = createReplicateGenerationEngine(config, { ...fast, maxImageBytes: 10_000 });
    const huge = await small.generate(generationRequest(), deadline());
    expect(huge).toMatchObject({ status: 'failed', error: expect.stringMatching(/larger than/) });
  });
});

describe('Replicate generation: transient trouble', () => {
  it('throws a transient error when the image download fails with a 5xx', async () => {
    fake.scriptPrediction({ file: { status: 503, body: 'busy', contentType: 'text/plain' } });
    const error = await engineError(engine.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
  });

  it('sends nothing when the signal has already aborted', async () => {
    const from = fake.requests.length;
    const error = await engineError(engine.generate(generationRequest(), AbortSignal.abort()));
    expect(error.transient).toBe(true);
    expect(since(from)).toEqual([]);
  });
});

describeGenerationProviderContract(
  {
    provider: 'Replicate',
    requests: () => fake.requests,
    failNext: (failure) => fake.failNext(failure),
    engine: (options, extra = {}) =>
      createReplicateGenerationEngine(
        {
          ...config,
          ...(extra.hd && { upscaler: fake.upscaler }),
          ...(extra.previews && { previewer: fake.previewer }),
        },
        { ...fast, ...options },
      ),
    generationRequest: () => generationRequest(),
    scriptGeneration: (script) => fake.scriptPrediction(script),
    scriptPreview: (script) => fake.scriptPreview(script),
    job: 'prediction',
    submitLine: 'POST /v1/predictions',
    pollMatch: /^GET \/v1\/predictions\//,
    statusPollMatch: /^GET \/v1\/predictions\//,
    modelFailure: {
      testName: "fails with the model's error",
      script: { outcome: 'fail', error: 'CUDA out of memory', polls: 2 },
      error: 'CUDA out of memory',
    },
    throttled: { retryAfter: 7, message: /throttled/ },
    jobOfPoll: (path) => path.split('/').at(-1)!,
    cancelLine: (id) => `POST /v1/predictions/${id}/cancel`,
    cancelPattern: /^POST \/v1\/predictions\/\w+\/cancel$/,
    statusAfterCancel: { of: (id) => fake.prediction(id)?.status, is: 'canceled' },
    giveUpMessage: /502/,
    notAnImage: { body: '<html>oops</html>', contentType: 'text/html' },
    upscaleSubmitLine: 'POST /v1/predictions',
    unreachablePicture: /upscale failed on Replicate: Failed to download .*403/,
    downloadPrefix: 'GET /delivery/',
    nsfwSays: 'Replicate reports NSFW content',
    previewPerson: {
      gender: 'woman',
      prompt: 'portrait photo of the woman, soft light',
      presetId: 'studio-1',
    },
    previewPhotos: { best: [200, 40, 40], second: [40, 40, 200] },
    unreachablePhoto: /Failed to download .*403/,
    refusedPreview: (previewRequest) => previewRequest(['not a url']),
    refusedPreviewDetail: /main_face_image/,
  },
  {
    upscale: ({ hd, files, picture, upscaleRequest }) => {
      it('runs the pinned real-esrgan on our signed URL ×2, without face enhancement, and downloads it', async () => {
        const from = fake.requests.length;
        const image = await hd().upscale!(upscaleRequest(picture()), deadline());

        const create = since(from).find(
          (r) => r.method === 'POST' && r.path === '/v1/predictions',
        )!;
        expect(create.body).toEqual({
          version: `nightmareai/real-esrgan:${fake.upscaler.version}`,
          input: { image: picture(), scale: 2, face_enhance: false },
        });
        // The provider fetched the picture from our URL; the answer is twice its size, downloaded.
        expect(files().hits.get('/signed/picture.jpg')).toBe(1);
        expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 1536, height: 2048 });
        expect(image.contentType).toBe('image/png');
      });

      it('throws a final error when the provider refuses the input (422)', async () => {
        const error = await engineError(hd().upscale!(upscaleRequest('not a url'), deadline()));
        expect(error.transient).toBe(false);
        expect(error.message).toMatch(/input\.image/);
      });
    },

    preview: ({ previews, files, face, previewRequest }) => {
      it('runs the pinned PuLID-FLUX on the best photo with the plain-subject prompt and downloads a 4:5 picture made from it', async () => {
        const from = fake.requests.length;
        const outcome = await previews().preview!(
          previewRequest([face(), `${files().url}/signed/second-face.jpg`]),
          deadline(),
        );

        const create = since(from).find(
          (r) => r.method === 'POST' && r.path === '/v1/predictions',
        )!;
        expect(create.headers.prefer).toBe('wait=60');
        expect(create.body).toEqual({
          version: `bytedance/flux-pulid:${fake.previewer.version}`,
          input: {
            main_face_image: face(),
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
        expect(files().hits.get('/signed/best-face.jpg')).toBe(1);
        expect(files().hits.get('/signed/second-face.jpg')).toBeUndefined();
        expect(outcome.status).toBe('succeeded');
        if (outcome.status !== 'succeeded') return;
        expect(fake.prediction(outcome.reference!)?.status).toBe('succeeded');
        expect(outcome.image.contentType).toBe('image/jpeg');
        expect(await sharp(outcome.image.bytes).metadata()).toMatchObject({
          width: 768,
          height: 960,
        });
        const { channels } = await sharp(outcome.image.bytes).stats();
        expect(channels[0]!.mean).toBeGreaterThan(150);
        expect(channels[2]!.mean).toBeLessThan(90);
      });

      it('throws a transient error when Replicate is overloaded (503), for the job to retry', async () => {
        fake.failNext({ match: 'POST /v1/predictions', status: 503 });
        const error = await engineError(previews().preview!(previewRequest([face()]), deadline()));
        expect(error.transient).toBe(true);
      });
    },
  },
);
