import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  type Answer,
  fakeJpeg,
  type RecordedRequest,
  type Route,
  type ScriptedFailure,
  startJsonServer,
} from './provider-fake-kit.ts';

/**
 * A local stand-in for FASHN's try-on API, over real HTTP and keeping its contract
 * (reference/provider-contracts.md §3): Bearer auth (401 `UnauthorizedAccess`), API errors as
 * `{"error": "<Name>", "message": "..."}` with the HTTP status set, `POST /v1/run` validating the
 * `tryon-v1.6` inputs (400 `BadRequest`), `GET /v1/status/{id}` (404 `NotFound` for an unknown
 * id), no cancel endpoint.
 *
 * Like the real service, a run downloads both image URLs as soon as it is accepted, and fails
 * with the runtime error `ImageLoadError` when one answers an HTTP error, is not declared an
 * image (Content-Type) or is not one. Each run follows the next `scriptRun` script (unscripted
 * runs succeed on the first poll): it advances on the client's status polls, not on a clock
 * (`in_queue`, then `processing`, then the outcome), so tests are deterministic; `complete(id)`
 * ends one at once, as if the time had passed. The output is served by the fake itself under
 * `/cdn/{id}/output_0.png` (a real PNG; the real ones live on cdn.fashn.ai for 72 h). On
 * completion the fake POSTs the status body, unsigned, to the run's `webhook_url`.
 *
 * Deviations: unknown `inputs` fields are refused (400) so a typo in a field name shows; the
 * concurrency limit (6 runs in flight) is not enforced (script a 429 with `failNext`); a webhook
 * delivery is tried once (the real service retries non-2xx answers up to 5 times in ~5 min:
 * use `redeliver`).
 */

export type FashnStatus =
  'starting' | 'in_queue' | 'processing' | 'completed' | 'failed' | 'canceled';

/** How one run goes (see `scriptRun`). */
export interface FashnRunScript {
  /** How it ends (default `succeed`): one output image, a runtime error, or canceled. */
  outcome?: 'succeed' | 'fail' | 'cancel';
  /** With `fail`: the runtime `error.name` (default `PipelineError`). */
  errorName?: string;
  /** With `fail`: `error.message` (default: a text for the name). */
  errorMessage?: string;
  /**
   * Status polls answered in progress (`in_queue`, then `processing`) before the outcome
   * (default 0). `Infinity`: it ends only through `complete`.
   */
  polls?: number;
  /** Serve the output like this instead of the PNG (an expired file, a wrong type, …). */
  file?: { status?: number; body?: Uint8Array | string; contentType?: string };
}

export interface FashnWebhookDelivery {
  runId: string;
  url: string;
  /** The body exactly as sent (the status body). */
  body: string;
  /** The receiver's answer; 0 when it could not be reached or the delivery was lost. */
  status: number;
}

export interface FakeFashn {
  /** e.g. http://127.0.0.1:40123: what FASHN_BASE_URL points at (paths start with /v1). */
  url: string;
  baseUrl: string;
  apiKey: string;
  env: { TRYON_ENGINE: 'fashn'; FASHN_API_KEY: string; FASHN_BASE_URL: string };
  requests: RecordedRequest[];
  webhooks: FashnWebhookDelivery[];
  /** A run's status body as GET answers it (without advancing it). */
  prediction(id: string): Record<string, unknown> | undefined;
  /** The run's accepted request: its inputs and webhook URL. */
  /**
   * The run's accepted request: its inputs, webhook URL, and the moderation level it ran with
   * (`moderation_level`, or FASHN's default `permissive` when the request left it out).
   */
  run(id: string):
    | {
        inputs: Record<string, unknown>;
        webhookUrl: string | undefined;
        moderationLevel: 'conservative' | 'permissive' | 'none';
      }
    | undefined;
  /** The next run (in creation order) follows this script. */
  scriptRun(script: FashnRunScript): void;
  /** Ends the run now, as its script says (or its image loading failed), and posts its webhook. */
  complete(id: string): Promise<void>;
  /** Posts the run's current status body to its webhook URL again. */
  redeliver(id: string): Promise<FashnWebhookDelivery>;
  /** Scripted API failures; `detail` may name the error (`OutOfCredits`, `ConcurrencyLimitExceeded`). */
  failNext(failure?: ScriptedFailure): void;
  /** When true, webhooks are not delivered (recorded with status 0). */
  loseWebhooks: boolean;
  close(): Promise<void>;
}

