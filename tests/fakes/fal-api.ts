import {
  createHash,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
} from 'node:crypto';
import {
  type Answer,
  downloadZip,
  fakeJpeg,
  type RecordedRequest,
  type Route,
  type ScriptedFailure,
  startJsonServer,
} from './provider-fake-kit.ts';
import sharp from 'sharp';
import type { FalConfig } from '../../src/server/config.ts';

/**
 * A local stand-in for fal's queue API and webhook signing, over real HTTP and keeping the
 * contract (reference/provider-contracts.md §2): `Authorization: Key …`; submission to
 * `{owner}/{app}[/{path}]` with the input as the body and `?fal_webhook=`; status (202 while
 * `IN_QUEUE`/`IN_PROGRESS`, 200 once `COMPLETED`), result and cancel under `{owner}/{app}` only;
 * 422 validation errors as `{detail: [{loc, msg, type}]}`; webhooks signed with Ed25519 over
 * `request id \n user id \n timestamp \n sha256(body)`, hex, against the key set the fake serves
 * at `/.well-known/jwks.json` (which can rotate).
 *
 * Requests move `IN_QUEUE → IN_PROGRESS → COMPLETED` when the test says so. Like fal's trainer,
 * the runner downloads `images_data_url` when it starts and fails the request when it is not a
 * zip (an expired signed URL answers 403).
 *
 * Endpoints are a table. Inference (`fal-ai/flux-lora`, §2.7) runs by itself instead: each request
 * follows the next `scriptGeneration` script (unscripted ones succeed), advancing on the client's
 * status polls (`IN_PROGRESS` while it has polls left, then `COMPLETED`), not on a clock. Its
 * images are served by the fake under `/files/...` (the real ones live on fal.media), and its
 * result carries a `seed` above 2^53, as fal's do. A flagged image is served black, as fal's are.
 *
 * The upscaler (`fal-ai/esrgan`, docs/providers.md) runs by itself too, following its own
 * `scriptUpscale` scripts: its input is validated as fal documents it (`image_url` required,
 * `scale` 1-8, `model` one of the ESRGAN weights, `output_format` png or jpeg; 422 otherwise), and
 * when it runs it fetches `image_url` (a failed download or a non-image fails the request with a
 * 422 naming `image_url`) and answers `{image: {url, content_type, width, height, …}}`, the image
 * `scale` times larger.
 *
 * The training previews' zero-shot identity endpoint (`fal-ai/flux-pulid`, docs/providers.md) runs
 * by itself too, following its own `scriptPreview` scripts: its input is validated as fal documents
 * it (`prompt` and `reference_image_url` required, `image_size` a preset or `{width, height}`,
 * `num_inference_steps` 1-50, `guidance_scale` 0-20, `enable_safety_checker` a boolean; `id_weight`,
 * `true_cfg` numbers and `start_step` an integer, their ranges not read: 422 otherwise), and when
 * it runs it fetches `reference_image_url` (a failed download or a non-image fails the request
 * with a 422 naming it) and answers `{images: [{url, …}], has_nsfw_concepts, seed, prompt}`, the
 * image being the reference photo cropped and resized to the size asked for (so a test can tell
 * it was used); a script's `nsfw` flags it and serves it black, as fal does.
 *
 * Platform headers a submission carries (`X-Fal-Object-Lifecycle-Preference`, `X-Fal-Store-IO`,
 * `X-Fal-Request-Timeout`) are kept on the request (`platformHeaders`) for tests to read; the
 * lifecycle header must be the documented JSON (`{"expiration_duration_seconds": N}`, N ≥ 1, or
 * null) or the submission is refused with 422. The Platform API's `DELETE
 * /v1/models/requests/{id}/payloads` deletes a request's stored result and its output files
 * (the LoRA of a training), answering `cdn_delete_results`.
 */

type QueueStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';

interface DetailItem {
  loc: string[];
  msg: string;
  type: string;
}

interface QueueRequest {
  id: string;
  /** The full endpoint id it was submitted to. */
  endpointId: string;
  /** `{owner}/{app}`: what status, result and cancel URLs use. */
  appId: string;
  input: Record<string, unknown>;
  webhook: string | undefined;
  status: QueueStatus;
  logs: { message: string; level: string; source: 'USER'; timestamp: string }[];
  result?: Answer;
  /** The webhook body, once completed (the same on every redelivery). */
  webhookBody?: string;
  /** Inference requests: their script and the status polls still to answer `IN_PROGRESS`. */
  script?: FalGenerationScript;
  pollsLeft?: number;
  /** The submission's `x-fal-*` headers (lower-case names), as sent. */
  platformHeaders: Record<string, string>;
  /** Its payloads and output files were deleted through the Platform API. */
  payloadsDeleted?: boolean;
  /** Output files the runner made (the upscaler's), by file name. */
  files?: Map<string, { body: Buffer; contentType: string; width: number; height: number }>;
}

