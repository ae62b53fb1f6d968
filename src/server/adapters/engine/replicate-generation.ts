import type { ReplicateConfig } from '../../config.ts';
import type { GenerationEngine, GenerationOutcome } from './generation-engine.ts';
import {
  createProviderGenerationEngine,
  downloadedOutcome,
  type FollowOptions,
  followSettings,
} from './generation-support.ts';
import { sendToProvider, successBody } from './provider-http.ts';

/**
 * Images from a trained FLUX LoRA version on Replicate (reference/provider-contracts.md §1.5-1.7):
 * `POST /v1/predictions` with the version the training made (`owner/name:hash`) in sync mode
 * (`Prefer: wait=60`: most images come back in that one answer), then polls
 * `GET /v1/predictions/{id}` with a growing pause until the prediction ends or the job's signal
 * aborts. The first output is downloaded at once (outputs are deleted after 1 h).
 *
 * Outcomes: `succeeded` with an image → the image; `succeeded` without one (§1.7 partial
 * filtering removed our only image) or `failed` with "NSFW content" → blocked; other `failed`,
 * `canceled` and `aborted` → failed with a readable reason.
 *
 * Errors follow provider-http.ts: network trouble, timeouts, 408/429/5xx and unreadable answers
 * are transient (thrown; the job retries). A 4xx answer to the create request is returned as a
 * `failed` outcome rather than thrown: it means our request is wrong (input validation, 422) or
 * the trained version is gone or not ours (404/422), or the account cannot run it (401/402/403).
 * Retrying the same request cannot help, and the user's credit should come back (the
 * provider's own reason goes to the log). The same goes for a 4xx while polling (the prediction vanished).
 *
 * Transient errors while polling do not end the generation at once: the prediction is still
 * running (and billed), so a few in a row are tolerated (a 429's Retry-After respected) before
 * giving up. When the job's signal aborts, the prediction is canceled (best effort) and a
 * transient EngineError thrown, unless the caller was handed its id (`started`): it is then
 * left running for the retry to resume (`jobs.resume`) or the reconciler to collect. That lifecycle
 * is shared with fal-generation.ts (createProviderGenerationEngine in generation-support.ts);
 * what is Replicate's own is below: its requests, and reading a prediction.
 */

export interface ReplicateGenerationOptions extends FollowOptions {
  /** Per request other than the create (default 30 s). */
  requestTimeoutMs?: number;
  /** `Prefer: wait=N`, 1-60 (default 60). The create request's timeout is this plus the above. */
  waitSeconds?: number;
}

const provider = 'Replicate';

/** The trained model's inputs (§1.5), written out so a new trainer version cannot change them. */
export const replicateGenerationInput = {
  num_outputs: 1,
  aspect_ratio: '3:4',
  output_format: 'jpg',
  output_quality: 90,
  num_inference_steps: 28,
  guidance_scale: 3.5,
  lora_scale: 1,
  model: 'dev',
  disable_safety_checker: false,
} as const;

/**
 * The upscaler's inputs besides the image and the scale (docs/providers.md): no GFPGAN face
 * enhancement, which redraws the face and would undo the likeness the picture was checked for.
 */
export const replicateUpscaleInput = { face_enhance: false } as const;

/**
 * PuLID-FLUX's inputs besides the face and the prompt, for a training preview (decision 041;
 * docs/providers.md), written out so a new default cannot change them:
 * - 768x960: the 4:5 of the preview tiles (and of the local engine's previews), within the
 *   model's 256-1536.
 * - `start_step` 4: when the identity starts to be inserted; PuLID's authors recommend 4 for
 *   photorealistic scenes (0 copies the reference photo's pose and framing more, at the cost of
 *   the preset's scene).
 * - `id_weight` 1, `true_cfg` 1 (plain guidance: above 1 doubles the compute), 20 steps and
 *   guidance 4: the model's defaults.
 * - The model has no safety-checker input: our own NSFW classifier checks every preview.
 */
export const replicatePreviewInput = {
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
} as const;

/** What a prediction object says, once it has ended. */
type Verdict =
  { status: 'download'; url: string } | { status: 'blocked' } | { status: 'failed'; error: string };

