import type { FalConfig } from '../../config.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
  GenerationRequest,
} from './generation-engine.ts';
import {
  downloadImage,
  nextPause,
  pause,
  type PollTiming,
  unlessAborted,
} from './generation-support.ts';
import {
  errorFor,
  isRecord,
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
 * `has_nsfw_concepts[0] === true` → blocked: the flagged image is never downloaded. Otherwise
 * `images[0].url` is downloaded at once. The result's `seed` can exceed 2^53 (JSON.parse rounds
 * it): it is never read.
 *
 * Errors follow provider-http.ts, as in replicate-generation.ts: transient trouble is thrown
 * (polls tolerate a few in a row, the request still runs), a 4xx answer to the submission is a
 * `failed` outcome with fal's detail (our input is wrong or our key is refused: retrying cannot
 * help), and a failure the queue recorded for the request (a model error, or an infrastructure
 * error fal already retried) is a `failed` outcome too. On abort the request is canceled (best
 * effort) and a transient EngineError thrown.
 *
 * Status and result URLs are derived from the request id (`{queue}/fal-ai/flux-lora/requests/{id}`),
 * as fal-training.ts does: the endpoint has no path, so `{owner}/{app}` is the endpoint id.
 */

export interface FalGenerationOptions {
  /** Per request (default 30 s). */
  requestTimeoutMs?: number;
  /** The first pause between status polls (default 1 s); it grows by half up to the maximum. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /** Transient poll failures in a row tolerated before giving up (default 5). */
  maxPollFailures?: number;
  /** The largest image accepted (default 20 MB). */
  maxImageBytes?: number;
  downloadTimeoutMs?: number;
}

const provider = 'fal';
const endpoint = 'fal-ai/flux-lora';

/** The inputs besides the prompt and the LoRA (§2.7). */
export const falGenerationInput = {
  image_size: 'portrait_4_3',
  num_images: 1,
  enable_safety_checker: true,
  output_format: 'jpeg',
} as const;

