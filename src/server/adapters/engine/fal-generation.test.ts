import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeFal,
  falBigSeed,
  falConfig,
  startFakeFal,
} from '../../../../tests/fakes/fal-api.ts';
import { fakeJpeg } from '../../../../tests/fakes/provider-fake-kit.ts';
import { describeGenerationProviderContract } from '../../../../tests/helpers/generation-provider-contract.ts';
import {
  deadline,
  engineError,
  generationRequests,
  requestLog,
} from '../../../../tests/helpers/provider-engines.ts';
import type { FalConfig } from '../../config.ts';
import { createFalGenerationEngine, type FalGenerationOptions } from './fal-generation.ts';
import type { GenerationEngine } from './generation-engine.ts';
import { EngineError } from './training-engine.ts';

let fake: FakeFal;
let config: FalConfig;
let engine: GenerationEngine;
let lora: string;

const fast: FalGenerationOptions = { pollIntervalMs: 5, maxPollIntervalMs: 20 };
const app = '/fal-ai/flux-lora';

beforeAll(async () => {
  fake = await startFakeFal();
  config = falConfig(fake);
  engine = createFalGenerationEngine(config, fast);
  lora = `${fake.url}/files/3f9c1e0a/pytorch_lora_weights.safetensors`;
});
afterAll(async () => {
  await fake?.close();
});

const generationRequest = generationRequests(() => ({ weights: lora, gender: 'man' }));

const { since, lines } = requestLog(() => fake);

describe('fal generation: the request', () => {
  it('submits to fal-ai/flux-lora with the LoRA, polls, reads the result and downloads the image', async () => {
    const from = fake.requests.length;
    const request = generationRequest();
    const outcome = await engine.generate(request, deadline());

    const submit = since(from)[0]!;
    expect(`${submit.method} ${submit.path}`).toBe(`POST ${app}`);
    expect(submit.headers.authorization).toBe(`Key ${fake.key}`);
    expect(submit.query).toEqual({});
    // fal keeps the image an hour (we copy it at once), not for ever; no start deadline is set
    // (it is not a total timeout: the job's signal is), and fal keeps the request's JSON.
    expect(submit.headers['x-fal-object-lifecycle-preference']).toBe(
      '{"expiration_duration_seconds":3600}',
    );
    expect(submit.headers).not.toHaveProperty('x-fal-request-timeout');
    expect(submit.headers).not.toHaveProperty('x-fal-store-io');
    expect(submit.body).toEqual({
      prompt: request.prompt,
      loras: [{ path: lora, scale: 1 }],
      image_size: 'portrait_4_3',
      num_images: 1,
      enable_safety_checker: true,
      output_format: 'jpeg',
    });
    expect((submit.body as { prompt: string }).prompt).toContain('lkns7x');

    expect(outcome.status).toBe('succeeded');
    if (outcome.status !== 'succeeded') return;
    const id = outcome.reference!;
    expect(fake.request(id)?.status).toBe('COMPLETED');
    expect(lines(from)).toEqual([
      `POST ${app}`,
      `GET ${app}/requests/${id}/status`,
      `GET ${app}/requests/${id}`,
      `GET /files/${id}/image-0.jpg`,
    ]);
    expect(outcome.image.contentType).toBe('image/jpeg');
    const metadata = await sharp(outcome.image.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 768, height: 1024 });
  });

  it('is not thrown by a seed beyond 2^53 in the result', async () => {
    const outcome = await engine.generate(generationRequest(), deadline());
    const result = await fetch(`${fake.url}${app}/requests/${outcome.reference}`, {
      headers: { authorization: `Key ${fake.key}` },
    });
    expect(await result.text()).toContain(`"seed":${falBigSeed}`);
    expect(outcome.status).toBe('succeeded');
  });

  it('polls with backoff while the request is queued or running', async () => {
    fake.scriptGeneration({ polls: 3 });
    const from = fake.requests.length;
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome.status).toBe('succeeded');
    const id = outcome.reference!;
    expect(lines(from).filter((line) => line.endsWith('/status'))).toEqual(
      Array<string>(4).fill(`GET ${app}/requests/${id}/status`),
    );
  });
});