/** How one `fal-ai/flux-lora` request goes (see `scriptGeneration`). */
export interface FalGenerationScript {
  /**
   * How it ends (default `succeed`): `succeed` (one JPEG per `num_images`), `nsfw` (the safety
   * checker flagged image 0: it is still listed, black, with `has_nsfw_concepts: [true, …]`),
   * `fail` (a failed request: a 422 model error with `error`, or with `errorType` an
   * infrastructure error with that `status`, default 504), `startDeadline` (no runner started it
   * before its `X-Fal-Request-Timeout`: the result answers 504 with
   * `X-Fal-Request-Timeout-Type: user`; it never ran).
   */
  outcome?: 'succeed' | 'nsfw' | 'fail' | 'startDeadline';
  error?: string;
  status?: number;
  errorType?: string;
  /** Status polls answered `IN_PROGRESS` before it completes (default 0). `Infinity`: never. */
  polls?: number;
  /** Serve the images like this instead of the JPEG (an expired file, a wrong type, …). */
  file?: { status?: number; body?: Uint8Array | string; contentType?: string };
}

/** A seed as fal sends them: above 2^53, so JSON.parse cannot keep it exactly. */
export const falBigSeed = '196619188014358660';

interface EndpointSpec {
  /** 422 detail items for an input the endpoint refuses at submission. */
  validate(input: Record<string, unknown>): DetailItem[];
  /** What the runner does first when it picks a request up; a detail item fails the request. */
  begin?(request: QueueRequest): Promise<DetailItem | undefined>;
  output(request: QueueRequest, baseUrl: string): unknown;
  /** Runs by itself, following scripts (inference), rather than by the test's controls. */
  scripted?: boolean;
  /** What a scripted runner does before it succeeds; a detail item fails the request (422). */
  run?(request: QueueRequest): Promise<DetailItem | undefined>;
}

export interface FalDelivery {
  requestId: string;
  /** The receiver's answer; 0 when it could not be reached. */
  status: number;
}

export interface FalDeliverOptions {
  /** Unix seconds to sign with (default now). */
  timestamp?: number;
  /** Sign with another key (one the JWKS does not list). */
  privateKey?: KeyObject;
}

export interface FakeFal {
  /** e.g. http://127.0.0.1:40123: the queue base URL. */
  url: string;
  jwksUrl: string;
  key: string;
  /** The account id webhooks are signed for (`X-Fal-Webhook-User-Id`). */
  userId: string;
  /** The FAL_* variables pointing the app at this fake. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  deliveries: FalDelivery[];
  request(id: string): QueueRequest | undefined;
  /** IN_QUEUE → IN_PROGRESS: the runner downloads the zip (failing the request if it is not one). */
  startRequest(id: string): Promise<void>;
  log(id: string, message: string): void;
  /** → COMPLETED with the endpoint's output (through IN_PROGRESS); webhook `OK`. */
  completeTraining(id: string): Promise<void>;
  /**
   * → COMPLETED as a failure; webhook `ERROR`. By default a 422 model error with `error` as its
   * message; `{ status: 504, errorType: 'request_timeout' }` makes it an infrastructure error.
   */
  failTraining(
    id: string,
    error: string,
    options?: { status?: number; errorType?: string; startDeadline?: boolean },
  ): Promise<void>;
  /**
   * How the next `fal-ai/flux-lora` request goes; scripts queue up, one per submission. For 429,
   * 500 or a malformed answer use `failNext({ match: 'POST /fal-ai/flux-lora', ... })`.
   */
  scriptGeneration(script: FalGenerationScript): void;
  /**
   * How the next `fal-ai/esrgan` request goes (`outcome` succeed or fail, `polls`, `file`);
   * scripts queue up apart from `scriptGeneration`'s.
   */
  scriptUpscale(script: FalGenerationScript): void;
  /**
   * How the next `fal-ai/flux-pulid` request goes (`outcome` succeed, nsfw or fail, `polls`,
   * `file`); scripts queue up apart from the others.
   */
  scriptPreview(script: FalGenerationScript): void;
  /** Sends a completed request's webhook again (same body, fresh timestamp and signature). */
  redeliver(requestId: string, options?: FalDeliverOptions): Promise<FalDelivery>;
  /** A new signing key; the JWKS lists only it, or both with `keepOld`. */
  rotateKey(options?: { keepOld?: boolean }): void;
  failNext(failure?: ScriptedFailure): void;
  /** The next payload deletion reports this exception for each file (fal could not delete it). */
  failFileDeletion(exception: string): void;
  close(): Promise<void>;
}

/** fal's webhook signature (§2.5), as the fake sends it. */
export function signFalWebhook(
  privateKey: KeyObject,
  requestId: string,
  userId: string,
  timestamp: number,
  body: string,
): string {
  const message = [
    requestId,
    userId,
    String(timestamp),
    createHash('sha256').update(body).digest('hex'),
  ].join('\n');
  return sign(null, Buffer.from(message), privateKey).toString('hex');
}

