import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { FalConfig } from '../../config.ts';
import {
  errorFor,
  headerValue,
  isRecord,
  isStartDeadline,
  problemDetail,
  sendToProvider,
  successBody,
} from './provider-http.ts';
import {
  EngineError,
  type TrainedModel,
  type TrainingEngine,
  type TrainingRequest,
  type TrainingState,
  type WebhookRequest,
} from './training-engine.ts';

/**
 * FLUX LoRA training on fal's queue (reference/provider-contracts.md §2): submit to
 * `fal-ai/flux-lora-fast-training`, poll its status, read the result; the LoRA file's URL is what
 * generation passes to `fal-ai/flux-lora`.
 *
 * The reference is the bare `request_id`. The status and result URLs are derived from it rather
 * than stored: they are `{queue}/{owner}/{app}/requests/{id}[/status]` (§2.2: without the
 * endpoint's path, which this endpoint does not have), and a bare id is also what a webhook
 * carries, so the two match without parsing URLs.
 */

export interface FalEngineOptions {
  /** Per request. */
  requestTimeoutMs?: number;
  /**
   * After a signature matched none of the cached keys, the key set is fetched again (fal rotated
   * its keys) — but at most this often, so forged deliveries cannot make us hammer the JWKS URL.
   */
  jwksMinRefetchSeconds?: number;
}

const provider = 'fal';
const trainingEndpoint = 'fal-ai/flux-lora-fast-training';
/** `{owner}/{app}`: status and result URLs leave out an endpoint's path (here there is none). */
const trainingApp = 'fal-ai/flux-lora-fast-training';
const webhookToleranceSeconds = 300;
const jwksTtlMs = 24 * 3600 * 1000;

export function createFalTrainingEngine(
  config: FalConfig,
  options: FalEngineOptions = {},
): TrainingEngine {
  const queueBase = config.queueBaseUrl.replace(/\/+$/, '');
  const apiBase = config.apiBaseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const minRefetchMs = (options.jwksMinRefetchSeconds ?? 60) * 1000;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, json?: unknown) =>
    sendToProvider({
      provider,
      method,
      url,
      headers: { authorization: `Key ${config.key}` },
      json,
      timeoutMs,
    });

  const requestUrl = (reference: string) =>
    `${queueBase}/${trainingApp}/requests/${encodeURIComponent(reference)}`;

  /** The result of a request the queue calls COMPLETED: the LoRA, or why there is none. */
  async function result(reference: string): Promise<TrainingState> {
    const response = await call('GET', requestUrl(reference));
    if (response.status >= 200 && response.status < 300) {
      const url = loraUrl(successBody(provider, response));
      return url
        ? { status: 'succeeded', weights: url }
        : { status: 'failed', error: 'The training finished without a LoRA file' };
    }
    // The queue keeps a failed request's error and answers it here: a model or validation error
    // (4xx) or an infrastructure error fal already retried (5xx with `error_type`). Anything
    // else (our key, throttling, a bare gateway error) says nothing about the training.
    const { status } = response;
    // A start deadline that passed says the training never ran, not that it failed.
    if (isStartDeadline(response)) throw errorFor(provider, response);
    const recorded =
      (status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status)) ||
      (status >= 500 &&
        ((isRecord(response.body) && typeof response.body.error_type === 'string') ||
          response.headers.has('x-fal-error-type')));
    if (!recorded) throw errorFor(provider, response);
    return {
      status: 'failed',
      error: problemDetail(response.body) ?? `The training failed (HTTP ${status})`,
    };
  }

  async function status(reference: string): Promise<TrainingState> {
    const response = await call('GET', `${requestUrl(reference)}/status?logs=1`);
    const body = successBody(provider, response);
    switch (body.status) {
      case 'IN_QUEUE':
        return { status: 'running', progress: 0 };
      case 'IN_PROGRESS':
        return { status: 'running' };
      case 'COMPLETED':
        if (typeof body.error === 'string' && body.error.trim())
          return { status: 'failed', error: body.error.trim() };
        return result(reference);
      default:
        throw new EngineError(`${provider} answered an unknown queue status`, {
          transient: true,
        });
    }
  }

  const jwks = createKeyCache(config.webhookJwksUrl, timeoutMs, minRefetchMs);

  return {
    name: 'fal',

    async start(request: TrainingRequest) {
      const webhook = request.webhookUrl
        ? `?fal_webhook=${encodeURIComponent(request.webhookUrl)}`
        : '';
      const response = await call('POST', `${queueBase}/${trainingEndpoint}${webhook}`, {
        images_data_url: request.zipUrl,
        trigger_word: request.triggerWord,
        steps: request.steps,
        create_masks: true,
      });
      const submitted = successBody(provider, response);
      if (typeof submitted.request_id !== 'string' || !submitted.request_id)
        throw new EngineError(`${provider} answered a submission without a request id`, {
          transient: true,
        });
      return { reference: submitted.request_id };
    },

    status,

    async cancel(reference: string) {
      successBody(provider, await call('PUT', `${requestUrl(reference)}/cancel`));
    },

    /**
     * The LoRA is the output of the training request, a file on fal's CDN kept with no expiry
     * (generation loads it from there for as long as the model lives). fal's Platform API
     * deletes a request's stored payloads and the CDN files of its output: `DELETE
     * {api}/models/requests/{request_id}/payloads` (fal.ai/docs "Delete request payloads", read
     * 2026-11-27), with an admin key. A request fal no longer knows (404) is done; a file fal
     * reports it could not delete is asked again later.
     */
    async deleteWeights(trained: TrainedModel) {
      if (!trained.reference) return;
      const response = await call(
        'DELETE',
        `${apiBase}/models/requests/${encodeURIComponent(trained.reference)}/payloads`,
      );
      if (response.status === 404) return;
      const body = successBody(provider, response);
      const left = (Array.isArray(body.cdn_delete_results) ? body.cdn_delete_results : []).filter(
        (result) => isRecord(result) && result.exception != null,
      );
      if (left.length > 0)
        throw new EngineError(
          `${provider} could not delete ${left.length} file(s) of request ${trained.reference}`,
          { transient: true },
        );
    },

    async readWebhook(request: WebhookRequest) {
      if (!(await verifySignature(request, jwks))) return null;
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return null;
      }
      if (!isRecord(body) || typeof body.request_id !== 'string' || !body.request_id) return null;
      const reference = body.request_id;
      if (body.status === 'ERROR') {
        const error =
          problemDetail(body.payload) ??
          (typeof body.error === 'string' && body.error.trim() ? body.error.trim() : undefined);
        return { reference, state: { status: 'failed', error: error ?? 'The training failed' } };
      }
      if (body.status !== 'OK') return null;
      const url = loraUrl(body.payload);
      if (url) return { reference, state: { status: 'succeeded', weights: url } };
      // Generation results carry images, not a LoRA: not about a training.
      if (isRecord(body.payload) && 'images' in body.payload) return null;
      // A payload fal could not serialize (`payload_error`): the queue still has the result.
      return { reference, state: await status(reference) };
    },
  };
}