describe('fal generation: blocked and failed', () => {
  it('is blocked when has_nsfw_concepts[0] is true, and never downloads that image', async () => {
    fake.scriptGeneration({ outcome: 'nsfw', polls: 1 });
    const from = fake.requests.length;
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toEqual({ status: 'blocked', reference: expect.any(String) });
    expect(lines(from).some((line) => line.includes('/files/'))).toBe(false);
  });

  it('never takes the black picture fal sends for a flagged image, however the request is read', async () => {
    fake.scriptGeneration({ outcome: 'nsfw', polls: 2 });
    // A worker that stopped waiting once fal had the request (it is left running, not canceled).
    const held = new AbortController();
    let reference = '';
    const generating = engine.generate(generationRequest(), held.signal, async (id) => {
      reference = id;
      held.abort();
    });
    await expect(generating).rejects.toBeInstanceOf(EngineError);
    const from = fake.requests.length;
    // The reconciler's looks, then a retried job's resume: both end it blocked, with no image.
    let checked;
    for (let look = 0; look < 5 && !checked; look += 1)
      checked = await engine.jobs!.check(reference, deadline());
    expect(checked).toEqual({ status: 'blocked', reference });
    expect(await engine.jobs!.resume(reference, deadline())).toEqual({
      status: 'blocked',
      reference,
    });
    expect(lines(from).some((line) => line.includes('/files/'))).toBe(false);
    // What fal answered: the image listed, flagged, and black.
    const answer = await fetch(`${fake.url}${app}/requests/${reference}`, {
      headers: { authorization: `Key ${fake.key}` },
    });
    const result = (await answer.json()) as {
      images: { url: string }[];
      has_nsfw_concepts: boolean[];
    };
    expect(result.has_nsfw_concepts).toEqual([true]);
    const image = Buffer.from(await (await fetch(result.images[0]!.url)).arrayBuffer());
    const { channels } = await sharp(image).stats();
    expect(channels.every((channel) => channel.max < 16)).toBe(true);
  });

  it('throws a transient error, saying so, when no runner started it before its start deadline', async () => {
    fake.scriptGeneration({ outcome: 'startDeadline' });
    const error = await engineError(engine.generate(generationRequest(), deadline()));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(
      /504.*before its start deadline.*X-Fal-Request-Timeout-Type: user/,
    );
  });

  it('fails with the reason of an infrastructure error fal already retried', async () => {
    fake.scriptGeneration({
      outcome: 'fail',
      error: 'Runner disconnected',
      errorType: 'runner_disconnected',
      status: 503,
    });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toMatchObject({ status: 'failed', error: 'Runner disconnected' });
  });

  it("fails with fal's detail when the submission is refused (a 4xx)", async () => {
    fake.failNext({
      match: `POST ${app}`,
      status: 403,
      detail: 'User is locked. Reason: Exhausted balance.',
    });
    const outcome = await engine.generate(generationRequest(), deadline());
    expect(outcome).toEqual({
      status: 'failed',
      error: 'fal answered 403: User is locked. Reason: Exhausted balance.',
      reference: null,
    });
  });
});

