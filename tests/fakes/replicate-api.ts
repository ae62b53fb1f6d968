import { createHmac, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { ReplicateConfig } from '../../src/server/config.ts';
import {
  type Answer,
  downloadZip,
  fakeJpeg,
  type RecordedRequest,
  type Route,
  type ScriptedFailure,
  startJsonServer,
} from './provider-fake-kit.ts';

/**
 * A local stand-in for the parts of Replicate's HTTP API that training uses, over real HTTP and
 * keeping its contract (reference/provider-contracts.md §1): Bearer auth, JSON bodies, RFC 7807
 * problem details (`application/problem+json`) for errors, destination models that must exist
 * before a training writes to them, the trainer's input validation (422), trainings that move
 * `starting → processing → succeeded | failed | canceled` when the test says so, and webhooks
 * signed with the Standard Webhooks HMAC, sent for the events the training asked for, with the
 * same `webhook-id` when redelivered.
 *
 * Like the real service, a training downloads its `input_images` when it starts processing and
 * fails when that is not a zip (an expired signed URL answers 403).
 *
 * Predictions (§1.5-1.7) run a version of one of our models (`owner/name:hash`, made by a
 * training or by `addVersion`) with the trained FLUX model's input schema (422 otherwise). Each
 * prediction follows the next `scriptPrediction` script (unscripted ones succeed at once): it
 * advances on the client's polls, not on a clock, so tests are deterministic. `Prefer: wait` is
 * honoured by answering the create request with the final object when the script has no polls;
 * otherwise the create answer is `starting` (the real service would hold it up to N seconds
 * first). Output files are served by the fake itself under `/delivery/...` (the real ones live on
 * replicate.delivery, for 1 h); their requests are recorded like every other.
 *
 * The upscaler (`nightmareai/real-esrgan` at its pinned version, docs/providers.md) is a public
 * model here too: its predictions validate its schema (`image` a URI, `scale` 0-10, `face_enhance`
 * a boolean; 422 otherwise), follow their own `scriptUpscale` scripts, and when they run fetch
 * `image` as the service would (any HTTP failure or a non-image fails the prediction) and answer
 * the image `scale` times larger (default 4), as PNG, with `output` a single URL string.
 *
 * The training previews' zero-shot identity model (`bytedance/flux-pulid` at its pinned version,
 * docs/providers.md) is a public model too: its predictions validate its schema (`main_face_image`
 * a URI, `width`/`height` 256-1536, `num_steps` 1-20, `start_step` 0-10, `id_weight` 0-3,
 * `true_cfg` 1-10, `guidance_scale` 1-10, `num_outputs` 1-4, `output_format` png/jpg/webp; 422
 * otherwise), follow their own `scriptPreview` scripts, and when they run fetch `main_face_image`
 * as the service would (an HTTP failure or a non-image fails the prediction) and answer a list of
 * URLs, each serving the face photo cropped and resized to `width`x`height`, so a test can tell
 * the picture came from the photo sent. The model has no safety-checker input; a script's `nsfw`
 * still fails it with the trained model's words, for the adapter's blocked path.
 *
 * Deviation: the real API only accepts HTTPS webhook URLs; this one accepts http://127.0.0.1.
 *
 * Trainings and predictions share one object shape and id space on Replicate; `runs` holds both.
 */

export type RunStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';

interface RunBase {
  /** The public object, as GET answers it and webhooks carry it. */
  object: Record<string, unknown> & { id: string; status: RunStatus };
  webhook: string | undefined;
  events: WebhookEvent[];
}

interface TrainingRun extends RunBase {
  kind: 'training';
  destination: string;
}

interface PredictionRun extends RunBase {
  kind: 'prediction';
  /** A prediction of the upscaler rather than of one of our trained models. */
  upscale: boolean;
  /** A prediction of the previews' PuLID-FLUX. */
  preview: boolean;
  script: PredictionScript;
  /** GET polls still to answer `processing`. */
  pollsLeft: number;
}

type Run = TrainingRun | PredictionRun;

/** How one prediction goes (see `scriptPrediction`). */
export interface PredictionScript {
  /**
   * How it ends (default `succeed`):
   * - `succeed`: one output URL per `num_outputs`, each serving a 768x1024 JPEG;
   * - `filtered`: the safety checker dropped image 0 (§1.7 partial filtering): succeeded with one
   *   URL fewer, so an empty output for `num_outputs: 1`;
   * - `nsfw`: every image dropped: failed with the trained model's "NSFW content detected" error;
   * - `fail`: failed with `error`;
   * - `cancel` / `abort`: canceled, or aborted before it started (a `Cancel-After` deadline).
   */
  outcome?: 'succeed' | 'filtered' | 'nsfw' | 'fail' | 'cancel' | 'abort';
  /** With `fail` (default: a CUDA out-of-memory error). */
  error?: string;
  /**
   * GET polls answered `processing` before the outcome (default 0). `Infinity`: it never ends by
   * itself (until canceled).
   */
  polls?: number;
  /** Serve the output files like this instead of the JPEG (an expired file, a wrong type, …). */
  file?: { status?: number; body?: Uint8Array | string; contentType?: string };
}

/** The trained model's error when the safety checker dropped every image (§1.7). */
export const replicateNsfwError =
  'NSFW content detected. Try running it again, or try a different prompt.';

export interface WebhookMessage {
  /** `webhook-id`: one per message, the same on every redelivery. */
  id: string;
  url: string;
  event: WebhookEvent;
  /** The body exactly as sent. */
  body: string;
}

export interface WebhookDelivery {
  messageId: string;
  /** The receiver's answer; 0 when it could not be reached. */
  status: number;
}

export interface FakeReplicate {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** `${url}/v1`, what REPLICATE_BASE_URL points at. */
  baseUrl: string;
  apiToken: string;
  webhookSecret: string;
  /** The account the token belongs to (the only owner it may create models for). */
  owner: string;
  trainer: { owner: string; name: string; version: string };
  /** The REPLICATE_* variables pointing the app at this fake. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  messages: WebhookMessage[];
  deliveries: WebhookDelivery[];
  training(id: string): Record<string, unknown> | undefined;
  /** Every training created, oldest first, with the destination model it writes to. */
  trainings(): Record<string, unknown>[];
  prediction(id: string): Record<string, unknown> | undefined;
  model(fullName: string): Record<string, unknown> | undefined;
  /** The version ids `owner/name` still has (a deleted one goes once its deletion is done). */
  versions(fullName: string): string[];
  /** The pinned upscaler (REPLICATE_UPSCALER / REPLICATE_UPSCALER_VERSION). */
  upscaler: { owner: string; name: string; version: string };
  /**
   * How the next upscaler prediction goes (only `outcome`, `error`, `polls` and `file` apply);
   * scripts queue up apart from `scriptPrediction`'s.
   */
  scriptUpscale(script: PredictionScript): void;
  /** The pinned previews model (REPLICATE_PREVIEWER / REPLICATE_PREVIEWER_VERSION). */
  previewer: { owner: string; name: string; version: string };
  /** How the next previews-model prediction goes (`outcome`, `error`, `polls`, `file`). */
  scriptPreview(script: PredictionScript): void;
  /** Models deleted through `DELETE /v1/models/{owner}/{name}`, in order. */
  deletedModels: string[];
  /**
   * Replicate accepts a version's deletion (202) and does it "within a few minutes": with this
   * set, deleted versions stay until `finishVersionDeletions`, and their model cannot be deleted.
   */
  slowVersionDeletion: boolean;
  finishVersionDeletions(): void;
  /**
   * A new version of `{owner}/{name}` (created, private, when missing), as a training makes it;
   * returns `owner/name:hash`, what a prediction's `version` names.
   */
  addVersion(name?: string): string;
  /**
   * How the next prediction goes; scripts queue up, one per prediction created. For 429, 500 or a
   * malformed answer use `failNext({ match: 'POST /v1/predictions', ... })`.
   */
  scriptPrediction(script: PredictionScript): void;
  /** starting → processing: downloads the zip (failing the training if it is not one). */
  startTraining(id: string): Promise<void>;
  /** Appends a trainer progress line (a tqdm bar) to the logs. */
  logStep(id: string, step: number): void;
  /** → succeeded (through processing), with a new version of the destination model. */
  completeTraining(id: string): Promise<void>;
  failTraining(id: string, error: string): Promise<void>;
  /** Sends a message again: same webhook-id and body, a fresh timestamp and signature. */
  redeliver(messageId: string, options?: DeliverOptions): Promise<WebhookDelivery>;
  /** The next matching request fails as described (see ScriptedFailure). */
  failNext(failure?: ScriptedFailure): void;
  /** While true, webhook messages are recorded but never reach their URL (a lost delivery). */
  loseWebhooks: boolean;
  close(): Promise<void>;
}

export interface DeliverOptions {
  /** Unix seconds to sign with (default now). */
  timestamp?: number;
  /** Sign with another secret. */
  secret?: string;
}

const hardware = new Set([
  'cpu',
  'gpu-t4',
  'gpu-l40s',
  'gpu-l40s-2x',
  'gpu-a100-large',
  'gpu-h100',
]);
const eventNames = new Set<WebhookEvent>(['start', 'output', 'logs', 'completed']);
const aspectRatios = [
  '1:1',
  '16:9',
  '21:9',
  '3:2',
  '2:3',
  '4:5',
  '5:4',
  '3:4',
  '4:3',
  '9:16',
  '9:21',
  'custom',
];

const runId = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from(randomBytes(26), (byte) => alphabet[byte % 32]).join('');
};
const nowIso = () => new Date().toISOString();

