import { createHmac, timingSafeEqual } from 'node:crypto';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import type { FashnConfig } from '../../config.ts';
import { downloadImage } from './generation-support.ts';
import {
  errorFor,
  isRecord,
  type ProviderResponse,
  retryAfterSeconds,
  sendToProvider,
  successBody,
} from './provider-http.ts';
import { EngineError, type WebhookRequest } from './training-engine.ts';
import type { TryOnEngine, TryOnRequest, TryOnStart, TryOnState } from './tryon-engine.ts';

/**
 * Virtual try-on on FASHN (reference/provider-contracts.md §3): `POST /v1/run` with the
 * `tryon-v1.6` model and the specification's values, then `GET /v1/status/{id}` (polled by the
 * caller, or asked once a webhook arrived). There is no cancel endpoint.
 *
 * Statuses: `starting`, `in_queue`, `processing` → running; `completed` → the first output is
 * downloaded at once (CDN URLs live 72 h) and checked to be an image; `failed` / `canceled` →
 * failed, with the runtime `error.name` in words for the user (`tryonMessages.errors`);
 * `PipelineError` is marked worth another run (not charged, §3.5).
 *
 * API errors (`{"error": "<Name>", "message": "..."}`) follow provider-http.ts: network
 * trouble, timeouts, 408, 5xx, unreadable answers and 429 `RateLimitExceeded` /
 * `ConcurrencyLimitExceeded` are transient EngineErrors (retried with backoff); 429
 * `OutOfCredits` (our account has no credit left: waiting does not help) and every other 4xx are
 * final.
 *
 * Webhooks are not signed by FASHN: the URL we give carries our try-on id and an HMAC of it
 * (`webhookSecret`), and `readWebhook` answers the id only when the token matches. The body is
 * never read: the caller confirms with `status`.
 */

export interface FashnTryOnOptions {
  /** Per request (default 30 s). */
  requestTimeoutMs?: number;
  /** The largest output accepted (default 20 MB). */
  maxImageBytes?: number;
  downloadTimeoutMs?: number;
}

const provider = 'FASHN';

export const fashnModelName = 'tryon-v1.6';

/**
 * The run inputs besides the images and the request's options, written out (§3.3).
 * `moderation_level`: FASHN's default is `permissive` (swimwear, underwear and revealing garments
 * allowed, explicit nudity blocked); a consumer product that takes any uploaded garment on any
 * person's photo asks for `conservative` (stricter modesty: those garments are refused and the
 * try-on ends blocked). The levels are `conservative`, `permissive` and `none` (docs.fashn.ai
 * try-on parameters, read 2026-11-27; decision 038).
 */
export const fashnTryOnInputs = {
  moderation_level: 'conservative',
  num_samples: 1,
  segmentation_free: true,
  output_format: 'png',
  return_base64: false,
} as const;

/** FASHN's runtime error names (`error.name` of a failed prediction) → words for the user. */
export const fashnErrorMessages: Readonly<Record<string, string>> = {
  ImageLoadError: tryonMessages.errors.imageLoad,
  ContentModerationError: tryonMessages.errors.contentModeration,
  PoseError: tryonMessages.errors.pose,
};

/** What a failed prediction's `error.name` means for the user. */
export function fashnErrorMessage(name: unknown): string {
  return typeof name === 'string' && Object.hasOwn(fashnErrorMessages, name)
    ? fashnErrorMessages[name]!
    : tryonMessages.errors.generic;
}

/** The webhook token of a try-on: HMAC-SHA256 of its id, base64url. */
export function fashnWebhookToken(secret: string, tryOnId: string): string {
  return createHmac('sha256', secret).update(tryOnId).digest('base64url');
}