describeGenerationProviderContract(
  {
    provider: 'fal',
    requests: () => fake.requests,
    failNext: (failure) => fake.failNext(failure),
    engine: (options, extra = {}) =>
      createFalGenerationEngine(
        {
          ...config,
          ...(extra.hd && { upscaler: { endpoint: 'fal-ai/esrgan', model: 'RealESRGAN_x4plus' } }),
          ...(extra.previews && { previewer: { endpoint: 'fal-ai/flux-pulid' } }),
        },
        { ...fast, ...options },
      ),
    generationRequest: () => generationRequest(),
    scriptGeneration: (script) => fake.scriptGeneration(script),
    scriptPreview: (script) => fake.scriptPreview(script),
    job: 'request',
    submitLine: `POST ${app}`,
    pollMatch: /^GET \/fal-ai\/flux-lora\/requests\//,
    statusPollMatch: /\/status$/,
    modelFailure: {
      testName: "fails with the model's error (a 422 the queue recorded)",
      script: { outcome: 'fail', error: 'Could not load the LoRA weights' },
      error: 'Could not load the LoRA weights',
    },
    throttled: { retryAfter: 12 },
    jobOfPoll: (path) => path.split('/').at(-2)!,
    cancelLine: (id) => `PUT ${app}/requests/${id}/cancel`,
    cancelPattern: /^PUT \/fal-ai\/flux-lora\/requests\/[\w-]+\/cancel$/,
    statusAfterCancel: { of: (id) => fake.request(id)?.status, is: 'COMPLETED' },
    notAnImage: { body: '{}', contentType: 'application/json' },
    upscaleSubmitLine: 'POST /fal-ai/esrgan',
    unreachablePicture: /upscale failed on fal: image_url: Failed to download .*403/,
    downloadPrefix: 'GET /files/',
    nsfwSays: 'has_nsfw_concepts[0] is true',
    previewPerson: {
      gender: 'man',
      prompt: 'portrait photo of the man, neon lights at night',
      presetId: 'night-1',
    },
    previewPhotos: { best: [40, 180, 40] },
    unreachablePhoto: /Failed to download the file \(HTTP 403\)/,
    refusedPreview: (previewRequest, face) => ({
      ...previewRequest([face]),
      prompt: undefined as unknown as string,
    }),
    refusedPreviewDetail: /prompt/,
  },
  {
    upscale: ({ hd, files, picture, upscaleRequest }) => {
      const esrgan = '/fal-ai/esrgan';

      it('submits our signed URL to fal-ai/esrgan ×2 with the short lifecycle, and downloads the JPEG', async () => {
        const from = fake.requests.length;
        const image = await hd().upscale!(upscaleRequest(picture()), deadline());

        const submit = since(from)[0]!;
        expect(`${submit.method} ${submit.path}`).toBe(`POST ${esrgan}`);
        expect(submit.body).toEqual({
          image_url: picture(),
          scale: 2,
          model: 'RealESRGAN_x4plus',
          face: false,
          output_format: 'jpeg',
        });
        expect(submit.headers['x-fal-object-lifecycle-preference']).toBe(
          '{"expiration_duration_seconds":3600}',
        );
        const id = since(from)[1]!.path.split('/').at(-2)!;
        expect(lines(from)).toEqual([
          `POST ${esrgan}`,
          `GET ${esrgan}/requests/${id}/status`,
          `GET ${esrgan}/requests/${id}`,
          `GET /files/${id}/upscaled.jpg`,
        ]);
        expect(files().hits.get('/signed/picture.jpg')).toBe(1);
        expect(image.contentType).toBe('image/jpeg');
        expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 1536, height: 2048 });
      });

      it('chooses the scale from the size: ×4 for 512×640, up to 2048×2560', async () => {
        const small = files().serve('/signed/small.jpg', {
          body: await fakeJpeg(512, 640),
          contentType: 'image/jpeg',
        });
        const from = fake.requests.length;
        const image = await hd().upscale!(upscaleRequest(small, 512, 640), deadline());
        expect((since(from)[0]!.body as { scale: number }).scale).toBe(4);
        expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 2048, height: 2560 });
      });
    },

    preview: ({ previews, files, face, previewRequest }) => {
      it('submits the best photo to fal-ai/flux-pulid with the short lifecycle and downloads a 4:5 picture made from it', async () => {
        const from = fake.requests.length;
        const outcome = await previews().preview!(
          previewRequest([face(), `${files().url}/other.jpg`]),
          deadline(),
        );

        const submit = since(from)[0]!;
        expect(`${submit.method} ${submit.path}`).toBe('POST /fal-ai/flux-pulid');
        expect(submit.headers['x-fal-object-lifecycle-preference']).toBe(
          '{"expiration_duration_seconds":3600}',
        );
        expect(submit.body).toEqual({
          prompt: 'portrait photo of the man, neon lights at night',
          reference_image_url: face(),
          image_size: { width: 768, height: 960 },
          num_inference_steps: 20,
          guidance_scale: 4,
          id_weight: 1,
          start_step: 4,
          true_cfg: 1,
          enable_safety_checker: true,
        });
        expect(outcome.status).toBe('succeeded');
        if (outcome.status !== 'succeeded') return;
        // Status and result were read under the app, the reference fetched once, the picture is green.
        expect(lines(from)).toContain(`GET /fal-ai/flux-pulid/requests/${outcome.reference}`);
        expect(files().hits.get('/signed/best-face.jpg')).toBe(1);
        expect(files().hits.get('/other.jpg')).toBeUndefined();
        expect(await sharp(outcome.image.bytes).metadata()).toMatchObject({
          width: 768,
          height: 960,
        });
        const { channels } = await sharp(outcome.image.bytes).stats();
        expect(channels[1]!.mean).toBeGreaterThan(130);
        expect(channels[0]!.mean).toBeLessThan(90);
      });
    },
  },
);