/** The API error names and their usual messages (§3.5). */
export const fashnApiErrors = {
  BadRequest: [400, 'Bad request'],
  UnauthorizedAccess: [401, 'Unauthorized: Invalid token'],
  NotFound: [404, 'Prediction not found or no longer tracked'],
  RateLimitExceeded: [429, 'Rate limit exceeded. Please slow down your requests.'],
  ConcurrencyLimitExceeded: [429, 'Concurrency limit exceeded: at most 6 predictions at once.'],
  OutOfCredits: [429, 'You are out of API credits. Please top up to continue.'],
  InternalServerError: [500, 'Internal server error'],
} as const satisfies Record<string, readonly [number, string]>;
type ApiErrorName = keyof typeof fashnApiErrors;

/** Runtime error messages the fake uses when a script names only the error. */
const runtimeMessages: Record<string, string> = {
  ImageLoadError: 'Error loading model image: the image could not be downloaded',
  ContentModerationError: 'The garment image was flagged by content moderation.',
  PoseError: 'Could not detect a body pose in the model image.',
  PipelineError: 'The pipeline failed unexpectedly. Please retry (failures are not charged).',
};

const inputRules: Record<string, (value: unknown) => boolean> = {
  model_image: (value) => isImageReference(value, true),
  garment_image: (value) => isImageReference(value, false),
  category: (value) => ['auto', 'tops', 'bottoms', 'one-pieces'].includes(value as string),
  mode: (value) => ['performance', 'balanced', 'quality'].includes(value as string),
  garment_photo_type: (value) => ['auto', 'flat-lay', 'model'].includes(value as string),
  moderation_level: (value) => ['conservative', 'permissive', 'none'].includes(value as string),
  num_samples: (value) =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 4,
  seed: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < 2 ** 32,
  segmentation_free: (value) => typeof value === 'boolean',
  output_format: (value) => value === 'png' || value === 'jpeg',
  return_base64: (value) => typeof value === 'boolean',
};

function isImageReference(value: unknown, savedAllowed: boolean): boolean {
  if (typeof value !== 'string' || value === '') return false;
  if (/^data:image\/[a-z+.-]+;base64,/i.test(value)) return true;
  if (savedAllowed && value.startsWith('saved:')) return true;
  return /^https?:\/\//i.test(value) && URL.canParse(value);
}

interface Run {
  object: {
    id: string;
    status: FashnStatus;
    output: string[] | null;
    error: { name: string; message: string } | null;
  };
  inputs: Record<string, unknown>;
  webhookUrl: string | undefined;
  script: FashnRunScript;
  pollsLeft: number;
  polled: number;
  /** Settles with an ImageLoadError message, or undefined when both images loaded. */
  loading: Promise<string | undefined>;
  /** Set once the run started ending (a poll and `complete` may race). */
  ending?: Promise<void>;
}

let png: Promise<Buffer> | undefined;

/** A real PNG at tryon-v1.6's output size (864×1296), made once. */
export function fakePng(): Promise<Buffer> {
  png ??= (async () => {
    const width = 864;
    const height = 1296;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1) {
        const at = (y * width + x) * 3;
        pixels[at] = 200;
        pixels[at + 1] = Math.round((y / height) * 255);
        pixels[at + 2] = Math.round((x / width) * 255);
      }
    return sharp(pixels, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
  })();
  return png;
}