/** Standard Webhooks signature, as Replicate sends it (§1.8). */
export function signReplicateWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(secret.indexOf('_') + 1), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The adapters' configuration pointing at the fake (its token, secret, trainer and owner). */
export function replicateConfig(fake: FakeReplicate): ReplicateConfig {
  return {
    apiToken: fake.apiToken,
    webhookSecret: fake.webhookSecret,
    baseUrl: fake.baseUrl,
    trainer: fake.trainer,
    owner: fake.owner,
  };
}

export async function startFakeReplicate(
  options: { owner?: string; trainer?: { owner: string; name: string; version: string } } = {},
): Promise<FakeReplicate> {
  const apiToken = `r8_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const owner = options.owner ?? 'likeness-test';
  const trainer = options.trainer ?? {
    owner: 'ostris',
    name: 'flux-dev-lora-trainer',
    version: randomBytes(32).toString('hex'),
  };
  const models = new Map<string, Record<string, unknown>>();
  /** `owner/name` → its version ids. */
  const versions = new Map<string, Set<string>>();
  const runs = new Map<string, Run>();
  const scripts: PredictionScript[] = [];
  const upscaleScripts: PredictionScript[] = [];
  const upscaler = {
    owner: 'nightmareai',
    name: 'real-esrgan',
    version: '42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b',
  };
  const upscalerName = `${upscaler.owner}/${upscaler.name}`;
  const previewScripts: PredictionScript[] = [];
  const previewer = {
    owner: 'bytedance',
    name: 'flux-pulid',
    version: '8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b',
  };
  const previewerName = `${previewer.owner}/${previewer.name}`;
  /** `/delivery/{id}/{file}` → how it is served. */
  const outputs = new Map<string, NonNullable<PredictionScript['file']>>();
  const messages: WebhookMessage[] = [];
  const deliveries: WebhookDelivery[] = [];
  const control = { loseWebhooks: false, slowVersionDeletion: false };
  const pendingVersionDeletions: { model: string; version: string }[] = [];
  const deletedModels: string[] = [];
  function finishVersionDeletions() {
    for (const { model, version } of pendingVersionDeletions.splice(0))
      versions.get(model)?.delete(version);
  }
  let baseUrl = '';

  const problem = (status: number, detail: string, title?: string): Answer => ({
    status,
    body: { ...(title ? { title } : {}), detail, status },
    headers: { 'content-type': 'application/problem+json' },
  });
  const usualDetail: Record<number, string> = {
    400: 'Invalid input',
    401: 'You did not pass a valid authentication token',
    404: 'Not found.',
    405: 'Method not allowed.',
    429: 'Request was throttled. Your rate limit resets in ~30s.',
    500: 'Internal server error',
    502: 'Bad gateway',
    503: 'Service unavailable',
  };

  function modelObject(modelOwner: string, name: string, extra: Record<string, unknown>) {
    return {
      url: `https://replicate.com/${modelOwner}/${name}`,
      owner: modelOwner,
      name,
      description: null,
      visibility: 'private',
      github_url: null,
      paper_url: null,
      license_url: null,
      run_count: 0,
      cover_image_url: null,
      default_example: null,
      latest_version: null,
      ...extra,
    };
  }
  models.set(
    `${trainer.owner}/${trainer.name}`,
    modelObject(trainer.owner, trainer.name, {
      visibility: 'public',
      latest_version: { id: trainer.version, created_at: nowIso(), cog_version: '0.9.0' },
    }),
  );

  models.set(
    upscalerName,
    modelObject(upscaler.owner, upscaler.name, {
      visibility: 'public',
      latest_version: { id: upscaler.version, created_at: nowIso(), cog_version: '0.8.6' },
    }),
  );
  versions.set(upscalerName, new Set([upscaler.version]));
  models.set(
    previewerName,
    modelObject(previewer.owner, previewer.name, {
      visibility: 'public',
      latest_version: { id: previewer.version, created_at: nowIso(), cog_version: '0.9.8' },
    }),
  );
  versions.set(previewerName, new Set([previewer.version]));

  const isTerminal = (status: RunStatus) =>
    status === 'succeeded' || status === 'failed' || status === 'canceled' || status === 'aborted';

  function addVersion(fullName: string): string {
    const versionId = randomBytes(32).toString('hex');
    const model = models.get(fullName)!;
    model.latest_version = { id: versionId, created_at: nowIso(), cog_version: '0.9.0' };
    if (!versions.has(fullName)) versions.set(fullName, new Set());
    versions.get(fullName)!.add(versionId);
    return versionId;
  }

  /** The input schema of a trained FLUX LoRA version (§1.5, the trainer's predict.py). */
  function predictionInputProblem(input: unknown): Answer | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return problem(422, '- input: Invalid type. Expected: object\n', 'Input validation failed');
    const fields = input as Record<string, unknown>;
    const issues: string[] = [];
    if (typeof fields.prompt !== 'string') issues.push('- input: prompt is required');
    const range = (name: string, min: number, max: number, integer: boolean) => {
      const value = fields[name];
      if (value === undefined) return;
      if (integer ? !Number.isInteger(value) : typeof value !== 'number')
        issues.push(`- input.${name}: Invalid type. Expected: ${integer ? 'integer' : 'number'}`);
      else if ((value as number) < min)
        issues.push(`- input.${name}: Must be greater than or equal to ${min}`);
      else if ((value as number) > max)
        issues.push(`- input.${name}: Must be less than or equal to ${max}`);
    };
    range('num_outputs', 1, 4, true);
    range('num_inference_steps', 1, 50, true);
    range('output_quality', 0, 100, true);
    range('guidance_scale', 0, 10, false);
    range('lora_scale', -1, 2, false);
    const oneOf = (name: string, allowed: string[]) => {
      const value = fields[name];
      if (value !== undefined && !allowed.includes(value as string))
        issues.push(
          `- input.${name}: ${name} must be one of the following: ${allowed.map((a) => `"${a}"`).join(', ')}`,
        );
    };
    oneOf('aspect_ratio', aspectRatios);
    oneOf('output_format', ['webp', 'jpg', 'png']);
    oneOf('model', ['dev', 'schnell']);
    if (
      fields.disable_safety_checker !== undefined &&
      typeof fields.disable_safety_checker !== 'boolean'
    )
      issues.push('- input.disable_safety_checker: Invalid type. Expected: boolean');
    return issues.length > 0
      ? problem(422, `${issues.join('\n')}\n`, 'Input validation failed')
      : undefined;
  }

  /** The upscaler's input schema (its version's API page). */
  function upscaleInputProblem(input: unknown): Answer | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return problem(422, '- input: Invalid type. Expected: object\n', 'Input validation failed');
    const fields = input as Record<string, unknown>;
    const issues: string[] = [];
    if (fields.image === undefined) issues.push('- input: image is required');
    else if (typeof fields.image !== 'string' || !/^(https?|data):/.test(fields.image))
      issues.push('- input.image: Does not match format "uri"');
    const scale = fields.scale;
    if (scale !== undefined) {
      if (typeof scale !== 'number') issues.push('- input.scale: Invalid type. Expected: number');
      else if (scale < 0) issues.push('- input.scale: Must be greater than or equal to 0');
      else if (scale > 10) issues.push('- input.scale: Must be less than or equal to 10');
    }
    if (fields.face_enhance !== undefined && typeof fields.face_enhance !== 'boolean')
      issues.push('- input.face_enhance: Invalid type. Expected: boolean');
    return issues.length > 0
      ? problem(422, `${issues.join('\n')}\n`, 'Input validation failed')
      : undefined;
  }

  /** PuLID-FLUX's input schema (its version's API page). */
  function previewInputProblem(input: unknown): Answer | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return problem(422, '- input: Invalid type. Expected: object\n', 'Input validation failed');
    const fields = input as Record<string, unknown>;
    const issues: string[] = [];
    if (fields.main_face_image === undefined) issues.push('- input: main_face_image is required');
    else if (
      typeof fields.main_face_image !== 'string' ||
      !/^(https?|data):/.test(fields.main_face_image)
    )
      issues.push('- input.main_face_image: Does not match format "uri"');
    for (const name of ['prompt', 'negative_prompt'])
      if (fields[name] !== undefined && typeof fields[name] !== 'string')
        issues.push(`- input.${name}: Invalid type. Expected: string`);
    const range = (name: string, min: number, max: number, integer: boolean) => {
      const value = fields[name];
      if (value === undefined) return;
      if (integer ? !Number.isInteger(value) : typeof value !== 'number')
        issues.push(`- input.${name}: Invalid type. Expected: ${integer ? 'integer' : 'number'}`);
      else if ((value as number) < min)
        issues.push(`- input.${name}: Must be greater than or equal to ${min}`);
      else if ((value as number) > max)
        issues.push(`- input.${name}: Must be less than or equal to ${max}`);
    };
    range('width', 256, 1536, true);
    range('height', 256, 1536, true);
    range('num_steps', 1, 20, true);
    range('start_step', 0, 10, true);
    range('guidance_scale', 1, 10, false);
    range('id_weight', 0, 3, false);
    range('true_cfg', 1, 10, false);
    range('max_sequence_length', 128, 512, true);
    range('output_quality', 1, 100, true);
    range('num_outputs', 1, 4, true);
    if (
      fields.output_format !== undefined &&
      !['png', 'jpg', 'webp'].includes(fields.output_format as string)
    )
      issues.push(
        '- input.output_format: output_format must be one of the following: "png", "jpg", "webp"',
      );
    return issues.length > 0
      ? problem(422, `${issues.join('\n')}\n`, 'Input validation failed')
      : undefined;
  }

  /** `owner/name:hash` or a bare hash of one of our versions → the model and version. */
  function findVersion(ref: unknown): { model: string; version: string } | undefined {
    if (typeof ref !== 'string') return undefined;
    const full = /^([^/:]+\/[^/:]+):([0-9a-f]{64})$/.exec(ref);
    if (full)
      return versions.get(full[1]!)?.has(full[2]!)
        ? { model: full[1]!, version: full[2]! }
        : undefined;
    if (!/^[0-9a-f]{64}$/.test(ref)) return undefined;
    for (const [model, ids] of versions) if (ids.has(ref)) return { model, version: ref };
    return undefined;
  }

  function webhookFields(body: Record<string, unknown>, defaults: WebhookEvent[]) {
    let webhook: string | undefined;
    if (body.webhook !== undefined) {
      if (typeof body.webhook !== 'string' || !URL.canParse(body.webhook))
        return problem(400, 'The webhook URL is not valid');
      webhook = body.webhook;
    }
    const filter = body.webhook_events_filter;
    if (
      filter !== undefined &&
      (!Array.isArray(filter) || filter.some((event) => !eventNames.has(event as WebhookEvent)))
    )
      return problem(400, 'webhook_events_filter may contain start, output, logs and completed');
    return { webhook, events: (filter as WebhookEvent[] | undefined) ?? defaults };
  }

  async function createPrediction(
    body: Record<string, unknown>,
    prefer: string | undefined,
  ): Promise<Answer> {
    const wait = prefer === undefined ? undefined : /^\s*wait(?:=(\d+))?\s*$/.exec(prefer);
    if (
      prefer !== undefined &&
      (!wait || (wait[1] !== undefined && !(Number(wait[1]) >= 1 && Number(wait[1]) <= 60)))
    )
      return problem(400, 'Invalid Prefer header: expected wait or wait=N with N between 1 and 60');
    const found = findVersion(body.version);
    if (!found)
      return problem(
        422,
        "The specified version does not exist (or perhaps you don't have permission to use it?)",
        'Invalid version or not permitted',
      );
    const upscale = found.model === upscalerName;
    const preview = found.model === previewerName;
    const invalid = (
      upscale ? upscaleInputProblem : preview ? previewInputProblem : predictionInputProblem
    )(body.input);
    if (invalid) return invalid;
    const hooks = webhookFields(body, ['output', 'completed']);
    if ('status' in hooks) return hooks;
    const script = (upscale ? upscaleScripts : preview ? previewScripts : scripts).shift() ?? {};
    const id = runId();
    const run: PredictionRun = {
      kind: 'prediction',
      upscale,
      preview,
      script,
      pollsLeft: script.polls ?? 0,
      ...hooks,
      object: {
        id,
        model: found.model,
        version: found.version,
        input: body.input as Record<string, unknown>,
        logs: '',
        output: null,
        data_removed: false,
        error: null,
        status: 'starting',
        created_at: nowIso(),
        started_at: null,
        completed_at: null,
        metrics: {},
        source: 'api',
        urls: runUrls('prediction', id),
      },
    };
    runs.set(id, run);
    if (wait && run.pollsLeft === 0) await settle(run);
    return { status: 201, body: structuredClone(run.object) };
  }

  /** A GET poll moves a prediction on: `processing` while it has polls left, then its outcome. */
  async function advance(run: PredictionRun) {
    if (isTerminal(run.object.status)) return;
    if (run.pollsLeft > 0) {
      run.pollsLeft -= 1;
      if (run.object.status === 'starting') {
        Object.assign(run.object, { status: 'processing', started_at: nowIso() });
        run.object.logs += 'Using seed: 42069\nLoaded LoRAs in 1.21s\n';
        await notify(run, 'start');
      }
      return;
    }
    await settle(run);
  }

  /**
   * Ends an upscaler prediction: fetches `image` as the service does and answers it `scale` times
   * larger, as a PNG behind one URL string; a script's `fail` or `file` still applies.
   */
  async function settleUpscale(run: PredictionRun) {
    const { script } = run;
    if (run.object.started_at === null) run.object.started_at = nowIso();
    const input = run.object.input as { image: string; scale?: number };
    if (script.outcome === 'fail')
      return finish(run, 'failed', { error: script.error ?? 'CUDA out of memory.' });
    const path = `/delivery/${run.object.id}/output.png`;
    if (script.file) {
      outputs.set(path, script.file);
      return finish(run, 'succeeded', { output: `${baseUrl}${path}` });
    }
    let original: Buffer;
    try {
      const response = await fetch(input.image, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      original = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      return finish(run, 'failed', {
        error: `Failed to download ${input.image}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    const scale = input.scale ?? 4;
    let enlarged: Buffer;
    try {
      const { width, height } = await sharp(original).metadata();
      enlarged = await sharp(original)
        .resize(Math.round(width! * scale), Math.round(height! * scale))
        .png({ compressionLevel: 1 })
        .toBuffer();
    } catch {
      return finish(run, 'failed', { error: 'cannot identify image file' });
    }
    run.object.logs += `Upscaling by ${scale}\n`;
    outputs.set(path, { body: enlarged, contentType: 'image/png' });
    return finish(run, 'succeeded', { output: `${baseUrl}${path}` });
  }

  /**
   * Ends a PuLID-FLUX prediction: fetches `main_face_image` as the service does and answers, per
   * `num_outputs`, the photo cropped and resized to `width`x`height` in `output_format`, behind a
   * list of URLs; a script's `nsfw`, `fail`, `cancel` or `file` still applies.
   */
  async function settlePreview(run: PredictionRun) {
    const { script } = run;
    if (run.object.started_at === null) run.object.started_at = nowIso();
    const input = run.object.input as {
      main_face_image: string;
      width?: number;
      height?: number;
      num_outputs?: number;
      output_format?: string;
    };
    const outcome = script.outcome ?? 'succeed';
    if (outcome === 'fail')
      return finish(run, 'failed', { error: script.error ?? 'CUDA out of memory.' });
    if (outcome === 'nsfw') return finish(run, 'failed', { error: replicateNsfwError });
    if (outcome === 'cancel') return finish(run, 'canceled', {});
    if (outcome === 'abort') return finish(run, 'aborted', {});
    let face: Buffer;
    try {
      const response = await fetch(input.main_face_image, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      face = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      return finish(run, 'failed', {
        error: `Failed to download ${input.main_face_image}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    const format = input.output_format ?? 'webp';
    let picture: Buffer;
    try {
      const resized = sharp(face)
        .rotate()
        .resize(input.width ?? 896, input.height ?? 1152, { fit: 'cover' });
      picture = await (
        format === 'png' ? resized.png() : format === 'jpg' ? resized.jpeg() : resized.webp()
      ).toBuffer();
    } catch {
      return finish(run, 'failed', { error: 'cannot identify image file' });
    }
    run.object.logs += 'Using seed: 42069\n100%|██████████| 20/20 [00:09<00:00,  2.11it/s]\n';
    const contentType = format === 'jpg' ? 'image/jpeg' : `image/${format}`;
    const urls = Array.from({ length: input.num_outputs ?? 1 }, (_, index) => {
      const path = `/delivery/${run.object.id}/out-${index}.${format}`;
      outputs.set(path, script.file ?? { body: picture, contentType });
      return `${baseUrl}${path}`;
    });
    return finish(run, 'succeeded', { output: urls });
  }

  /** Ends a prediction as its script says. */
  async function settle(run: PredictionRun) {
    const { script } = run;
    if (run.upscale) return settleUpscale(run);
    if (run.preview) return settlePreview(run);
    const outcome = script.outcome ?? 'succeed';
    if (outcome === 'abort') return finish(run, 'aborted', {});
    if (run.object.started_at === null) {
      run.object.started_at = nowIso();
      run.object.logs += 'Using seed: 42069\nLoaded LoRAs in 1.21s\n';
    }
    const input = run.object.input as { num_outputs?: number; output_format?: string };
    const count = input.num_outputs ?? 1;
    const extension = input.output_format ?? 'webp';
    run.object.logs += '100%|██████████| 28/28 [00:07<00:00,  3.71it/s]\n';
    const id = run.object.id;
    const urls = (indexes: number[]) =>
      indexes.map((index) => {
        const path = `/delivery/${id}/out-${index}.${extension}`;
        outputs.set(path, script.file ?? {});
        return `${baseUrl}${path}`;
      });
    const all = Array.from({ length: count }, (_, index) => index);
    switch (outcome) {
      case 'succeed':
        return finish(run, 'succeeded', { output: urls(all) });
      case 'filtered':
        run.object.logs += 'NSFW content detected in image 0\n';
        return finish(run, 'succeeded', { output: urls(all.slice(1)) });
      case 'nsfw':
        run.object.logs += all.map((index) => `NSFW content detected in image ${index}\n`).join('');
        return finish(run, 'failed', { error: replicateNsfwError });
      case 'fail':
        return finish(run, 'failed', {
          error: script.error ?? 'CUDA out of memory. Tried to allocate 2.00 GiB',
        });
      case 'cancel':
        return finish(run, 'canceled', {});
    }
  }

  function trainingInputProblem(input: unknown): Answer | undefined {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      return problem(422, '- input: Invalid type. Expected: object\n', 'Input validation failed');
    const fields = input as Record<string, unknown>;
    const issues: string[] = [];
    if (typeof fields.input_images !== 'string' || !/^https?:\/\//.test(fields.input_images))
      issues.push('- input.input_images: Does not match format "uri"');
    const range = (name: string, min: number, max: number) => {
      const value = fields[name];
      if (value === undefined) return;
      if (!Number.isInteger(value)) issues.push(`- input.${name}: Invalid type. Expected: integer`);
      else if ((value as number) < min)
        issues.push(`- input.${name}: Must be greater than or equal to ${min}`);
      else if ((value as number) > max)
        issues.push(`- input.${name}: Must be less than or equal to ${max}`);
    };
    range('steps', 3, 6000);
    range('lora_rank', 1, 128);
    range('batch_size', 1, 16);
    if (fields.trigger_word !== undefined && typeof fields.trigger_word !== 'string')
      issues.push('- input.trigger_word: Invalid type. Expected: string');
    if (fields.autocaption !== undefined && typeof fields.autocaption !== 'boolean')
      issues.push('- input.autocaption: Invalid type. Expected: boolean');
    return issues.length > 0
      ? problem(422, `${issues.join('\n')}\n`, 'Input validation failed')
      : undefined;
  }

  function createTraining(
    trainerRef: { owner: string; name: string; version: string },
    body: Record<string, unknown>,
  ): Answer {
    const model = models.get(`${trainerRef.owner}/${trainerRef.name}`);
    const latest = model?.latest_version as { id: string } | null | undefined;
    if (!model || latest?.id !== trainerRef.version)
      return problem(404, 'The requested version does not exist');
    const destination = body.destination;
    if (
      typeof destination !== 'string' ||
      !models.has(destination) ||
      !destination.startsWith(`${owner}/`)
    )
      return problem(404, 'The specified training destination does not exist');
    const invalid = trainingInputProblem(body.input);
    if (invalid) return invalid;
    // No filter: output and completed (§1.8); a training has no intermediate outputs.
    const hooks = webhookFields(body, ['output', 'completed']);
    if ('status' in hooks) return hooks;
    const id = runId();
    const run: TrainingRun = {
      kind: 'training',
      destination,
      ...hooks,
      object: {
        id,
        model: `${trainerRef.owner}/${trainerRef.name}`,
        version: trainerRef.version,
        input: body.input as Record<string, unknown>,
        logs: '',
        output: null,
        error: null,
        status: 'starting',
        created_at: nowIso(),
        started_at: null,
        completed_at: null,
        metrics: {},
        source: 'api',
        // The create answer points at /v1/predictions (the recorded cassette does); GET at trainings.
        urls: {
          get: `${baseUrl}/v1/predictions/${id}`,
          cancel: `${baseUrl}/v1/predictions/${id}/cancel`,
        },
      },
    };
    runs.set(id, run);
    return { status: 201, body: structuredClone(run.object) };
  }

  function runUrls(kind: Run['kind'], id: string) {
    const collection = kind === 'training' ? 'trainings' : 'predictions';
    return {
      web: `https://replicate.com/p/${id}`,
      get: `${baseUrl}/v1/${collection}/${id}`,
      cancel: `${baseUrl}/v1/${collection}/${id}/cancel`,
    };
  }
  const trainingUrls = (id: string) => runUrls('training', id);

  const routes: Route[] = [
    {
      method: 'POST',
      pattern: /^\/v1\/models$/,
      handle: ({ body }) => {
        const fields = (body ?? {}) as Record<string, unknown>;
        const { owner: modelOwner, name, visibility } = fields;
        if (typeof modelOwner !== 'string' || typeof name !== 'string')
          return problem(400, 'owner and name are required');
        if (modelOwner !== owner)
          return problem(403, `You do not have permission to create models for ${modelOwner}`);
        if (!/^[a-z0-9][a-z0-9._-]*$/.test(name) || name.length > 100)
          return problem(
            400,
            'Model names may contain lowercase letters, numbers, dashes, underscores and periods',
          );
        if (visibility !== 'public' && visibility !== 'private')
          return problem(400, 'visibility must be public or private');
        if (typeof fields.hardware !== 'string' || !hardware.has(fields.hardware))
          return problem(400, `Invalid hardware: ${String(fields.hardware)}`);
        const fullName = `${modelOwner}/${name}`;
        if (models.has(fullName))
          return problem(409, 'A model with that name and owner already exists.');
        const model = modelObject(modelOwner, name, {
          visibility,
          description: typeof fields.description === 'string' ? fields.description : null,
          hardware: fields.hardware,
        });
        models.set(fullName, model);
        return { status: 201, body: model };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/models\/([^/]+)\/([^/]+)$/,
      handle: ({ match }) => {
        const model = models.get(`${match[1]}/${match[2]}`);
        // Someone else's private model is as invisible as a missing one.
        if (!model || (model.visibility === 'private' && model.owner !== owner))
          return problem(404, 'Not found.');
        return { status: 200, body: model };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/models\/([^/]+)\/([^/]+)$/,
      handle: ({ match }) => {
        const fullName = `${match[1]}/${match[2]}`;
        const model = models.get(fullName);
        if (!model || model.owner !== owner) return problem(404, 'Not found.');
        if (model.visibility !== 'private')
          return problem(403, 'You can only delete private models.');
        // Replicate deletes a model only once it has no versions (exact refusal not documented).
        if ((versions.get(fullName)?.size ?? 0) > 0)
          return problem(409, 'This model has versions. Delete its versions first.');
        models.delete(fullName);
        deletedModels.push(fullName);
        return { status: 204, body: '' };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/models\/([^/]+)\/([^/]+)\/versions$/,
      handle: ({ match }) => {
        const fullName = `${match[1]}/${match[2]}`;
        const model = models.get(fullName);
        if (!model || (model.visibility === 'private' && model.owner !== owner))
          return problem(404, 'Not found.');
        const results = [...(versions.get(fullName) ?? [])].reverse().map((id) => ({
          id,
          created_at: nowIso(),
          cog_version: '0.9.0',
          openapi_schema: null,
        }));
        return { status: 200, body: { next: null, previous: null, results } };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/models\/([^/]+)\/([^/]+)\/versions\/([^/]+)$/,
      handle: ({ match }) => {
        const fullName = `${match[1]}/${match[2]}`;
        const model = models.get(fullName);
        if (!model || model.owner !== owner || !versions.get(fullName)?.has(match[3]!))
          return problem(404, 'Not found.');
        if (model.visibility !== 'private')
          return problem(403, 'You can only delete versions from private models.');
        // Accepted at once and done "within a few minutes": here, when the test says so.
        pendingVersionDeletions.push({ model: fullName, version: match[3]! });
        if (!control.slowVersionDeletion) finishVersionDeletions();
        return { status: 202, body: '' };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/models\/([^/]+)\/([^/]+)\/versions\/([^/]+)\/trainings$/,
      handle: ({ match, body }) =>
        createTraining(
          { owner: match[1]!, name: match[2]!, version: match[3]! },
          (body ?? {}) as Record<string, unknown>,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/trainings\/([^/]+)$/,
      handle: ({ match }) => {
        const run = runs.get(match[1]!);
        if (!run || run.kind !== 'training') return problem(404, 'Not found.');
        return {
          status: 200,
          body: { ...structuredClone(run.object), urls: trainingUrls(run.object.id) },
        };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/trainings\/([^/]+)\/cancel$/,
      handle: async ({ match }) => {
        const run = runs.get(match[1]!);
        if (!run || run.kind !== 'training') return problem(404, 'Not found.');
        if (!isTerminal(run.object.status)) await finish(run, 'canceled', {});
        return {
          status: 200,
          body: { ...structuredClone(run.object), urls: trainingUrls(run.object.id) },
        };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/predictions$/,
      handle: ({ body, headers }) =>
        createPrediction(
          (body ?? {}) as Record<string, unknown>,
          typeof headers.prefer === 'string' ? headers.prefer : undefined,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/predictions\/([^/]+)$/,
      handle: async ({ match }) => {
        const run = runs.get(match[1]!);
        if (!run || run.kind !== 'prediction') return problem(404, 'Not found.');
        await advance(run);
        return { status: 200, body: structuredClone(run.object) };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/predictions\/([^/]+)\/cancel$/,
      handle: async ({ match }) => {
        const run = runs.get(match[1]!);
        if (!run || run.kind !== 'prediction') return problem(404, 'Not found.');
        if (!isTerminal(run.object.status)) await finish(run, 'canceled', {});
        return { status: 200, body: structuredClone(run.object) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/delivery\/[^/]+\/[^/]+$/,
      public: true,
      handle: async ({ path }) => {
        const file = outputs.get(path);
        if (!file)
          return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
        return {
          status: file.status ?? 200,
          body: file.body ?? (await fakeJpeg()),
          headers: { 'content-type': file.contentType ?? 'image/jpeg' },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/webhooks\/default\/secret$/,
      handle: () => ({ status: 200, body: { key: webhookSecret } }),
    },
  ];

  const server = await startJsonServer({
    authorized: (headers) => headers.authorization === `Bearer ${apiToken}`,
    error: (status, detail) => problem(status, detail ?? usualDetail[status] ?? 'Error'),
    routes,
  });
  baseUrl = server.url;

  function runOf(id: string): TrainingRun {
    const run = runs.get(id);
    if (!run || run.kind !== 'training') throw new Error(`no training ${id}`);
    return run;
  }

  async function deliver(message: WebhookMessage, deliverOptions: DeliverOptions = {}) {
    if (control.loseWebhooks) {
      const lost = { messageId: message.id, status: 0 };
      deliveries.push(lost);
      return lost;
    }
    const timestamp = deliverOptions.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = signReplicateWebhook(
      deliverOptions.secret ?? webhookSecret,
      message.id,
      timestamp,
      message.body,
    );
    let status: number;
    try {
      const response = await fetch(message.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Replicate-Webhooks/2.0',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        body: message.body,
        redirect: 'manual', // Replicate follows no redirects
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    const delivery = { messageId: message.id, status };
    deliveries.push(delivery);
    return delivery;
  }

  /** Sends the run's current object for an event it subscribed to. */
  async function notify(run: Run, event: WebhookEvent) {
    if (!run.webhook || !run.events.includes(event)) return;
    const message: WebhookMessage = {
      id: `msg_${randomBytes(12).toString('base64url')}`,
      url: run.webhook,
      event,
      body: JSON.stringify({ ...run.object, urls: runUrls(run.kind, run.object.id) }),
    };
    messages.push(message);
    await deliver(message);
  }

  async function finish(run: Run, status: RunStatus, fields: Record<string, unknown>) {
    Object.assign(run.object, fields, { status, completed_at: nowIso() });
    const started = run.object.started_at
      ? Date.parse(run.object.started_at as string)
      : Date.now();
    run.object.metrics = { predict_time: (Date.now() - started) / 1000 };
    await notify(run, 'completed');
  }

  async function startTraining(id: string) {
    const run = runOf(id);
    if (run.object.status !== 'starting') return;
    Object.assign(run.object, { status: 'processing', started_at: nowIso() });
    await notify(run, 'start');
    const input = run.object.input as { input_images: string; steps?: number };
    const zip = await downloadZip(input.input_images);
    if (!zip.ok) {
      run.object.logs += `Downloading input_images: ${zip.why}\n`;
      await finish(run, 'failed', {
        error:
          zip.why === 'not a zip file'
            ? 'input_images must be a zip file'
            : `Failed to download input_images (${zip.why})`,
      });
      return;
    }
    run.object.logs +=
      'Extracting input_images\nCaptioning: 100%|██████████| 12/12 [00:07<00:00,  1.64it/s]\n';
  }

  return {
    url: baseUrl,
    baseUrl: `${baseUrl}/v1`,
    apiToken,
    webhookSecret,
    owner,
    trainer,
    env: {
      IMAGE_ENGINE: 'replicate',
      REPLICATE_API_TOKEN: apiToken,
      REPLICATE_WEBHOOK_SECRET: webhookSecret,
      REPLICATE_BASE_URL: `${baseUrl}/v1`,
      REPLICATE_TRAINER: `${trainer.owner}/${trainer.name}`,
      REPLICATE_TRAINER_VERSION: trainer.version,
      REPLICATE_OWNER: owner,
      REPLICATE_UPSCALER: upscalerName,
      REPLICATE_UPSCALER_VERSION: upscaler.version,
      REPLICATE_PREVIEWER: previewerName,
      REPLICATE_PREVIEWER_VERSION: previewer.version,
    },
    requests: server.requests,
    messages,
    deliveries,
    training: (id) => {
      const run = runs.get(id);
      return run ? structuredClone(run.object) : undefined;
    },
    trainings: () =>
      [...runs.values()]
        .filter((run) => run.kind === 'training')
        .map((run) => ({ ...structuredClone(run.object), destination: run.destination })),
    prediction: (id) => {
      const run = runs.get(id);
      return run?.kind === 'prediction' ? structuredClone(run.object) : undefined;
    },
    model: (fullName) => models.get(fullName),
    addVersion(name = `likeness-${runId().slice(0, 10)}`) {
      const fullName = `${owner}/${name}`;
      if (!models.has(fullName)) models.set(fullName, modelObject(owner, name, {}));
      return `${fullName}:${addVersion(fullName)}`;
    },
    scriptPrediction(script) {
      scripts.push(script);
    },
    upscaler,
    scriptUpscale(script) {
      upscaleScripts.push(script);
    },
    previewer,
    scriptPreview(script) {
      previewScripts.push(script);
    },
    startTraining,
    logStep(id, step) {
      const run = runOf(id);
      const total = Number((run.object.input as { steps?: number }).steps ?? 1000);
      const percent = Math.floor((step / total) * 100);
      run.object.logs += `flux_train_replicate: ${String(percent).padStart(3)}%|██▌       | ${step}/${total} [02:13<06:40,  1.87it/s, lr: 4.0e-04 loss: 3.812e-01]\n`;
    },
    async completeTraining(id) {
      const run = runOf(id);
      await startTraining(id);
      if (isTerminal(run.object.status)) return;
      const versionId = addVersion(run.destination);
      await finish(run, 'succeeded', {
        output: {
          version: `${run.destination}:${versionId}`,
          weights: `${baseUrl}/delivery/${id}/trained_model.tar`,
        },
      });
    },
    async failTraining(id, error) {
      const run = runOf(id);
      if (isTerminal(run.object.status)) return;
      if (run.object.status === 'starting') run.object.started_at = nowIso();
      await finish(run, 'failed', { error });
    },
    async redeliver(messageId, deliverOptions) {
      const message = messages.find((candidate) => candidate.id === messageId);
      if (!message) throw new Error(`no webhook message ${messageId}`);
      return deliver(message, deliverOptions);
    },
    versions: (fullName) => [...(versions.get(fullName) ?? [])],
    deletedModels,
    finishVersionDeletions,
    failNext: server.failNext,
    get slowVersionDeletion() {
      return control.slowVersionDeletion;
    },
    set slowVersionDeletion(value: boolean) {
      control.slowVersionDeletion = value;
    },
    get loseWebhooks() {
      return control.loseWebhooks;
    },
    set loseWebhooks(value: boolean) {
      control.loseWebhooks = value;
    },
    close: server.close,
  };
}
