import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReplicateConfig } from '../../config.ts';
import {
  errorFor,
  headerValue,
  isRecord,
  type ProviderResponse,
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
 * FLUX LoRA training on Replicate (reference/provider-contracts.md §1): the trainer
 * (`ostris/flux-dev-lora-trainer` at a pinned version) writes a new version of a destination model
 * of ours; that version (`owner/name:hash`) is what generation runs.
 *
 * One destination model per user model, `{owner}/likeness-{modelId}`, private: a user's weights
 * never share a model with anyone else's, deleting a user model maps to deleting one Replicate
 * model (`deleteWeights`), and the version string alone says whose it is. Replicate has no limit that makes one
 * shared destination necessary.
 */

export interface ReplicateEngineOptions {
  /** Per request; the default suits Replicate's API (answers in well under a second). */
  requestTimeoutMs?: number;
}

const provider = 'Replicate';
const destinationPrefix = 'likeness';
/** Standard Webhooks' replay window: a delivery older (or newer) than this is refused. */
const webhookToleranceSeconds = 300;

export function createReplicateTrainingEngine(
  config: ReplicateConfig,
  options: ReplicateEngineOptions = {},
): TrainingEngine {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const secretKey = webhookKey(config.webhookSecret);

  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown) =>
    sendToProvider({
      provider,
      method,
      url: path.startsWith('http') ? path : `${baseUrl}${path}`,
      headers: { authorization: `Bearer ${config.apiToken}` },
      json,
      timeoutMs,
    });

  /**
   * The destination must exist before a training may write to it. Looked up first, so a start
   * retried after a transient failure finds the model it created the first time.
   */
  async function ensureDestination(name: string, modelId: string): Promise<void> {
    const path = `/models/${encodeURIComponent(config.owner)}/${encodeURIComponent(name)}`;
    const found = await call('GET', path);
    if (found.status === 200) return;
    if (found.status !== 404) throw errorFor(provider, found);
    const created = await call('POST', '/models', {
      owner: config.owner,
      name,
      visibility: 'private',
      // Required by the API, but a trained FLUX version runs on the hardware its trainer chose;
      // Replicate's own fine-tuning guide passes this placeholder.
      hardware: 'gpu-t4',
      description: `Likeness user model ${modelId}`,
    });
    // 409: created meanwhile by a concurrent attempt at the same start.
    if (created.status === 409) return;
    successBody(provider, created);
  }

  return {
    name: 'replicate',

    async start(request: TrainingRequest) {
      const name = destinationName(request.modelId);
      await ensureDestination(name, request.modelId);
      const { owner, name: trainerName, version } = config.trainer;
      const response = await call(
        'POST',
        `/models/${encodeURIComponent(owner)}/${encodeURIComponent(trainerName)}/versions/${encodeURIComponent(version)}/trainings`,
        {
          destination: `${config.owner}/${name}`,
          // The trainer's defaults, written out so a new trainer version cannot change them silently.
          input: {
            input_images: request.zipUrl,
            trigger_word: request.triggerWord,
            steps: request.steps,
            lora_rank: 16,
            learning_rate: 0.0004,
            batch_size: 1,
            resolution: '512,768,1024',
            autocaption: true,
            optimizer: 'adamw8bit',
          },
          ...(request.webhookUrl
            ? { webhook: request.webhookUrl, webhook_events_filter: ['start', 'completed'] }
            : {}),
        },
      );
      const training = successBody(provider, response);
      if (typeof training.id !== 'string' || !training.id)
        throw new EngineError(`${provider} answered a training without an id`, {
          transient: true,
        });
      return { reference: training.id };
    },

    async status(reference: string) {
      const response: ProviderResponse = await call(
        'GET',
        `/trainings/${encodeURIComponent(reference)}`,
      );
      const training = successBody(provider, response);
      return stateOf(training) ?? { status: 'running' };
    },

    async cancel(reference: string) {
      successBody(
        provider,
        await call('POST', `/trainings/${encodeURIComponent(reference)}/cancel`),
      );
    },

    /**
     * Deletes the model's destination (`{owner}/likeness-{modelId}`): every version first (each
     * one a trained LoRA; a duplicate training may have written a second), then the model, which
     * Replicate deletes only once it has no versions (docs.replicate.com "Delete a model or model
     * version", read 2026-11-27). A version's deletion is accepted (202) and done "within a few
     * minutes": a model still holding versions answers 4xx, and the deletion is asked again
     * later (transient). A destination already gone is done.
     */
    async deleteWeights(trained: TrainedModel) {
      const model = `/models/${encodeURIComponent(config.owner)}/${encodeURIComponent(destinationName(trained.modelId))}`;
      let page: string | undefined = `${model}/versions`;
      for (let pages = 0; page && pages < 20; pages += 1) {
        const listed = await call('GET', page);
        if (listed.status === 404) return;
        const body = successBody(provider, listed);
        const results = Array.isArray(body.results) ? body.results : [];
        for (const version of results) {
          if (!isRecord(version) || typeof version.id !== 'string' || !version.id) continue;
          const deleted = await call(
            'DELETE',
            `${model}/versions/${encodeURIComponent(version.id)}`,
          );
          if (deleted.status !== 404 && deleted.status >= 300) throw errorFor(provider, deleted);
        }
        page = typeof body.next === 'string' && body.next ? body.next : undefined;
      }
      const removed = await call('DELETE', model);
      if (removed.status === 404 || (removed.status >= 200 && removed.status < 300)) return;
      if ([400, 409, 422].includes(removed.status))
        throw new EngineError(
          `${errorFor(provider, removed).message} (its versions are still being deleted; asked again later)`,
          { transient: true },
        );
      throw errorFor(provider, removed);
    },

    async readWebhook(request: WebhookRequest) {
      if (!verifySignature(request, secretKey)) return null;
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return null;
      }
      if (!isRecord(body) || typeof body.id !== 'string' || !isTraining(body)) return null;
      const state = stateOf(body);
      return state ? { reference: body.id, state } : null;
    },
  };
}