export async function startFakeFashn(): Promise<FakeFashn> {
  const apiKey = `fa-${randomBytes(16).toString('hex')}`;
  const runs = new Map<string, Run>();
  const scripts: FashnRunScript[] = [];
  const webhooks: FashnWebhookDelivery[] = [];
  const control = { loseWebhooks: false };
  let baseUrl = '';

  const apiError = (name: ApiErrorName, message?: string, status?: number): Answer => ({
    status: status ?? fashnApiErrors[name][0],
    body: { error: name, message: message ?? fashnApiErrors[name][1] },
  });

  /** The kit's error answers: `detail` may be an error name, or a message. */
  function errorAnswer(status: number, detail?: string): Answer {
    if (detail && detail in fashnApiErrors)
      return apiError(detail as ApiErrorName, undefined, status);
    const name = (Object.keys(fashnApiErrors) as ApiErrorName[]).find(
      (candidate) => fashnApiErrors[candidate][0] === status,
    );
    if (status === 405) return apiError('NotFound', detail ?? 'Method not allowed', 405);
    return apiError(name ?? 'InternalServerError', detail, status);
  }

  const statusBody = (run: Run) => structuredClone(run.object);
  const outputPath = (id: string) => `/cdn/${id}/output_0.${outputExtension(id)}`;
  function outputExtension(id: string) {
    return runs.get(id)?.inputs.output_format === 'jpeg' ? 'jpeg' : 'png';
  }

  /** Downloads one input like the service: HTTP errors, a non-image type or bytes fail it. */
  async function loadImage(which: 'model' | 'garment', reference: string) {
    const fail = (why: string) => `Error loading ${which} image: ${why}`;
    let bytes: Buffer;
    if (reference.startsWith('saved:')) return fail(`No saved model named ${reference.slice(6)}`);
    if (reference.startsWith('data:')) {
      bytes = Buffer.from(reference.slice(reference.indexOf(',') + 1), 'base64');
    } else {
      let response: Response;
      try {
        response = await fetch(reference, { signal: AbortSignal.timeout(10_000) });
      } catch (error) {
        return fail(`The URL could not be reached (${String(error)})`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        return fail(`The URL answered HTTP ${response.status}`);
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.toLowerCase().startsWith('image/')) {
        await response.body?.cancel();
        return fail(`The URL's Content-Type is not an image. Content-Type: ${type || 'none'}`);
      }
      bytes = Buffer.from(await response.arrayBuffer());
    }
    try {
      const metadata = await sharp(bytes).metadata();
      if (!metadata.width || !metadata.height) throw new Error('no size');
    } catch {
      return fail('The file is not a readable image');
    }
    return undefined;
  }

  async function deliver(run: Run): Promise<FashnWebhookDelivery> {
    const delivery: FashnWebhookDelivery = {
      runId: run.object.id,
      url: run.webhookUrl!,
      body: JSON.stringify(statusBody(run)),
      status: 0,
    };
    if (!control.loseWebhooks) {
      try {
        const response = await fetch(delivery.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: delivery.body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        delivery.status = response.status;
      } catch {
        delivery.status = 0;
      }
    }
    webhooks.push(delivery);
    return delivery;
  }

  const isTerminal = (status: FashnStatus) =>
    status === 'completed' || status === 'failed' || status === 'canceled';

  /** Ends the run as its script says (an image that did not load fails it whatever the script). */
  function finish(run: Run): Promise<void> {
    run.ending ??= end(run);
    return run.ending;
  }

  async function end(run: Run) {
    const loadError = await run.loading;
    const { script } = run;
    if (loadError) {
      Object.assign(run.object, {
        status: 'failed',
        error: { name: 'ImageLoadError', message: loadError },
      });
    } else if (script.outcome === 'fail') {
      const name = script.errorName ?? 'PipelineError';
      Object.assign(run.object, {
        status: 'failed',
        error: {
          name,
          message:
            script.errorMessage ??
            (Object.hasOwn(runtimeMessages, name)
              ? runtimeMessages[name]!
              : `${name} during the try-on`),
        },
      });
    } else if (script.outcome === 'cancel') {
      run.object.status = 'canceled';
    } else {
      const id = run.object.id;
      let output = `${baseUrl}${outputPath(id)}`;
      if (run.inputs.return_base64 === true) {
        const format = run.inputs.output_format === 'jpeg' ? 'jpeg' : 'png';
        const bytes = format === 'jpeg' ? await fakeJpeg(864, 1296) : await fakePng();
        output = `data:image/${format};base64,${bytes.toString('base64')}`;
      }
      Object.assign(run.object, { status: 'completed', output: [output] });
    }
    if (run.webhookUrl) await deliver(run);
  }

  /** One status poll's worth of progress. */
  async function advance(run: Run) {
    if (isTerminal(run.object.status)) return;
    if (run.pollsLeft > 0) {
      run.pollsLeft -= 1;
      run.object.status = run.polled === 0 ? 'in_queue' : 'processing';
      run.polled += 1;
      return;
    }
    await finish(run);
  }

  function runProblem(body: unknown, query: Record<string, string>): Answer | undefined {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return apiError('BadRequest', 'The request body must be a JSON object');
    const { model_name: modelName, inputs } = body as Record<string, unknown>;
    if (modelName !== 'tryon-v1.6')
      return apiError('BadRequest', `Unsupported model_name: ${JSON.stringify(modelName)}`);
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
      return apiError('BadRequest', 'inputs must be an object');
    const fields = inputs as Record<string, unknown>;
    for (const required of ['model_image', 'garment_image'])
      if (fields[required] === undefined)
        return apiError('BadRequest', `inputs.${required} is required`);
    for (const [name, value] of Object.entries(fields)) {
      const rule = inputRules[name];
      if (!rule) return apiError('BadRequest', `inputs.${name} is not a tryon-v1.6 input`);
      if (!rule(value))
        return apiError('BadRequest', `inputs.${name} is invalid: ${JSON.stringify(value)}`);
    }
    const webhookUrl = query.webhook_url;
    if (webhookUrl !== undefined && !/^https?:\/\//i.test(webhookUrl))
      return apiError('BadRequest', 'webhook_url must be an http(s) URL');
    if (webhookUrl !== undefined && !URL.canParse(webhookUrl))
      return apiError('BadRequest', 'webhook_url must be an http(s) URL');
    return undefined;
  }

  const routes: Route[] = [
    {
      method: 'POST',
      pattern: /^\/v1\/run$/,
      handle: ({ body, query }) => {
        const problem = runProblem(body, query);
        if (problem) return problem;
        const inputs = (body as { inputs: Record<string, unknown> }).inputs;
        const id = `${randomUUID()}-u1`;
        const script = scripts.shift() ?? {};
        const loading = Promise.all([
          loadImage('model', inputs.model_image as string),
          loadImage('garment', inputs.garment_image as string),
        ]).then(([model, garment]) => model ?? garment);
        loading.catch(() => undefined);
        runs.set(id, {
          object: { id, status: 'starting', output: null, error: null },
          inputs: structuredClone(inputs),
          webhookUrl: query.webhook_url,
          script,
          pollsLeft: script.polls ?? 0,
          polled: 0,
          loading,
        });
        return { status: 200, body: { id, error: null } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/status\/([^/]+)$/,
      handle: async ({ match }) => {
        const run = runs.get(decodeURIComponent(match[1]!));
        if (!run) return apiError('NotFound');
        await advance(run);
        return { status: 200, body: statusBody(run) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/cdn\/([^/]+)\/output_0\.(png|jpeg)$/,
      public: true,
      handle: async ({ match }) => {
        const run = runs.get(match[1]!);
        if (
          !run ||
          run.object.status !== 'completed' ||
          match[2] !== outputExtension(run.object.id)
        )
          return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
        const file = run.script.file;
        const jpeg = match[2] === 'jpeg';
        return {
          status: file?.status ?? 200,
          body: file?.body ?? (jpeg ? await fakeJpeg(864, 1296) : await fakePng()),
          headers: { 'content-type': file?.contentType ?? (jpeg ? 'image/jpeg' : 'image/png') },
        };
      },
    },
  ];

  const server = await startJsonServer({
    authorized: (headers) => headers.authorization === `Bearer ${apiKey}`,
    error: errorAnswer,
    routes,
  });
  baseUrl = server.url;

  function runOf(id: string): Run {
    const run = runs.get(id);
    if (!run) throw new Error(`no FASHN run ${id}`);
    return run;
  }

  return {
    url: baseUrl,
    baseUrl,
    apiKey,
    env: { TRYON_ENGINE: 'fashn', FASHN_API_KEY: apiKey, FASHN_BASE_URL: baseUrl },
    requests: server.requests,
    webhooks,
    prediction: (id) => {
      const run = runs.get(id);
      return run ? statusBody(run) : undefined;
    },
    run: (id) => {
      const run = runs.get(id);
      if (!run) return undefined;
      const level = (run.inputs.moderation_level ?? 'permissive') as 'conservative';
      return {
        inputs: structuredClone(run.inputs),
        webhookUrl: run.webhookUrl,
        moderationLevel: level,
      };
    },
    scriptRun(script) {
      scripts.push(script);
    },
    complete: (id) => finish(runOf(id)),
    redeliver(id) {
      const run = runOf(id);
      if (!run.webhookUrl) throw new Error(`FASHN run ${id} has no webhook URL`);
      return deliver(run);
    },
    failNext: server.failNext,
    get loseWebhooks() {
      return control.loseWebhooks;
    },
    set loseWebhooks(value: boolean) {
      control.loseWebhooks = value;
    },
    close: server.close,
  };
}
