import type { FalConfig } from '../../config.ts';
import type { GenerationEngine, GenerationOutcome } from './generation-engine.ts';
import {
  createProviderGenerationEngine,
  downloadedOutcome,
  type FollowOptions,
  followSettings,
  type JobHandling,
} from './generation-support.ts';
import {
  errorFor,
  isRecord,
  isStartDeadline,
  problemDetail,
  type ProviderResponse,
  sendToProvider,
  successBody,
} from './provider-http.ts';
import { EngineError } from './training-engine.ts';

/**
 * Images from a trained LoRA on fal (reference/provider-contracts.md §2.2-2.3, §2.7): submit to
 * the queue's `fal-ai/flux-lora` with the LoRA file's URL (what the training produced), poll the
 * request's status (202 while `IN_QUEUE`/`IN_PROGRESS`) with a growing pause until `COMPLETED`
 * or the job's signal aborts, then read the result.
 *
 * `has_nsfw_concepts[0] === true` → blocked: the flagged image (fal sends it back black, not
 * missing) is never downloaded, so it can neither be stored nor served. Otherwise
 * `images[0].url` is downloaded at once. The result's `seed` can exceed 2^53 (JSON.parse rounds
 * it): it is never read.
 *
 * Errors follow provider-http.ts, as in replicate-generation.ts: transient trouble is thrown
 * (polls tolerate a few in a row, the request still runs), a 4xx answer to the submission is a
 * `failed` outcome with fal's detail (our input is wrong or our key is refused: retrying cannot
 * help), and a failure the queue recorded for the request (a model error, or an infrastructure
 * error fal already retried) is a `failed` outcome too. On abort the request is canceled (best
 * effort) and a transient EngineError thrown. That lifecycle is shared with
 * replicate-generation.ts (createProviderGenerationEngine in generation-support.ts); what is fal's
 * own is below: its queue's requests, and reading their results.
 *
 * Status and result URLs are derived from the request id (`{queue}/fal-ai/flux-lora/requests/{id}`),
 * as fal-training.ts does: the endpoint has no path, so `{owner}/{app}` is the endpoint id.
 */

export interface FalGenerationOptions extends FollowOptions {
  /** Per HTTP request to fal (default 30 s); the whole generation is bounded by the job's signal. */
  requestTimeoutMs?: number;
}

const provider = 'fal';
const endpoint = 'fal-ai/flux-lora';

/**
 * How long fal keeps the image it made on its CDN: one hour. We copy the image into our own
 * storage as soon as the request completes, so fal's copy is only needed until then; an hour
 * still covers a worker that died mid-job, whose generation the sweep collects after
 * GENERATION_STALE_MINUTES (30 by default) plus its 5-minute schedule, and matches what
 * Replicate keeps (1 h). fal's default is to keep it with no expiry.
 */
export const falImageRetentionSeconds = 3600;

/**
 * The platform headers sent with a submission (docs/providers.md):
 * - `X-Fal-Object-Lifecycle-Preference`: the image's retention above.
 * - No `X-Fal-Request-Timeout`: it is a deadline to *start* (a 504 with
 *   `X-Fal-Request-Timeout-Type: user` when no runner took the request in time, provider-http.ts),
 *   not a total timeout; the job's signal bounds the generation and cancels a request it no
 *   longer waits for, queued or not.
 * - No `X-Fal-Store-IO: 0` (decision 038): it would keep fal from storing the request's JSON
 *   (prompt, LoRA URL, image URL; 30 days by default), but fal does not say the queue's result
 *   survives it, and a retried job or the sweep reads the result from the queue later.
 */
export const falSubmitHeaders = {
  'x-fal-object-lifecycle-preference': JSON.stringify({
    expiration_duration_seconds: falImageRetentionSeconds,
  }),
} as const;

/** The inputs besides the prompt and the LoRA (§2.7). */
export const falGenerationInput = {
  image_size: 'portrait_4_3',
  num_images: 1,
  enable_safety_checker: true,
  output_format: 'jpeg',
} as const;