export function createFalGenerationEngine(
  config: FalConfig,
  options: FalGenerationOptions = {},
): GenerationEngine {
  const queueBase = config.queueBaseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const timing: PollTiming = {
    firstMs: options.pollIntervalMs ?? 1000,
    maxMs: options.maxPollIntervalMs ?? 5000,
  };
  const maxPollFailures = options.maxPollFailures ?? 5;
  const maxImageBytes = options.maxImageBytes ?? 20 * 1024 * 1024;
  const downloadTimeoutMs = options.downloadTimeoutMs ?? 60_000;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, json?: unknown, ms = timeoutMs) =>
    sendToProvider({
      provider,
      method,
      url,
      headers: { authorization: `Key ${config.key}` },
      json,
      timeoutMs: ms,
    });
  const requestUrl = (id: string) => `${queueBase}/${endpoint}/requests/${encodeURIComponent(id)}`;

  /** Best effort: a request we no longer wait for should not keep a GPU busy. */
  async function cancel(id: string): Promise<void> {
    try {
      await call('PUT', `${requestUrl(id)}/cancel`, undefined, Math.min(timeoutMs, 5000));
    } catch {
      // The request ends by itself.
    }
  }

  const interrupted = (id: string | undefined) =>
    new EngineError(
      id
        ? `The generation was interrupted before ${provider} finished it (request ${id}, canceled)`
        : `The generation was interrupted before ${provider} accepted it`,
      { transient: true },
    );

  /** The result of a COMPLETED request. */
  async function result(id: string, signal: AbortSignal): Promise<GenerationOutcome> {
    const response = await call('GET', requestUrl(id));
    if (response.status >= 300) {
      const failure = recordedFailure(response);
      if (failure === undefined) throw errorFor(provider, response);
      return { status: 'failed', error: failure, reference: id };
    }
    const output = successBody(provider, response);
    const flags = output.has_nsfw_concepts;
    if (Array.isArray(flags) && flags[0] === true) return { status: 'blocked', reference: id };
    const images = Array.isArray(output.images) ? output.images : [];
    const first: unknown = images[0];
    const url = isRecord(first) && typeof first.url === 'string' && first.url ? first.url : null;
    if (!url)
      return { status: 'failed', error: `${provider} finished without an image`, reference: id };
    const downloaded = await downloadImage(url, {
      provider,
      maxBytes: maxImageBytes,
      timeoutMs: downloadTimeoutMs,
      signal,
    });
    return downloaded.ok
      ? { status: 'succeeded', image: downloaded.image, reference: id }
      : { status: 'failed', error: downloaded.error, reference: id };
  }

  /** One status poll: the outcome once COMPLETED, undefined while queued or running. */
  async function poll(id: string, signal: AbortSignal): Promise<GenerationOutcome | undefined> {
    const body = successBody(provider, await call('GET', `${requestUrl(id)}/status`));
    switch (body.status) {
      case 'IN_QUEUE':
      case 'IN_PROGRESS':
        return undefined;
      case 'COMPLETED':
        if (typeof body.error === 'string' && body.error.trim())
          return { status: 'failed', error: body.error.trim(), reference: id };
        return result(id, signal);
      default:
        throw new EngineError(`${provider} answered an unknown queue status`, { transient: true });
    }
  }

  return {
    name: 'fal',
    makesPreviews: false,

    async generate(request: GenerationRequest, signal: AbortSignal) {
      if (signal.aborted) throw interrupted(undefined);
      const submitting = call('POST', `${queueBase}/${endpoint}`, {
        prompt: request.prompt,
        loras: [{ path: request.weights, scale: 1 }],
        ...falGenerationInput,
      });
      const submitted = await unlessAborted(submitting, signal);
      if (submitted.aborted) {
        void submitting
          .then((response) => {
            const id = requestId(response);
            return id ? cancel(id) : undefined;
          })
          .catch(() => undefined);
        throw interrupted(undefined);
      }
      const response = submitted.value;
      if (response.status >= 400) {
        const error = errorFor(provider, response);
        if (error.transient) throw error;
        return { status: 'failed', error: error.message, reference: null };
      }
      const id = successBody(provider, response).request_id;
      if (typeof id !== 'string' || !id)
        throw new EngineError(`${provider} answered a submission without a request id`, {
          transient: true,
        });

      let delay = timing.firstMs;
      let failures = 0;
      for (;;) {
        await pause(delay, signal);
        if (signal.aborted) {
          await cancel(id);
          throw interrupted(id);
        }
        try {
          const polled = await unlessAborted(poll(id, signal), signal);
          if (polled.aborted) {
            await cancel(id);
            throw interrupted(id);
          }
          if (polled.value) return polled.value;
          failures = 0;
          delay = nextPause(delay, timing);
        } catch (error) {
          if (!(error instanceof EngineError) || signal.aborted) throw error;
          if (!error.transient) return { status: 'failed', error: error.message, reference: id };
          failures += 1;
          if (failures > maxPollFailures) {
            await cancel(id);
            throw error;
          }
          delay = Math.max(nextPause(delay, timing), (error.retryAfterSeconds ?? 0) * 1000);
        }
      }
    },
  };
}

function requestId(response: ProviderResponse): string | undefined {
  const body = response.body;
  return response.status < 300 &&
    isRecord(body) &&
    typeof body.request_id === 'string' &&
    body.request_id
    ? body.request_id
    : undefined;
}

/**
 * The reason of a failure the queue recorded for the request, as its result answers it: a model
 * or validation error (4xx) or an infrastructure error fal already retried (5xx with
 * `error_type`). Undefined for answers that say nothing about the request (our key, throttling,
 * a bare gateway error): those are thrown (transient or not) by the caller.
 */
function recordedFailure(response: ProviderResponse): string | undefined {
  const { status } = response;
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