function loraUrl(output: unknown): string | undefined {
  const file = isRecord(output) ? output.diffusers_lora_file : undefined;
  const url = isRecord(file) ? file.url : undefined;
  return typeof url === 'string' && url ? url : undefined;
}

interface KeyCache {
  /** The cached keys, fetched when there are none or they are older than 24 h. */
  current(): Promise<KeyObject[]>;
  /** Fetched again if the cached set is older than the minimum interval; else undefined. */
  refreshed(): Promise<KeyObject[] | undefined>;
}

function createKeyCache(url: string, timeoutMs: number, minRefetchMs: number): KeyCache {
  let cached: { keys: KeyObject[]; fetchedAt: number } | undefined;
  let pending: Promise<KeyObject[]> | undefined;

  async function fetchKeys(): Promise<KeyObject[]> {
    const response = await sendToProvider({
      provider: `${provider} (webhook keys)`,
      method: 'GET',
      url,
      headers: {},
      timeoutMs,
    });
    const body = successBody(`${provider} (webhook keys)`, response);
    const keys = (Array.isArray(body.keys) ? body.keys : []).flatMap((jwk) => {
      if (!isRecord(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string')
        return [];
      try {
        return [createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })];
      } catch {
        return [];
      }
    });
    cached = { keys, fetchedAt: Date.now() };
    return keys;
  }

  /** One fetch at a time; when it fails, keys fetched earlier stay in use. */
  function load(): Promise<KeyObject[]> {
    pending ??= fetchKeys()
      .catch((error: unknown) => {
        if (cached) return cached.keys;
        throw error;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return {
    async current() {
      if (cached && Date.now() - cached.fetchedAt < jwksTtlMs) return cached.keys;
      return load();
    },
    async refreshed() {
      if (cached && Date.now() - cached.fetchedAt < minRefetchMs) return undefined;
      return load();
    },
  };
}

/**
 * fal's webhook signature (§2.5): Ed25519 over
 * `{request id}\n{user id}\n{timestamp}\n{hex sha256 of the raw body}`, hex-encoded, by any key
 * of fal's JWKS; the timestamp within 300 s of now. When no cached key matches, the key set is
 * fetched once more (a rotation) and tried again. A JWKS that cannot be fetched at all throws a
 * transient EngineError: the delivery may well be authentic, and fal retries it.
 */
async function verifySignature(request: WebhookRequest, jwks: KeyCache): Promise<boolean> {
  const requestId = headerValue(request.headers, 'x-fal-webhook-request-id');
  const userId = headerValue(request.headers, 'x-fal-webhook-user-id');
  const timestamp = headerValue(request.headers, 'x-fal-webhook-timestamp');
  const signatureHex = headerValue(request.headers, 'x-fal-webhook-signature');
  if (!requestId || !userId || !timestamp || !signatureHex) return false;
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > webhookToleranceSeconds)
    return false;
  const message = Buffer.from(
    [requestId, userId, timestamp, createHash('sha256').update(request.rawBody).digest('hex')].join(
      '\n',
    ),
  );
  const signature = Buffer.from(signatureHex, 'hex');
  const signedByAny = (keys: KeyObject[]) =>
    keys.some((key) => verify(null, message, key, signature));
  if (signedByAny(await jwks.current())) return true;
  const refreshed = await jwks.refreshed();
  return refreshed !== undefined && signedByAny(refreshed);
}
