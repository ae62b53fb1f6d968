import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  GenerationEngine,
  GenerationRequest,
  PreviewRequest,
  UpscaleRequest,
} from '../../src/server/adapters/engine/generation-engine.ts';
import type { FollowOptions } from '../../src/server/adapters/engine/generation-support.ts';
import {
  fakeJpeg,
  type FileHost,
  type RecordedRequest,
  type ScriptedFailure,
  startFileHost,
} from '../fakes/provider-fake-kit.ts';
import { deadline, engineError, requestLog } from './provider-engines.ts';

/**
 * What the Replicate and fal generation engines owe the app alike (decision 050), checked the
 * same way against each provider's fake: polling through trouble, the model's failure, throttling
 * and outages, aborts and giving up, images that cannot be had, and the upscale and the training
 * preview around the provider's own requests. Each provider's test file runs it with what differs
 * (the fake's controls, paths and wording) and keeps what is its provider's own.
 */

/** A job the fake is told to run: `polls` status answers before it ends, or a failure. */
export interface JobScript {
  polls?: number;
  outcome?: 'fail' | 'nsfw';
  error?: string;
  file?: { status?: number; body?: Uint8Array | string; contentType?: string };
}

export interface GenerationProviderUnderTest {
  /** As the engine names it in messages and the describe blocks say it. */
  provider: 'Replicate' | 'fal';
  requests(): RecordedRequest[];
  failNext(failure: ScriptedFailure): void;
  /** An engine on the fake; `hd` with the provider's upscaler, `previews` with its previewer. */
  engine(options?: FollowOptions, extra?: { hd?: boolean; previews?: boolean }): GenerationEngine;
  generationRequest(): GenerationRequest;
  scriptGeneration(script: JobScript): void;
  scriptPreview(script: JobScript): void;
  /** What the provider calls its job in test names (`prediction`, `request`). */
  job: string;
  /** `METHOD /path` of a generation's create or submit request. */
  submitLine: string;
  /** The requests a generation polls with (a failure scripted on them is a poll failure). */
  pollMatch: RegExp;
  /** The status polls alone, for giving up. */
  statusPollMatch: RegExp;
  /** A model failure the fake is told to end a job with, and the error it reads as. */
  modelFailure: { script: JobScript; error: string; testName: string };
  /** A 429's Retry-After, and the message's words when the provider's fake sends its own. */
  throttled: { retryAfter: number; message?: RegExp };
  /** The job id in the path of the first poll after the submission. */
  jobOfPoll(path: string): string;
  /** The last line a canceled job leaves, and what the fake then says of the job. */
  cancelLine(id: string): string;
  cancelPattern: RegExp;
  statusAfterCancel: { of(id: string): unknown; is: string };
  /** When the provider's message names the failed poll's status (502). */
  giveUpMessage?: RegExp;
  /** A file served where the image should be that is no image. */
  notAnImage: { body: string; contentType: string };
  upscaleSubmitLine: string;
  /** The upscale's final error when the provider could not fetch the picture (a 403). */
  unreachablePicture: RegExp;
  /** How a download of the provider's output starts (`GET /delivery/`). */
  downloadPrefix: string;
  /** What makes a preview blocked, in the test's name. */
  nsfwSays: string;
  /** The person a preview is asked for, and the colours of the photos it is given. */
  previewPerson: Pick<PreviewRequest, 'gender' | 'prompt'> & { presetId: string };
  previewPhotos: { best: [number, number, number]; second?: [number, number, number] };
  /** The preview's error when the provider could not fetch the photo (a 403). */
  unreachablePhoto: RegExp;
  /** A preview request the provider refuses (422), and the field its detail names. */
  refusedPreview(
    previewRequest: (photos: string[]) => PreviewRequest,
    face: string,
  ): PreviewRequest;
  refusedPreviewDetail: RegExp;
}

/** The upscale's setting: its engine, the file host, and our picture's signed URL on it. */
export interface UpscaleContext {
  hd(): GenerationEngine;
  files(): FileHost;
  picture(): string;
  upscaleRequest(imageUrl: string, width?: number, height?: number): UpscaleRequest;
}

/** The preview's setting: its engine, the file host, the best photo's URL, and requests. */
export interface PreviewContext {
  previews(): GenerationEngine;
  files(): FileHost;
  face(): string;
  previewRequest(photos: string[]): PreviewRequest;
}

