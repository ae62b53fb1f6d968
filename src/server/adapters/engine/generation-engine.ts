import type { Gender } from '../../../common/product/training.ts';
import type { PresetScene } from './studio/scene.ts';

/**
 * What makes an image of the user with their trained model. `local` composes the person cut out
 * of their photos (the likeness profile) into a studio scene; `replicate` and `fal` run the
 * trained FLUX LoRA (contracts in reference/provider-contracts.md §1.5-1.7 and §2.7).
 */
export interface GenerationRequest {
  /** Our generation id (idempotency, logs). */
  generationId: string;
  userId: string;
  /** What the training produced (TrainingState.weights): a storage key, a Replicate version or a LoRA URL. */
  weights: string;
  triggerWord: string;
  gender: Gender;
  /**
   * The full prompt for a text-to-image engine, with the trigger word already in it (a preset's
   * prompt with `{trigger}` replaced, or the user's custom prompt prefixed with it).
   */
  prompt: string;
  /**
   * The engine's random seed, when a picture must differ from an earlier one of the same
   * generation (a likeness re-roll); otherwise the engine picks (the local engine: from the id).
   */
  seed?: number;
  /** The preset the image is made from; a custom prompt has none. */
  preset: {
    id: string;
    /** The parts of the offline studio's scene it sets (catalog data); the rest is read from its prompt. */
    scene: PresetScene | null;
  } | null;
}

/**
 * A training preview (decision 039): one picture of the user made from their validated photos
 * alone, while their model trains, by a zero-shot identity model (a provider) or, offline, the
 * local engine's compositor. It is free for the user; the operator pays.
 */
export interface PreviewRequest {
  /** Our preview id (idempotency, logs; the local engine's seed). */
  previewId: string;
  userId: string;
  gender: Gender;
  /** The user's validated photos, best first: storage key, and a signed absolute URL (1 h). */
  photos: { key: string; url: string }[];
  /** The preset's prompt with the person written in words ("the woman"), no trigger word. */
  prompt: string;
  preset: { id: string; scene: PresetScene | null };
}

export interface GeneratedImage {
  /** The image bytes, already downloaded (provider URLs expire: they are copied at once). */
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
}

/** One generation makes one image (num_outputs / num_images 1). */
export type GenerationOutcome =
  | { status: 'succeeded'; image: GeneratedImage; reference: string | null }
  /**
   * The engine's safety checker flagged the image (Replicate: "NSFW content detected", fal:
   * has_nsfw_concepts[0]). Its pixels are never kept; the generation shows as blocked and,
   * as the specification's resolution says, is not refunded.
   */
  | { status: 'blocked'; reference: string | null }
  /**
   * The engine refused or failed (the credit is refunded). `error` is the engine's own words, for
   * the log; `reason`, when the engine writes in ours (common/messages/), is shown to the user, who is
   * otherwise told the generation failed: a provider's wording is not for users.
   */
  | { status: 'failed'; error: string; reason?: string; reference: string | null };

export interface GenerationEngine {
  readonly name: 'local' | 'replicate' | 'fal';
  /** True when the images are previews made in-process (labelled as such in the UI). */
  readonly makesPreviews: boolean;
  /**
   * Makes one image and waits for it (polling the provider within `signal`'s deadline).
   * Transient trouble (network, 5xx, 429, timeouts) throws an `EngineError` with
   * `transient: true`, and the job retries with backoff.
   *
   * `started` is told the provider's reference as soon as its job exists, before any polling.
   * Once it has been told, the job is the caller's to resume or cancel (`jobs`): an abort or
   * polling trouble leaves it running rather than canceling a paid job a retry can still collect.
   */
  generate(
    request: GenerationRequest,
    signal: AbortSignal,
    started?: (reference: string) => Promise<void>,
  ): Promise<GenerationOutcome>;
  /**
   * Makes a training preview and waits for it (same outcomes and errors as `generate`). Absent
   * on an engine that cannot make a picture without the trained model: no previews are made.
   */
  preview?(request: PreviewRequest, signal: AbortSignal): Promise<GenerationOutcome>;
  /**
   * The provider's jobs, which outlive our workers: absent for the in-process local engine.
   */
  readonly jobs?: ProviderJobs;
  /**
   * The picture enlarged by the provider's super-resolution model (ESRGAN-class) to at least
   * `providerHdLongSide` on its long side (the scale chosen from `width` and `height`), bytes
   * downloaded at once. Absent when the engine has none or provider HD is off (PROVIDER_HD).
   * Transient trouble is retried inside; what still fails throws an `EngineError`.
   */
  upscale?(request: UpscaleRequest, signal: AbortSignal): Promise<GeneratedImage>;
}

/** The long side an HD picture from a provider engine has at least (issue 17, decision 040). */
export const providerHdLongSide = 2048;

export interface UpscaleRequest {
  /** Our generation id (logs). */
  generationId: string;
  /** An absolute URL the provider can fetch the picture from (our signed storage URL). */
  imageUrl: string;
  width: number;
  height: number;
}

export interface ProviderJobs {
  /** Follows a job an earlier attempt started until it ends, as `generate` does after starting one. */
  resume(reference: string, signal: AbortSignal): Promise<GenerationOutcome>;
  /** One look at the job: its outcome once it has ended, undefined while it runs. */
  check(reference: string, signal: AbortSignal): Promise<GenerationOutcome | undefined>;
  /** Best effort, never throws. */
  cancel(reference: string): Promise<void>;
}