export function createFashnTryOnEngine(
  config: FashnConfig,
  options: FashnTryOnOptions = {},
): TryOnEngine {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const maxImageBytes = options.maxImageBytes ?? 20 * 1024 * 1024;
  const downloadTimeoutMs = options.downloadTimeoutMs ?? 60_000;
  // The download has its own timeout; nothing else interrupts it.
  const never = new AbortController().signal;

  const call = (method: 'GET' | 'POST', path: string, json?: unknown) =>
    sendToProvider({
      provider,
      method,
      url: `${baseUrl}${path}`,
      headers: { authorization: `Bearer ${config.apiKey}` },
      json,
      timeoutMs,
    });

  /** The answer's body on success, or the EngineError its API error stands for. */
  function answer(response: ProviderResponse): Record<string, unknown> {
    if (response.status >= 200 && response.status < 300) return successBody(provider, response);
    throw apiError(response);
  }

  async function conclude(prediction: Record<string, unknown>): Promise<TryOnState> {
    const output = Array.isArray(prediction.output) ? prediction.output[0] : undefined;
    if (typeof output !== 'string' || output === '')
      return { status: 'failed', error: tryonMessages.errors.generic };
    const downloaded = await downloadImage(output, {
      provider,
      maxBytes: maxImageBytes,
      timeoutMs: downloadTimeoutMs,
      signal: never,
    });
    // A file that is gone or not an image will not get better: the try-on fails (and is refunded).
    return downloaded.ok
      ? { status: 'succeeded', image: downloaded.image }
      : { status: 'failed', error: tryonMessages.errors.generic };
  }

  return {
    name: 'fashn',
    inProcess: false,

    async start(request: TryOnRequest): Promise<TryOnStart> {
      const query = request.webhookUrl
        ? `?webhook_url=${encodeURIComponent(request.webhookUrl)}`
        : '';
      const response = await call('POST', `/v1/run${query}`, {
        model_name: fashnModelName,
        inputs: {
          model_image: request.personUrl,
          garment_image: request.garmentUrl,
          category: request.options.category,
          mode: request.options.mode,
          garment_photo_type: request.options.garmentPhotoType,
          ...fashnTryOnInputs,
        },
      });
      const body = answer(response);
      if (typeof body.id !== 'string' || body.id === '')
        throw new EngineError(
          `${provider} answered the run without an id${describeError(body.error)}`,
          { transient: true },
        );
      return { reference: body.id };
    },

    async status(reference: string): Promise<TryOnState> {
      const prediction = answer(await call('GET', `/v1/status/${encodeURIComponent(reference)}`));
      switch (prediction.status) {
        case 'completed':
          return conclude(prediction);
        case 'failed': {
          const name = isRecord(prediction.error) ? prediction.error.name : null;
          return {
            status: 'failed',
            error: fashnErrorMessage(name),
            ...(name === 'ContentModerationError' ? { blocked: true } : {}),
            // §3.5: "Retry; failures are not charged".
            ...(name === 'PipelineError' ? { retry: true } : {}),
          };
        }
        case 'canceled':
        case 'time_out':
          return { status: 'failed', error: tryonMessages.errors.generic };
        // starting, in_queue, processing, and anything new: still running (the caller gives up
        // on a try-on that never ends).
        default:
          return { status: 'running' };
      }
    },

    webhookUrl(base: string, tryOnId: string): string {
      const separator = base.includes('?') ? '&' : '?';
      const token = fashnWebhookToken(config.webhookSecret, tryOnId);
      return `${base}${separator}tryon=${encodeURIComponent(tryOnId)}&token=${token}`;
    },

    readWebhook(request: WebhookRequest): string | null {
      const { tryon: tryOnId, token } = request.query;
      if (typeof tryOnId !== 'string' || !tryOnId || typeof token !== 'string' || !token)
        return null;
      const expected = Buffer.from(fashnWebhookToken(config.webhookSecret, tryOnId));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected) ? tryOnId : null;
    },
  };
}

/**
 * The EngineError an API error answer stands for. 429 is transient (rate or concurrency limit)
 * except `OutOfCredits`: the account must be topped up first.
 */
function apiError(response: ProviderResponse): EngineError {
  const body = isRecord(response.body) ? response.body : {};
  const name = typeof body.error === 'string' ? body.error : undefined;
  const text = typeof body.message === 'string' ? body.message : undefined;
  if (name === undefined && text === undefined) return errorFor(provider, response);
  const message = `${provider} answered ${response.status}: ${[name, text].filter(Boolean).join(': ')}`;
  if (response.status === 429)
    return new EngineError(message, {
      transient: name !== 'OutOfCredits',
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
    });
  return new EngineError(message, {
    transient: response.status === 408 || response.status >= 500,
  });
}

function describeError(error: unknown): string {
  if (typeof error === 'string' && error) return ` (${error})`;
  if (isRecord(error) && typeof error.message === 'string') return ` (${error.message})`;
  return '';
}