const missingField = (field: string): DetailItem => ({
  loc: ['body', field],
  msg: 'field required',
  type: 'value_error.missing',
});

const typeError = (field: string, msg: string, type: string): DetailItem => ({
  loc: ['body', field],
  msg,
  type,
});
const imageSizes = [
  'square_hd',
  'square',
  'portrait_4_3',
  'portrait_16_9',
  'landscape_4_3',
  'landscape_16_9',
];

/** FluxLoraInput (§2.7). */
function validateFluxLora(input: Record<string, unknown>): DetailItem[] {
  const issues: DetailItem[] = [];
  if (input.prompt === undefined) issues.push(missingField('prompt'));
  else if (typeof input.prompt !== 'string')
    issues.push(typeError('prompt', 'str type expected', 'type_error.str'));
  if (input.loras !== undefined) {
    if (!Array.isArray(input.loras))
      issues.push(typeError('loras', 'value is not a valid list', 'type_error.list'));
    else
      input.loras.forEach((lora: unknown, index) => {
        const item = lora as Record<string, unknown> | null;
        if (typeof item !== 'object' || item === null || typeof item.path !== 'string')
          issues.push({
            loc: ['body', 'loras', String(index), 'path'],
            msg: 'field required',
            type: 'value_error.missing',
          });
        else if (item.scale !== undefined && typeof item.scale !== 'number')
          issues.push({
            loc: ['body', 'loras', String(index), 'scale'],
            msg: 'value is not a valid float',
            type: 'type_error.float',
          });
      });
  }
  const size = input.image_size;
  if (
    size !== undefined &&
    !imageSizes.includes(size as string) &&
    !(
      typeof size === 'object' &&
      size !== null &&
      Number.isInteger((size as Record<string, unknown>).width) &&
      Number.isInteger((size as Record<string, unknown>).height)
    )
  )
    issues.push(
      typeError(
        'image_size',
        `value is not a valid enumeration member; permitted: ${imageSizes.map((name) => `'${name}'`).join(', ')}`,
        'type_error.enum',
      ),
    );
  const integer = (field: string, min: number, max: number) => {
    const value = input[field];
    if (value === undefined) return;
    if (!Number.isInteger(value))
      issues.push(typeError(field, 'value is not a valid integer', 'type_error.integer'));
    else if ((value as number) < min || (value as number) > max)
      issues.push(
        typeError(
          field,
          `ensure this value is between ${min} and ${max}`,
          'value_error.number.not_in_range',
        ),
      );
  };
  integer('num_images', 1, 4);
  integer('num_inference_steps', 1, 50);
  for (const field of ['enable_safety_checker', 'sync_mode'])
    if (input[field] !== undefined && typeof input[field] !== 'boolean')
      issues.push(typeError(field, 'value could not be parsed to a boolean', 'type_error.bool'));
  if (input.output_format !== undefined && !['jpeg', 'png'].includes(input.output_format as string))
    issues.push(
      typeError(
        'output_format',
        "value is not a valid enumeration member; permitted: 'jpeg', 'png'",
        'type_error.enum',
      ),
    );
  return issues;
}