/** The upscaler's inputs besides the image, the scale and the model (docs/providers.md). */
export const falUpscaleInput = { face: false, output_format: 'jpeg' } as const;

/**
 * PuLID-FLUX's inputs besides the reference face and the prompt, for a training preview
 * (decision 041; docs/providers.md): 768x960, the 4:5 of the preview tiles (under 1 MP, billed
 * as 1); `start_step` 4, which PuLID's authors recommend for photorealistic scenes (lower copies
 * the reference photo more and the preset's scene less); `id_weight` 1, `true_cfg` 1 (plain
 * guidance: above 1 doubles the compute), 20 steps and guidance 4, the endpoint's defaults; and
 * fal's safety checker on, as for generation (a flagged image comes back black: blocked).
 */
export const falPreviewInput = {
  image_size: { width: 768, height: 960 },
  num_inference_steps: 20,
  guidance_scale: 4,
  id_weight: 1,
  start_step: 4,
  true_cfg: 1,
  enable_safety_checker: true,
} as const;

/**
 * `{owner}/{app}` of an endpoint id: status, result and cancel URLs live there, whatever path
 * the submission went to (reference/provider-contracts.md §2).
 */
function appOf(endpointId: string): string {
  return endpointId.split('/').slice(0, 2).join('/');
}