export function createReplicateGenerationEngine(
  config: ReplicateConfig,
  options: ReplicateGenerationOptions = {},
): GenerationEngine {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const waitSeconds = Math.min(60, Math.max(1, Math.round(options.waitSeconds ?? 60)));
  const settings = followSettings(options);

  const call = (
    method: 'GET' | 'POST',
    path: string,
    json?: unknown,
    extra: { headers?: Record<string, string>; timeoutMs?: number } = {},
  ) =>
    sendToProvider({
      provider,
      method,
      url: `${baseUrl}${path}`,
      headers: { authorization: `Bearer ${config.apiToken}`, ...extra.headers },
      json,
      timeoutMs: extra.timeoutMs ?? timeoutMs,
    });

  /**
   * Every prediction is followed alike: a look is a GET of it (successBody throws for a non-2xx
   * answer: followUntilDone sorts it, retry or fail); its verdict is concluded after polling,
   * outside its retries, so a transient download error is thrown (the job retries) rather than
   * counted as a poll failure; a poll failure comes back as a failed verdict, concluded like
   * Replicate's own.
   */
  const predictions = {
    look: async (id: string) =>
      verdictOf(successBody(provider, await call('GET', `/predictions/${encodeURIComponent(id)}`))),
    async conclude(verdict: Verdict, id: string, signal: AbortSignal): Promise<GenerationOutcome> {
      if (verdict.status === 'blocked') return { status: 'blocked', reference: id };
      if (verdict.status === 'failed')
        return { status: 'failed', error: verdict.error, reference: id };
      return downloadedOutcome(verdict.url, id, { provider, ...settings.image, signal });
    },
    /** Best effort: a prediction we no longer wait for should not keep running (and billing). */
    async cancel(id: string): Promise<void> {
      try {
        await call('POST', `/predictions/${encodeURIComponent(id)}/cancel`, undefined, {
          timeoutMs: Math.min(timeoutMs, 5000),
        });
      } catch {
        // Nothing more to do: the prediction ends by itself.
      }
    },
  };

  /**
   * A prediction of `version` created in sync mode (`Prefer: wait`): the answer often holds the
   * ended prediction, and then there is nothing to poll.
   */
  const prediction = (version: string, input: Record<string, unknown>) => ({
    ...predictions,
    send: () =>
      call(
        'POST',
        '/predictions',
        { version, input },
        { headers: { prefer: `wait=${waitSeconds}` }, timeoutMs: waitSeconds * 1000 + timeoutMs },
      ),
  });

  return createProviderGenerationEngine({
    name: 'replicate',
    provider,
    kind: 'prediction',
    idField: 'id',
    missingId: `${provider} answered a prediction without an id`,
    answered: verdictOf,
    settings,
    generations: predictions,
    generation: (request) =>
      prediction(request.weights, {
        prompt: request.prompt,
        ...replicateGenerationInput,
        ...(request.seed !== undefined && { seed: request.seed }),
      }),
    upscaler: config.upscaler,
    /** The pinned upscaler (`image`, `scale`, no face enhancement); its output is a URL string. */
    upscale: (upscaler, imageUrl, scale) =>
      prediction(pinnedVersion(upscaler), {
        image: imageUrl,
        scale,
        ...replicateUpscaleInput,
      }),
    previewer: config.previewer,
    /**
     * A training preview (decision 039): the pinned PuLID-FLUX with the user's best photo as
     * `main_face_image` (our signed absolute URL), canceled when given up (no one else holds its
     * id: a retried job makes a new one). Its output is a list of URLs (one here); the outcomes
     * read as a generation's.
     */
    preview: (previewer, faceUrl, prompt) =>
      prediction(pinnedVersion(previewer), {
        main_face_image: faceUrl,
        prompt,
        ...replicatePreviewInput,
      }),
  });
}

/** A pinned model's version as a prediction names it (`owner/name:hash`). */
function pinnedVersion(model: { owner: string; name: string; version: string }): string {
  return `${model.owner}/${model.name}:${model.version}`;
}

/** A prediction object → what it ended as; undefined while it runs (or in a status we do not know). */
function verdictOf(prediction: Record<string, unknown>): Verdict | undefined {
  switch (prediction.status) {
    case 'succeeded': {
      const output = prediction.output;
      const outputs = Array.isArray(output) ? output : [output];
      const url = outputs.find((item): item is string => typeof item === 'string' && item !== '');
      // With num_outputs 1, a success without an output is §1.7's partial filtering: the safety
      // checker dropped our only image.
      return url ? { status: 'download', url } : { status: 'blocked' };
    }
    case 'failed': {
      const error =
        typeof prediction.error === 'string' && prediction.error.trim()
          ? prediction.error.trim()
          : undefined;
      if (error && /NSFW content/i.test(error)) return { status: 'blocked' };
      return { status: 'failed', error: error ?? `The image generation failed on ${provider}` };
    }
    case 'canceled':
      return { status: 'failed', error: `The image generation was canceled on ${provider}` };
    case 'aborted':
      return {
        status: 'failed',
        error: `${provider} aborted the image generation before it started`,
      };
    default:
      return undefined;
  }
}