/** The sizes of fal's `image_size` presets. */
const presetSizes: Record<string, { width: number; height: number }> = {
  square_hd: { width: 1024, height: 1024 },
  square: { width: 512, height: 512 },
  portrait_4_3: { width: 768, height: 1024 },
  portrait_16_9: { width: 576, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  landscape_16_9: { width: 1024, height: 576 },
};

/** FluxPulidInput of `fal-ai/flux-pulid` (its llms.txt; the ranges of its PuLID knobs not read). */
function validateFluxPulid(input: Record<string, unknown>): DetailItem[] {
  const issues: DetailItem[] = [];
  for (const field of ['prompt', 'reference_image_url'])
    if (input[field] === undefined) issues.push(missingField(field));
    else if (typeof input[field] !== 'string')
      issues.push(typeError(field, 'str type expected', 'type_error.str'));
  const size = input.image_size;
  if (
    size !== undefined &&
    !imageSizes.includes(size as string) &&
    !(
      typeof size === 'object' &&
      size !== null &&
      Number.isInteger((size as Record<string, unknown>).width) &&
      Number.isInteger((size as Record<string, unknown>).height)
    )
  )
    issues.push(
      typeError(
        'image_size',
        `value is not a valid enumeration member; permitted: ${imageSizes.map((name) => `'${name}'`).join(', ')}`,
        'type_error.enum',
      ),
    );
  const number = (field: string, integer: boolean, range?: [number, number]) => {
    const value = input[field];
    if (value === undefined) return;
    if (integer ? !Number.isInteger(value) : typeof value !== 'number')
      issues.push(
        integer
          ? typeError(field, 'value is not a valid integer', 'type_error.integer')
          : typeError(field, 'value is not a valid float', 'type_error.float'),
      );
    else if (range && ((value as number) < range[0] || (value as number) > range[1]))
      issues.push(
        typeError(
          field,
          `ensure this value is between ${range[0]} and ${range[1]}`,
          'value_error.number.not_in_range',
        ),
      );
  };
  number('num_inference_steps', true, [1, 50]);
  number('guidance_scale', false, [0, 20]);
  number('seed', true);
  number('start_step', true);
  number('id_weight', false);
  number('true_cfg', false);
  for (const field of ['enable_safety_checker', 'sync_mode'])
    if (input[field] !== undefined && typeof input[field] !== 'boolean')
      issues.push(typeError(field, 'value could not be parsed to a boolean', 'type_error.bool'));
  return issues;
}

const esrganModels = [
  'RealESRGAN_x4plus',
  'RealESRGAN_x2plus',
  'RealESRGAN_x4plus_anime_6B',
  'RealESRGAN_x4_v3',
  'RealESRGAN_x4_wdn_v3',
  'RealESRGAN_x4_anime_v3',
];

/** UpscaleInput of `fal-ai/esrgan` (its llms.txt). */
function validateEsrgan(input: Record<string, unknown>): DetailItem[] {
  const issues: DetailItem[] = [];
  if (input.image_url === undefined) issues.push(missingField('image_url'));
  else if (typeof input.image_url !== 'string')
    issues.push(typeError('image_url', 'str type expected', 'type_error.str'));
  const scale = input.scale;
  if (scale !== undefined) {
    if (typeof scale !== 'number')
      issues.push(typeError('scale', 'value is not a valid float', 'type_error.float'));
    else if (scale < 1 || scale > 8)
      issues.push(
        typeError(
          'scale',
          'ensure this value is between 1 and 8',
          'value_error.number.not_in_range',
        ),
      );
  }
  if (input.tile !== undefined && !Number.isInteger(input.tile))
    issues.push(typeError('tile', 'value is not a valid integer', 'type_error.integer'));
  if (input.face !== undefined && typeof input.face !== 'boolean')
    issues.push(typeError('face', 'value could not be parsed to a boolean', 'type_error.bool'));
  if (input.model !== undefined && !esrganModels.includes(input.model as string))
    issues.push(
      typeError(
        'model',
        `value is not a valid enumeration member; permitted: ${esrganModels.map((m) => `'${m}'`).join(', ')}`,
        'type_error.enum',
      ),
    );
  if (input.output_format !== undefined && !['png', 'jpeg'].includes(input.output_format as string))
    issues.push(
      typeError(
        'output_format',
        "value is not a valid enumeration member; permitted: 'png', 'jpeg'",
        'type_error.enum',
      ),
    );
  return issues;
}

const endpoints: Record<string, EndpointSpec> = {
  'fal-ai/esrgan': {
    scripted: true,
    validate: validateEsrgan,
    async run(request) {
      const where = (msg: string, type: string): DetailItem => ({
        loc: ['body', 'image_url'],
        msg,
        type,
      });
      let original: Buffer;
      try {
        const response = await fetch(request.input.image_url as string, {
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok)
          return where(
            `Failed to download the file (HTTP ${response.status})`,
            'file_download_error',
          );
        original = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        return where(`Failed to download the file (${String(error)})`, 'file_download_error');
      }
      const scale = Number(request.input.scale ?? 2);
      const jpeg = request.input.output_format === 'jpeg';
      try {
        const { width, height } = await sharp(original).metadata();
        const size = { width: Math.round(width! * scale), height: Math.round(height! * scale) };
        const resized = sharp(original).resize(size.width, size.height);
        const body = await (jpeg ? resized.jpeg({ quality: 90 }) : resized.png()).toBuffer();
        const name = jpeg ? 'upscaled.jpg' : 'upscaled.png';
        request.files = new Map([
          [name, { body, contentType: jpeg ? 'image/jpeg' : 'image/png', ...size }],
        ]);
        return undefined;
      } catch {
        return where('The file is not a valid image', 'image_load_error');
      }
    },
    output(request, baseUrl) {
      const [name, file] = [...request.files!][0]!;
      return {
        image: {
          url: `${baseUrl}/files/${request.id}/${name}`,
          content_type: file.contentType,
          file_name: name,
          file_size: file.body.length,
          width: file.width,
          height: file.height,
        },
      };
    },
  },
  'fal-ai/flux-pulid': {
    scripted: true,
    validate: validateFluxPulid,
    async run(request) {
      const where = (msg: string, type: string): DetailItem => ({
        loc: ['body', 'reference_image_url'],
        msg,
        type,
      });
      let reference: Buffer;
      try {
        const response = await fetch(request.input.reference_image_url as string, {
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok)
          return where(
            `Failed to download the file (HTTP ${response.status})`,
            'file_download_error',
          );
        reference = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        return where(`Failed to download the file (${String(error)})`, 'file_download_error');
      }
      const asked = request.input.image_size ?? 'landscape_4_3';
      const size =
        typeof asked === 'string'
          ? presetSizes[asked]!
          : (asked as { width: number; height: number });
      let body: Buffer;
      try {
        body = await sharp(reference)
          .rotate()
          .resize(size.width, size.height, { fit: 'cover' })
          .jpeg({ quality: 90 })
          .toBuffer();
      } catch {
        return where('The file is not a valid image', 'image_load_error');
      }
      // A flagged image is served black, as fal's are.
      if (request.script?.outcome === 'nsfw')
        body = await fakeJpeg(size.width, size.height, 'black');
      request.files = new Map([['image-0.jpg', { body, contentType: 'image/jpeg', ...size }]]);
      return undefined;
    },
    output(request, baseUrl) {
      const [name, file] = [...request.files!][0]!;
      return {
        images: [
          {
            url: `${baseUrl}/files/${request.id}/${name}`,
            content_type: file.contentType,
            file_name: name,
            file_size: file.body.length,
            width: file.width,
            height: file.height,
          },
        ],
        timings: { inference: 4.2 },
        seed: 1_234_567,
        has_nsfw_concepts: [request.script?.outcome === 'nsfw'],
        prompt: request.input.prompt,
      };
    },
  },
  'fal-ai/flux-lora': {
    scripted: true,
    validate: validateFluxLora,
    output(request, baseUrl) {
      const flagged = request.script?.outcome === 'nsfw';
      const extension = request.input.output_format === 'png' ? 'png' : 'jpeg';
      const count = Number(request.input.num_images ?? 1);
      const images = Array.from({ length: count }, (_, index) => ({
        url: `${baseUrl}/files/${request.id}/image-${index}.${extension === 'png' ? 'png' : 'jpg'}`,
        content_type: `image/${extension}`,
        file_name: `image-${index}.${extension === 'png' ? 'png' : 'jpg'}`,
        file_size: 184_075,
        width: 768,
        height: 1024,
      }));
      // A raw JSON text: the seed is written as fal writes it, beyond 2^53.
      const body = JSON.stringify({
        images,
        timings: { inference: 2.91 },
        seed: 0,
        has_nsfw_concepts: images.map((_, index) => flagged && index === 0),
        prompt: request.input.prompt,
      });
      return body.replace('"seed":0', `"seed":${falBigSeed}`);
    },
  },
  'fal-ai/flux-lora-fast-training': {
    validate(input) {
      const issues: DetailItem[] = [];
      if (input.images_data_url === undefined) issues.push(missingField('images_data_url'));
      else if (typeof input.images_data_url !== 'string')
        issues.push({
          loc: ['body', 'images_data_url'],
          msg: 'str type expected',
          type: 'type_error.str',
        });
      if (input.trigger_word !== undefined && typeof input.trigger_word !== 'string')
        issues.push({
          loc: ['body', 'trigger_word'],
          msg: 'str type expected',
          type: 'type_error.str',
        });
      if (input.steps !== undefined) {
        if (!Number.isInteger(input.steps))
          issues.push({
            loc: ['body', 'steps'],
            msg: 'value is not a valid integer',
            type: 'type_error.integer',
          });
        else if ((input.steps as number) < 1 || (input.steps as number) > 10_000)
          issues.push({
            loc: ['body', 'steps'],
            msg: 'ensure this value is between 1 and 10000',
            type: 'value_error.number.not_in_range',
          });
      }
      if (input.create_masks !== undefined && typeof input.create_masks !== 'boolean')
        issues.push({
          loc: ['body', 'create_masks'],
          msg: 'value could not be parsed to a boolean',
          type: 'type_error.bool',
        });
      return issues;
    },
    async begin(request) {
      const zip = await downloadZip(request.input.images_data_url as string);
      if (zip.ok) return undefined;
      return zip.why === 'not a zip file'
        ? {
            loc: ['body', 'images_data_url'],
            msg: 'The file is not a valid zip archive',
            type: 'invalid_archive',
          }
        : {
            loc: ['body', 'images_data_url'],
            msg: `Failed to download the file (${zip.why})`,
            type: 'file_download_error',
          };
    },
    output(request, baseUrl) {
      const file = (name: string, contentType: string, size: number) => ({
        url: `${baseUrl}/files/${request.id}/${name}`,
        content_type: contentType,
        file_name: name,
        file_size: size,
      });
      return {
        diffusers_lora_file: file(
          'pytorch_lora_weights.safetensors',
          'application/octet-stream',
          89_745_224,
        ),
        config_file: file('config.json', 'application/json', 452),
      };
    },
  },
};

/** The adapters' configuration pointing at the fake (its queue, key, key set and Platform API). */
export function falConfig(fake: FakeFal): FalConfig {
  return {
    key: fake.key,
    queueBaseUrl: fake.url,
    webhookJwksUrl: fake.jwksUrl,
    apiBaseUrl: `${fake.url}/v1`,
  };
}

export async function startFakeFal(): Promise<FakeFal> {
  const key = `${randomUUID()}:${randomBytes(16).toString('hex')}`;
  const userId = `user_${randomBytes(6).toString('hex')}`;
  let signing = generateKeyPairSync('ed25519');
  let published: KeyObject[] = [signing.publicKey];
  const queue = new Map<string, QueueRequest>();
  const scripts: FalGenerationScript[] = [];
  const upscaleScripts: FalGenerationScript[] = [];
  const previewScripts: FalGenerationScript[] = [];
  const deliveries: FalDelivery[] = [];
  let baseUrl = '';
  let fileDeletionFailure: string | undefined;

  const fail = (status: number, detail: unknown, extra: Record<string, unknown> = {}): Answer => ({
    status,
    body: { detail, ...extra },
  });
  const usualDetail: Record<number, string> = {
    400: 'Bad request',
    401: 'Authentication is required to access this application.',
    404: 'Not found',
    405: 'Method not allowed',
    429: 'Too many requests',
    500: 'Internal Server Error',
    503: 'Service unavailable',
  };

  const urlsOf = (request: QueueRequest) => {
    const base = `${baseUrl}/${request.appId}/requests/${request.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  function find(owner: string, app: string, id: string): QueueRequest | undefined {
    const request = queue.get(id);
    // Status, result and cancel live under {owner}/{app}; a full endpoint path does not match.
    return request && request.appId === `${owner}/${app}` ? request : undefined;
  }

  function statusBody(request: QueueRequest, withLogs: boolean) {
    return {
      status: request.status,
      request_id: request.id,
      ...urlsOf(request),
      ...(request.status === 'IN_QUEUE'
        ? {
            queue_position: [...queue.values()]
              .filter((r) => r.status === 'IN_QUEUE')
              .indexOf(request),
          }
        : { logs: withLogs ? request.logs : null }),
      ...(request.status === 'COMPLETED' ? { metrics: { inference_time: null } } : {}),
    };
  }

  const routes: Route[] = [
    {
      method: 'DELETE',
      pattern: /^\/v1\/models\/requests\/([^/]+)\/payloads$/,
      handle: ({ match }) => {
        const request = queue.get(match[1]!);
        if (!request || request.payloadsDeleted) return fail(404, 'Request not found');
        const result = request.result?.body;
        const output = typeof result === 'string' ? (JSON.parse(result) as unknown) : result;
        // The CDN files of the output (inputs stay: other requests may use them).
        const links = JSON.stringify(output ?? {}).match(/"url":"[^"]+"/g) ?? [];
        const exception = fileDeletionFailure;
        fileDeletionFailure = undefined;
        if (!exception) request.payloadsDeleted = true;
        return {
          status: 200,
          body: {
            cdn_delete_results: links.map((pair) => ({
              link: pair.slice(7, -1),
              exception: exception ?? null,
            })),
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/\.well-known\/jwks\.json$/,
      public: true,
      handle: () => ({
        status: 200,
        body: {
          keys: published.map((publicKey, index) => ({
            ...publicKey.export({ format: 'jwk' }),
            kid: `fake-${index}`,
            use: 'sig',
            alg: 'EdDSA',
          })),
        },
      }),
    },
    {
      method: 'GET',
      pattern: /^\/files\/([^/]+)\/([^/]+)$/,
      public: true,
      handle: async ({ match }) => {
        const request = queue.get(match[1]!);
        if (!request?.script || request.status !== 'COMPLETED' || request.payloadsDeleted)
          return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
        const made = request.files?.get(match[2]!);
        if (made && !request.script.file)
          return { status: 200, body: made.body, headers: { 'content-type': made.contentType } };
        const file = request.script.file ?? {};
        const black = request.script.outcome === 'nsfw' && match[2]!.startsWith('image-0.');
        return {
          status: file.status ?? 200,
          body: file.body ?? (await fakeJpeg(768, 1024, black ? 'black' : 'gradient')),
          headers: { 'content-type': file.contentType ?? 'image/jpeg' },
        };
      },
    },
    {
      method: 'GET',
      pattern: /^\/([^/]+)\/([^/]+)\/requests\/([^/]+)\/status$/,
      handle: async ({ match, query }) => {
        const request = find(match[1]!, match[2]!, match[3]!);
        if (!request) return fail(404, 'Request not found');
        if (request.script) await advance(request);
        return {
          status: request.status === 'COMPLETED' ? 200 : 202,
          body: statusBody(request, query.logs === '1'),
        };
      },
    },
    {
      method: 'PUT',
      pattern: /^\/([^/]+)\/([^/]+)\/requests\/([^/]+)\/cancel$/,
      handle: async ({ match }) => {
        const request = find(match[1]!, match[2]!, match[3]!);
        if (!request) return { status: 404, body: { status: 'NOT_FOUND' } };
        if (request.status === 'COMPLETED')
          return { status: 400, body: { status: 'ALREADY_COMPLETED' } };
        await complete(request, fail(400, 'Request was cancelled'), 'Request was cancelled');
        return { status: 202, body: { status: 'CANCELLATION_REQUESTED' } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/([^/]+)\/([^/]+)\/requests\/([^/]+)$/,
      handle: ({ match }) => {
        const request = find(match[1]!, match[2]!, match[3]!);
        if (!request || request.payloadsDeleted) return fail(404, 'Request not found');
        if (!request.result) return fail(400, 'Request is still in progress');
        return request.result;
      },
    },
    {
      method: 'POST',
      pattern: /^\/([^/]+)\/([^/]+)(\/[^?]+)?$/,
      handle: ({ match, body, query, headers }) => {
        const endpointId = `${match[1]}/${match[2]}${match[3] ?? ''}`;
        const platformHeaders = Object.fromEntries(
          Object.entries(headers)
            .filter(([name]) => name.startsWith('x-fal-'))
            .map(([name, value]) => [name, String(value)]),
        );
        const lifecycle = platformHeaders['x-fal-object-lifecycle-preference'];
        if (lifecycle !== undefined && !validLifecycle(lifecycle))
          return fail(422, [
            {
              loc: ['header', 'X-Fal-Object-Lifecycle-Preference'],
              msg: 'expected {"expiration_duration_seconds": <seconds ≥ 1 or null>}',
              type: 'value_error',
            },
          ]);
        const spec = endpoints[endpointId];
        if (!spec) return fail(404, `Application '${endpointId}' not found`);
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          return fail(422, [
            { loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' },
          ]);
        const input = body as Record<string, unknown>;
        const issues = spec.validate(input);
        if (issues.length > 0) return fail(422, issues);
        const webhook = query.fal_webhook;
        if (webhook !== undefined && !URL.canParse(webhook))
          return fail(400, 'Invalid webhook URL');
        const script = spec.scripted
          ? ((endpointId === 'fal-ai/esrgan'
              ? upscaleScripts
              : endpointId === 'fal-ai/flux-pulid'
                ? previewScripts
                : scripts
            ).shift() ?? {})
          : undefined;
        const request: QueueRequest = {
          id: randomUUID(),
          endpointId,
          appId: `${match[1]}/${match[2]}`,
          input,
          webhook,
          status: 'IN_QUEUE',
          logs: [],
          platformHeaders,
          ...(script ? { script, pollsLeft: script.polls ?? 0 } : {}),
        };
        queue.set(request.id, request);
        return {
          status: 200,
          headers: { 'x-fal-request-id': request.id },
          body: { ...statusBody(request, false), gateway_request_id: request.id },
        };
      },
    },
  ];

  const server = await startJsonServer({
    authorized: (headers) => headers.authorization === `Key ${key}`,
    error: (status, detail) => fail(status, detail ?? usualDetail[status] ?? 'Error'),
    routes,
  });
  baseUrl = server.url;

  function requestOf(id: string): QueueRequest {
    const request = queue.get(id);
    if (!request) throw new Error(`no fal request ${id}`);
    return request;
  }

  async function deliver(
    request: QueueRequest,
    options: FalDeliverOptions = {},
  ): Promise<FalDelivery> {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const body = request.webhookBody!;
    let status: number;
    try {
      const response = await fetch(request.webhook!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-fal-webhook-request-id': request.id,
          'x-fal-webhook-user-id': userId,
          'x-fal-webhook-timestamp': String(timestamp),
          'x-fal-webhook-signature': signFalWebhook(
            options.privateKey ?? signing.privateKey,
            request.id,
            userId,
            timestamp,
            body,
          ),
        },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    const delivery = { requestId: request.id, status };
    deliveries.push(delivery);
    return delivery;
  }

  /** Records the result and sends the webhook (`error` set: a failure). */
  async function complete(request: QueueRequest, result: Answer, error?: string) {
    request.status = 'COMPLETED';
    request.result = result;
    const failed = result.status >= 300;
    const envelope = JSON.stringify({
      request_id: request.id,
      gateway_request_id: request.id,
      status: failed ? 'ERROR' : 'OK',
      ...(failed ? { error: error ?? `Invalid status code: ${result.status}` } : {}),
    });
    // The payload is spliced in as text: an output given as raw JSON (a big seed) stays as it is.
    const payload = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    request.webhookBody = `${envelope.slice(0, -1)},"payload":${payload}}`;
    if (request.webhook) await deliver(request);
  }

  /** A status poll moves an inference request on, as its script says. */
  async function advance(request: QueueRequest) {
    if (request.status === 'COMPLETED') return;
    if (request.status === 'IN_QUEUE') {
      request.status = 'IN_PROGRESS';
      log(request, 'Loading LoRA weights');
    }
    if (request.pollsLeft! > 0) {
      request.pollsLeft! -= 1;
      return;
    }
    const script = request.script!;
    if (script.outcome === 'startDeadline') {
      await complete(
        request,
        {
          status: 504,
          headers: { 'x-fal-request-timeout-type': 'user', 'x-fal-error-type': 'request_timeout' },
          body: { detail: 'Request timed out', error_type: 'request_timeout' },
        },
        'Request timed out',
      );
      return;
    }
    if (script.outcome === 'fail') {
      const message = script.error ?? 'Internal error while running the model';
      log(request, message, 'ERROR');
      const status = script.status ?? (script.errorType ? 504 : 422);
      const result: Answer = script.errorType
        ? {
            status,
            headers: { 'x-fal-error-type': script.errorType },
            body: { detail: message, error_type: script.errorType },
          }
        : fail(status, [{ loc: ['body'], msg: message, type: 'value_error' }]);
      await complete(request, result, `Invalid status code: ${status}`);
      return;
    }
    const spec = endpoints[request.endpointId]!;
    const problem = await spec.run?.(request);
    if (problem) {
      log(request, problem.msg, 'ERROR');
      await complete(request, fail(422, [problem]), 'Invalid status code: 422');
      return;
    }
    log(request, '100%|██████████| 28/28 [00:02<00:00, 9.71it/s]');
    await complete(request, {
      status: 200,
      body: endpoints[request.endpointId]!.output(request, baseUrl),
    });
  }

  function log(request: QueueRequest, message: string, level = 'INFO') {
    request.logs.push({ message, level, source: 'USER', timestamp: new Date().toISOString() });
  }

  async function startRequest(id: string) {
    const request = requestOf(id);
    if (request.status !== 'IN_QUEUE') return;
    request.status = 'IN_PROGRESS';
    log(request, 'Preparing the training data');
    const problem = await endpoints[request.endpointId]!.begin?.(request);
    if (problem) {
      log(request, problem.msg, 'ERROR');
      await complete(request, fail(422, [problem]), 'Invalid status code: 422');
    }
  }

  return {
    url: baseUrl,
    jwksUrl: `${baseUrl}/.well-known/jwks.json`,
    key,
    userId,
    env: {
      IMAGE_ENGINE: 'fal',
      FAL_KEY: key,
      FAL_QUEUE_BASE_URL: baseUrl,
      FAL_WEBHOOK_JWKS_URL: `${baseUrl}/.well-known/jwks.json`,
      FAL_API_BASE_URL: `${baseUrl}/v1`,
    },
    requests: server.requests,
    deliveries,
    request: (id) => {
      const request = queue.get(id);
      return request ? structuredClone(request) : undefined;
    },
    startRequest,
    log: (id, message) => log(requestOf(id), message),
    async completeTraining(id) {
      const request = requestOf(id);
      await startRequest(id);
      if (request.status === 'COMPLETED') return;
      await complete(request, {
        status: 200,
        body: endpoints[request.endpointId]!.output(request, baseUrl),
      });
    },
    async failTraining(id, error, options = {}) {
      const request = requestOf(id);
      if (request.status === 'COMPLETED') return;
      const status = options.status ?? 422;
      const result: Answer = options.errorType
        ? {
            status,
            headers: {
              'x-fal-error-type': options.errorType,
              ...(options.startDeadline ? { 'x-fal-request-timeout-type': 'user' } : {}),
            },
            body: { detail: error, error_type: options.errorType },
          }
        : fail(status, [{ loc: ['body'], msg: error, type: 'value_error' }]);
      log(request, error, 'ERROR');
      await complete(request, result, `Invalid status code: ${status}`);
    },
    scriptGeneration(script) {
      scripts.push(script);
    },
    scriptUpscale(script) {
      upscaleScripts.push(script);
    },
    scriptPreview(script) {
      previewScripts.push(script);
    },
    async redeliver(requestId, options) {
      const request = requestOf(requestId);
      if (!request.webhookBody || !request.webhook)
        throw new Error(`fal request ${requestId} has no webhook to send`);
      return deliver(request, options);
    },
    rotateKey(options = {}) {
      signing = generateKeyPairSync('ed25519');
      published = options.keepOld ? [...published, signing.publicKey] : [signing.publicKey];
    },
    failNext: server.failNext,
    failFileDeletion(exception) {
      fileDeletionFailure = exception;
    },
    close: server.close,
  };
}

/** `X-Fal-Object-Lifecycle-Preference` as fal documents it. */
function validLifecycle(value: string): boolean {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
    const seconds = (parsed as Record<string, unknown>).expiration_duration_seconds;
    return seconds === null || (Number.isInteger(seconds) && (seconds as number) >= 1);
  } catch {
    return false;
  }
}
