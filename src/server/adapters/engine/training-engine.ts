import type { Gender } from '../../../common/product/training.ts';

/**
 * What trains a user's AI model. `local` builds a likeness profile in-process; `replicate` and
 * `fal` train a FLUX LoRA on a GPU service (contracts in reference/provider-contracts.md).
 * The studio feature only sees this interface; the composition root picks the implementation.
 */
export interface TrainingRequest {
  /** Our model id (engines that name things use it; webhooks carry it back). */
  modelId: string;
  userId: string;
  /** A signed URL of the zip of training photos (`image_N.jpg`), valid for 60 s. */
  zipUrl: string;
  /** The zip's storage key, for an engine that runs in this process. */
  zipKey: string;
  triggerWord: string;
  steps: number;
  gender: Gender;
  /** Where the engine should report (null for engines that report nothing). */
  webhookUrl: string | null;
  /** Called with 0-100 when an in-process engine knows its progress. */
  onProgress?: (percent: number) => void | Promise<void>;
}

export type TrainingState =
  | { status: 'running'; progress?: number }
  | {
      status: 'succeeded';
      /**
       * What generation needs to use the result: a storage key (`local`), a Replicate version
       * (`owner/name:hash`) or a LoRA file URL (`fal`).
       */
      weights: string;
    }
  | { status: 'failed'; error: string };

export interface TrainingStart {
  /** The engine's id of the training, used for status polls and to match webhooks. */
  reference: string;
  /** Set when the engine already knows the outcome (the local engine trains in-process). */
  state?: TrainingState;
}

/** A webhook's news, once its signature and timestamp were verified. */
export interface TrainingWebhookNews {
  reference: string;
  state: TrainingState;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

export interface TrainingEngine {
  readonly name: 'local' | 'replicate' | 'fal';
  start(request: TrainingRequest): Promise<TrainingStart>;
  status(reference: string): Promise<TrainingState>;
  /**
   * Verifies a webhook delivery (signature, timestamp within 300 s) and reads it. Null when the
   * delivery is not authentic or not about a training; the route answers 400/401 then.
   */
  readWebhook(request: WebhookRequest): Promise<TrainingWebhookNews | null>;
  /**
   * Stops a training we no longer want (remote engines: a duplicate left by a start that timed
   * out after the engine had accepted it). Throws when the engine could not be told.
   */
  cancel?(reference: string): Promise<void>;
  /**
   * Deletes what a training left at the provider (the trained weights) once the user deleted the
   * model. Absent where the provider documents no way to, or the weights live in our storage
   * (`local`). Idempotent: what is gone already counts as deleted. Throws a transient EngineError
   * when it should be asked again later, a final one when the provider refuses.
   */
  deleteWeights?(trained: TrainedModel): Promise<void>;
}

/** A deleted user model as its training left it (docs/providers.md: what each provider keeps). */
export interface TrainedModel {
  /** Our model id (Replicate: the destination model `likeness-{modelId}` is named from it). */
  modelId: string;
  /** The engine's training reference (fal: the request id whose output is the LoRA). */
  reference: string | null;
  /** What the training produced, if it succeeded (TrainingState.weights). */
  weights: string | null;
}

/**
 * A failure talking to an engine. `transient` ones (network, 5xx, 429, timeouts) are retried with
 * backoff; the others fail the training at once with `message` as its reason.
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly transient: boolean;
  /** From a 429's Retry-After, when given. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { transient: boolean; retryAfterSeconds?: number }) {
    super(message);
    this.transient = options.transient;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