/** Replicate model names: lowercase letters, digits, `-`, `_` and `.`. */
function destinationName(modelId: string): string {
  const safe = modelId
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  return `${destinationPrefix}-${safe}`;
}

/**
 * A training object (create, get and webhook bodies are the same shape) → our state. Undefined
 * for a status this code does not know: treated as still running by polls (a new intermediate
 * status must not fail a training; the reconciler's timeout bounds it) and ignored in webhooks.
 */
function stateOf(training: Record<string, unknown>): TrainingState | undefined {
  switch (training.status) {
    case 'starting':
      return { status: 'running', progress: 0 };
    case 'processing': {
      const progress = progressFromLogs(training.logs, stepsOf(training));
      return progress === undefined ? { status: 'running' } : { status: 'running', progress };
    }
    case 'succeeded': {
      const output = training.output;
      const version = isRecord(output) ? output.version : undefined;
      if (typeof version !== 'string' || !version)
        return { status: 'failed', error: 'The training finished without a model version' };
      return { status: 'succeeded', weights: version };
    }
    case 'failed':
      return {
        status: 'failed',
        error:
          typeof training.error === 'string' && training.error.trim()
            ? training.error.trim()
            : 'The training failed',
      };
    case 'canceled':
      return { status: 'failed', error: 'The training was canceled' };
    case 'aborted':
      return { status: 'failed', error: 'The training was aborted before it started' };
    default:
      return undefined;
  }
}

function stepsOf(training: Record<string, unknown>): number | undefined {
  const input = training.input;
  const steps = isRecord(input) ? Number(input.steps) : NaN;
  return Number.isInteger(steps) && steps > 0 ? steps : undefined;
}

/**
 * The trainer logs its progress as `step 250/1000` or a tqdm bar (`| 250/1000 [02:13<06:40, ...`).
 * Other bars (captioning `12/12`) are told apart by their total when the step count is known.
 * Never 100 while running: that is for the finished model.
 */
export function progressFromLogs(logs: unknown, steps: number | undefined): number | undefined {
  if (typeof logs !== 'string' || !logs) return undefined;
  const pattern = /(?:\bstep\s+|\|\s*)(\d+)\s*\/\s*(\d+)/gi;
  let latest: number | undefined;
  for (const match of logs.matchAll(pattern)) {
    const done = Number(match[1]);
    const total = Number(match[2]);
    if (!total || done > total) continue;
    if (steps !== undefined && total !== steps) continue;
    latest = Math.min(99, Math.floor((done / total) * 100));
  }
  return latest;
}

/** Trainings carry the trainer's `input_images` and an object output; predictions a list. */
function isTraining(body: Record<string, unknown>): boolean {
  if (Array.isArray(body.output)) return false;
  const input = body.input;
  return (
    (isRecord(input) && 'input_images' in input) ||
    (isRecord(body.output) && 'version' in body.output)
  );
}

/** `whsec_<base64>` → the HMAC key (Standard Webhooks). */
function webhookKey(secret: string): Buffer {
  return Buffer.from(secret.slice(secret.indexOf('_') + 1), 'base64');
}

/**
 * Standard Webhooks (§1.8): HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{raw body}`, any
 * of the space-separated `v1,<base64>` signatures, compared in constant time; the timestamp within
 * 300 s of now.
 */
function verifySignature(request: WebhookRequest, key: Buffer): boolean {
  const id = headerValue(request.headers, 'webhook-id');
  const timestamp = headerValue(request.headers, 'webhook-timestamp');
  const signatures = headerValue(request.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > webhookToleranceSeconds)
    return false;
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(request.rawBody)
    .digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
