import type { GeneratedImage } from './generation-engine.ts';
import type { WebhookRequest } from './training-engine.ts';

/**
 * What puts a garment on a person. `local` composes the garment onto the person's torso in
 * process (labelled previews); `fashn` runs FASHN's tryon model (reference/provider-contracts.md
 * §3). The try-on feature only sees this interface.
 */
export interface TryOnRequest {
  /** Our try-on id: the webhook token is bound to it. */
  tryOnId: string;
  userId: string;
  /** Signed URLs (an hour) the provider downloads, and the storage keys behind them. */
  personUrl: string;
  personKey: string;
  garmentUrl: string;
  garmentKey: string;
  /** The specification's values: category auto, mode balanced, garment photo type auto. */
  options: { category: 'auto'; mode: 'balanced'; garmentPhotoType: 'auto' };
  /** Where the provider reports completion (null: no webhook, polling only). */
  webhookUrl: string | null;
}

export type TryOnState =
  | { status: 'running' }
  | { status: 'succeeded'; image: GeneratedImage }
  /**
   * `error` is shown to the user (a provider error name mapped to words). The credit is refunded
   * unless the provider's safety filter `blocked` the pictures (the specification's rule for a
   * safety-blocked image). `retry`: the provider says another run may well succeed and did not
   * charge the failed one (FASHN's PipelineError), so the job starts a new run while it has
   * attempts left.
   */
  | { status: 'failed'; error: string; blocked?: boolean; retry?: boolean };

export interface TryOnStart {
  /** The provider's prediction id (null for the local engine). */
  reference: string | null;
  /** Set when the outcome is already known (the local engine works in-process). */
  state?: TryOnState;
}

export interface TryOnEngine {
  readonly name: 'local' | 'fashn';
  /** Works inside our process in about a second (local): the start answer can wait for it. */
  readonly inProcess: boolean;
  start(request: TryOnRequest): Promise<TryOnStart>;
  /** The provider's current state; a finished one comes with the image already downloaded. */
  status(reference: string): Promise<TryOnState>;
  /**
   * The webhook URL to give the provider for this try-on: `base` plus an unguessable token bound
   * to the try-on id (FASHN does not sign its webhooks).
   */
  webhookUrl(base: string, tryOnId: string): string;
  /**
   * Checks a webhook delivery's token and answers the try-on id it is about, or null. The body is
   * never trusted: the caller re-reads the state with `status`.
   */
  readWebhook(request: WebhookRequest): string | null;
}

/**
 * Whether an engine's results are labelled previews (the local engine's composites): asked of the
 * engine stored with each try-on, so changing TRYON_ENGINE does not relabel older results.
 */
export function makesPreviews(engineName: string): boolean {
  return engineName === 'local';
}