export function createFalGenerationEngine(
  config: FalConfig,
  options: FalGenerationOptions = {},
): GenerationEngine {
  const queueBase = config.queueBaseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const settings = followSettings(options);
  const { image } = settings;

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    json?: unknown,
    ms = timeoutMs,
    headers: Record<string, string> = {},
  ) =>
    sendToProvider({
      provider,
      method,
      url,
      headers: { ...headers, authorization: `Key ${config.key}` },
      json,
      timeoutMs: ms,
    });
  const requestUrl = (id: string, app = endpoint) =>
    `${queueBase}/${app}/requests/${encodeURIComponent(id)}`;

  /** Best effort: a request we no longer wait for should not keep a GPU busy. */
  async function cancel(id: string, app = endpoint): Promise<void> {
    try {
      await call('PUT', `${requestUrl(id, app)}/cancel`, undefined, Math.min(timeoutMs, 5000));
    } catch {
      // The request ends by itself.
    }
  }

  /** What a generation's result says: a flagged image, the image to download, or neither. */
  function readImages(
    output: Record<string, unknown>,
    id: string,
    signal: AbortSignal,
  ): Promise<GenerationOutcome> | GenerationOutcome {
    const flags = output.has_nsfw_concepts;
    if (Array.isArray(flags) && flags[0] === true) return { status: 'blocked', reference: id };
    const images = Array.isArray(output.images) ? output.images : [];
    const first: unknown = images[0];
    const url = isRecord(first) && typeof first.url === 'string' && first.url ? first.url : null;
    if (!url)
      return { status: 'failed', error: `${provider} finished without an image`, reference: id };
    return downloadedOutcome(url, id, { provider, ...image, signal });
  }

  /** What the upscaler's result says (`image.url`, downloaded), as an outcome. */
  function readUpscaled(
    output: Record<string, unknown>,
    id: string,
    signal: AbortSignal,
  ): Promise<GenerationOutcome> | GenerationOutcome {
    const url =
      isRecord(output.image) && typeof output.image.url === 'string' && output.image.url
        ? output.image.url
        : null;
    if (!url)
      return {
        status: 'failed',
        error: `${provider}'s upscaler finished without an image`,
        reference: id,
      };
    return downloadedOutcome(url, id, { provider, ...image, signal });
  }

  type ReadOutput = typeof readImages;

  /** The result of a COMPLETED request, read by `read`. */
  async function result(
    id: string,
    signal: AbortSignal,
    app = endpoint,
    read: ReadOutput = readImages,
  ): Promise<GenerationOutcome> {
    const response = await call('GET', requestUrl(id, app));
    if (response.status >= 300) {
      const failure = recordedFailure(response);
      if (failure === undefined) throw errorFor(provider, response);
      return { status: 'failed', error: failure, reference: id };
    }
    return read(successBody(provider, response), id, signal);
  }

  /**
   * One status poll: the outcome once COMPLETED, undefined while queued or running. The result
   * and its download are part of the poll: a transient error there counts as a poll failure and
   * the status is polled again, and an abort during the download cancels the request.
   */
  async function poll(
    id: string,
    signal: AbortSignal,
    app = endpoint,
    read: ReadOutput = readImages,
  ): Promise<GenerationOutcome | undefined> {
    const body = successBody(provider, await call('GET', `${requestUrl(id, app)}/status`));
    switch (body.status) {
      case 'IN_QUEUE':
      case 'IN_PROGRESS':
        return undefined;
      case 'COMPLETED':
        if (typeof body.error === 'string' && body.error.trim())
          return { status: 'failed', error: body.error.trim(), reference: id };
        return result(id, signal, app, read);
      default:
        throw new EngineError(`${provider} answered an unknown queue status`, { transient: true });
    }
  }

  /**
   * How the requests of an endpoint are followed: a look is a status poll (with the result read
   * by `read` once COMPLETED, so the download is part of the poll), and a cancel goes to the
   * endpoint's app.
   */
  const requestsOf = (endpointId: string, read: ReadOutput): JobHandling<GenerationOutcome> => ({
    look: (id, signal) => poll(id, signal, appOf(endpointId), read),
    conclude: (outcome) => outcome,
    cancel: (id) => cancel(id, appOf(endpointId)),
  });

  /**
   * A submission of `input` to the queue's `endpointId` with the platform headers (the image kept
   * an hour), followed to its end and read by `read`.
   */
  const submission = (endpointId: string, input: Record<string, unknown>, read = readImages) => ({
    ...requestsOf(endpointId, read),
    send: () => call('POST', `${queueBase}/${endpointId}`, input, timeoutMs, falSubmitHeaders),
  });

  return createProviderGenerationEngine({
    name: 'fal',
    provider,
    kind: 'request',
    idField: 'request_id',
    missingId: `${provider} answered a submission without a request id`,
    settings,
    generations: requestsOf(endpoint, readImages),
    generation: (request) =>
      submission(endpoint, {
        prompt: request.prompt,
        loras: [{ path: request.weights, scale: 1 }],
        ...falGenerationInput,
        ...(request.seed !== undefined && { seed: request.seed }),
      }),
    upscaler: config.upscaler,
    /** The upscaler (its `model` weights); its result is `image.url`. */
    upscale: (upscaler, imageUrl, scale) =>
      submission(
        upscaler.endpoint,
        { image_url: imageUrl, scale, model: upscaler.model, ...falUpscaleInput },
        readUpscaled,
      ),
    previewer: config.previewer,
    /**
     * A training preview (decision 039): the zero-shot identity endpoint (`fal-ai/flux-pulid`)
     * with the user's best photo as `reference_image_url` (our signed absolute URL), canceled
     * when given up (no one else holds its id). Its result reads as a generation's
     * (`images[0].url`, `has_nsfw_concepts[0]` → blocked, the black image never downloaded).
     */
    preview: (previewer, faceUrl, prompt) =>
      submission(previewer.endpoint, {
        prompt,
        reference_image_url: faceUrl,
        ...falPreviewInput,
      }),
  });
}

/**
 * The reason of a failure the queue recorded for the request, as its result answers it: a model
 * or validation error (4xx) or an infrastructure error fal already retried (5xx with
 * `error_type`). Undefined for answers that say nothing about the request (our key, throttling,
 * a bare gateway error): those are thrown (transient or not) by the caller.
 */
function recordedFailure(response: ProviderResponse): string | undefined {
  const { status } = response;
  // A start deadline that passed is not the request's failure: it never ran (thrown, transient).
  if (isStartDeadline(response)) return undefined;
  const recorded =
    (status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status)) ||
    (status >= 500 &&
      ((isRecord(response.body) && typeof response.body.error_type === 'string') ||
        response.headers.has('x-fal-error-type')));
  if (!recorded) return undefined;
  return (
    problemDetail(response.body) ?? `The image generation failed on ${provider} (HTTP ${status})`
  );
}