/**
 * Registers the contract's tests, and `own.upscale` / `own.preview`, the provider's own tests of
 * its upscale and preview, in the same blocks (they share the file host and the engines).
 */
export function describeGenerationProviderContract(
  spec: GenerationProviderUnderTest,
  own: { upscale?: (context: UpscaleContext) => void; preview?: (context: PreviewContext) => void },
) {
  const { since, lines } = requestLog(() => ({ requests: spec.requests() }));
  const provider = spec.provider;

  describe(`${provider} generation: what every provider owes`, () => {
    it('keeps polling through transient poll failures (5xx, 429, a malformed answer)', async () => {
      spec.scriptGeneration({ polls: 1 });
      spec.failNext({ match: spec.pollMatch, status: 503 });
      spec.failNext({ match: spec.pollMatch, status: 429, retryAfter: 0 });
      spec.failNext({ match: spec.pollMatch, malformed: true });
      const outcome = await spec.engine().generate(spec.generationRequest(), deadline());
      expect(outcome.status).toBe('succeeded');
    });

    it(spec.modelFailure.testName, async () => {
      spec.scriptGeneration(spec.modelFailure.script);
      const outcome = await spec.engine().generate(spec.generationRequest(), deadline());
      expect(outcome).toEqual({
        status: 'failed',
        error: spec.modelFailure.error,
        reference: expect.any(String),
      });
    });

    it("fails when the image cannot be downloaded or isn't one", async () => {
      const engine = spec.engine();
      spec.scriptGeneration({
        file: { status: 404, body: 'Not Found', contentType: 'text/plain' },
      });
      const missing = await engine.generate(spec.generationRequest(), deadline());
      expect(missing).toMatchObject({ status: 'failed', error: expect.stringMatching(/HTTP 404/) });

      spec.scriptGeneration({ file: spec.notAnImage });
      const other = await engine.generate(spec.generationRequest(), deadline());
      expect(other).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/not an image/),
      });
    });

    it('throws a transient error with Retry-After on a 429', async () => {
      spec.failNext({ match: spec.submitLine, status: 429, retryAfter: spec.throttled.retryAfter });
      const error = await engineError(spec.engine().generate(spec.generationRequest(), deadline()));
      expect(error.transient).toBe(true);
      expect(error.retryAfterSeconds).toBe(spec.throttled.retryAfter);
      if (spec.throttled.message) expect(error.message).toMatch(spec.throttled.message);
    });

    it.each([
      ['a 500', { status: 500 }],
      ['a malformed answer', { malformed: true }],
    ])('throws a transient error on %s', async (_, failure) => {
      spec.failNext({ match: spec.submitLine, ...failure });
      const error = await engineError(spec.engine().generate(spec.generationRequest(), deadline()));
      expect(error.transient).toBe(true);
    });

    it(`cancels the ${spec.job} and throws a transient error when the signal aborts`, async () => {
      spec.scriptGeneration({ polls: Infinity });
      const from = spec.requests().length;
      const controller = new AbortController();
      const running = spec.engine().generate(spec.generationRequest(), controller.signal);
      await expect.poll(() => lines(from).length, { interval: 5 }).toBeGreaterThan(3);
      controller.abort();
      const error = await engineError(running);
      expect(error.transient).toBe(true);
      const id = spec.jobOfPoll(since(from)[1]!.path);
      expect(lines(from).at(-1)).toBe(spec.cancelLine(id));
      expect(spec.statusAfterCancel.of(id)).toBe(spec.statusAfterCancel.is);
    });

    it(`gives up after too many poll failures in a row, canceling the ${spec.job}`, async () => {
      const impatient = spec.engine({ maxPollFailures: 1 });
      spec.scriptGeneration({ polls: Infinity });
      spec.failNext({ match: spec.statusPollMatch, status: 502 });
      spec.failNext({ match: spec.statusPollMatch, status: 502 });
      const from = spec.requests().length;
      const error = await engineError(impatient.generate(spec.generationRequest(), deadline()));
      expect(error.transient).toBe(true);
      if (spec.giveUpMessage) expect(error.message).toMatch(spec.giveUpMessage);
      expect(lines(from).at(-1)).toMatch(spec.cancelPattern);
    });
  });

  describe(`${provider} upscale (provider HD)`, () => {
    let files: FileHost;
    let hd: GenerationEngine;
    let picture: string;

    beforeAll(async () => {
      files = await startFileHost();
      hd = spec.engine(undefined, { hd: true });
      picture = files.serve('/signed/picture.jpg', {
        body: await fakeJpeg(768, 1024),
        contentType: 'image/jpeg',
      });
    });
    afterAll(async () => {
      await files?.close();
    });

    const upscaleRequest = (imageUrl: string, width = 768, height = 1024) => ({
      generationId: 'gen_hd',
      imageUrl,
      width,
      height,
    });

    own.upscale?.({ hd: () => hd, files: () => files, picture: () => picture, upscaleRequest });

    it('is absent when no upscaler is configured (PROVIDER_HD=false)', () => {
      expect(spec.engine().upscale).toBeUndefined();
    });

    it('tries again after a transient refusal (a 503), then succeeds', async () => {
      spec.failNext({ match: spec.upscaleSubmitLine, status: 503 });
      const from = spec.requests().length;
      const image = await hd.upscale!(upscaleRequest(picture), AbortSignal.timeout(15_000));
      expect((await sharp(image.bytes).metadata()).width).toBe(1536);
      expect(lines(from).filter((line) => line === spec.upscaleSubmitLine)).toHaveLength(2);
    });

    it('throws a final error with the reason when the provider cannot fetch the picture', async () => {
      const expired = files.serve('/signed/expired.jpg', {
        status: 403,
        body: 'Request has expired',
        contentType: 'text/plain',
      });
      const from = spec.requests().length;
      const error = await engineError(hd.upscale!(upscaleRequest(expired), deadline()));
      expect(error.transient).toBe(false);
      expect(error.message).toMatch(spec.unreachablePicture);
      // A final failure is not tried again.
      expect(lines(from).filter((line) => line === spec.upscaleSubmitLine)).toHaveLength(1);
    });
  });

  describe(`${provider} training preview (PuLID-FLUX)`, () => {
    let files: FileHost;
    let previews: GenerationEngine;
    let face: string;

    /** A photo of one flat colour, so the preview can be told to come from it. */
    const photo = ([red, green, blue]: [number, number, number]) =>
      sharp({
        create: { width: 600, height: 800, channels: 3, background: { r: red, g: green, b: blue } },
      })
        .jpeg()
        .toBuffer();

    beforeAll(async () => {
      const { previewPhotos } = spec;
      files = await startFileHost();
      previews = spec.engine(undefined, { previews: true });
      face = files.serve('/signed/best-face.jpg', {
        body: await photo(previewPhotos.best),
        contentType: 'image/jpeg',
      });
      if (previewPhotos.second)
        files.serve('/signed/second-face.jpg', {
          body: await photo(previewPhotos.second),
          contentType: 'image/jpeg',
        });
    });
    afterAll(async () => {
      await files?.close();
    });

    const previewRequest = (photos: string[]) => {
      const { gender, prompt, presetId } = spec.previewPerson;
      return {
        previewId: 'preview_1',
        userId: 'user_1',
        gender,
        photos: photos.map((url, index) => ({ key: `users/user_1/photo-${index}.jpg`, url })),
        prompt,
        preset: { id: presetId, scene: null },
      };
    };

    own.preview?.({
      previews: () => previews,
      files: () => files,
      face: () => face,
      previewRequest,
    });

    it('is absent when no previewer is configured (TRAINING_PREVIEWS=false)', () => {
      expect(spec.engine().preview).toBeUndefined();
    });

    it(`is blocked when ${spec.nsfwSays}, and downloads nothing`, async () => {
      spec.scriptPreview({ outcome: 'nsfw' });
      const from = spec.requests().length;
      const outcome = await previews.preview!(previewRequest([face]), deadline());
      expect(outcome.status).toBe('blocked');
      expect(lines(from).some((line) => line.startsWith(spec.downloadPrefix))).toBe(false);
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
        error: expect.stringMatching(spec.unreachablePhoto),
      });
    });

    it('fails with the detail when the input is refused (422), and asks nothing without a photo', async () => {
      const refused = await previews.preview!(
        spec.refusedPreview(previewRequest, face),
        deadline(),
      );
      expect(refused).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(spec.refusedPreviewDetail),
      });

      const from = spec.requests().length;
      const none = await previews.preview!(previewRequest([]), deadline());
      expect(none.status).toBe('failed');
      expect(since(from)).toEqual([]);
    });
  });
}
