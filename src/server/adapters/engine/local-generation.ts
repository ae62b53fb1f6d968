import type { RgbImage } from '../../images/rgb-image.ts';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ZodError } from 'zod';
import { generationMessages } from '../../../common/messages/generation.ts';
import { analyzePhoto, profileSimilarity } from '../../images/analysis.ts';
import type { FaceLandmarks } from '../../images/faces.ts';
import { resizeLanczos, upscaleToHd } from '../../images/upscale.ts';
import type { Storage } from '../storage/storage.ts';
import type {
  GenerationEngine,
  GenerationOutcome,
  GenerationRequest,
} from './generation-engine.ts';
import {
  readLikenessProfile,
  type LikenessCutout,
  type LikenessProfile,
} from './local-training.ts';
import { previewBadgeOverlay } from './preview-badge.ts';
import { backdropLight, paintBackdrop } from './studio/backdrops.ts';
import { composePerson, protectFace, type Cutout } from './studio/compose.ts';
import { loadCutout } from './studio/cutouts.ts';
import { readPrompt } from './studio/prompt.ts';
import { sceneSchema, type Rgb, type Scene } from './studio/scene.ts';
import { finishPicture, grainAfterUpscale } from './studio/treatments.ts';
import { EngineError } from './training-engine.ts';

/**
 * The `local` generation engine, the offline studio: no GPU, no network, no text-to-image
 * model. It makes a studio picture *of the user* from their likeness profile (local-training.ts):
 *
 * 1. The scene: the preset's (catalog data), or the custom prompt read into one (studio/prompt.ts);
 *    a prompt it cannot read gets a neutral studio scene, never an error.
 * 2. One of the user's best cut-outs (the person with hair, shoulders and clothes, cut from a
 *    photo with a segmentation model), chosen by the generation's seed so repeats differ.
 * 3. The backdrop painted for the scene (studio/backdrops.ts), the person placed, relit and
 *    blended into it (studio/compose.ts), the picture graded and given the scene's treatment
 *    (studio/treatments.ts), at `canvas` size.
 * 4. Upscaled ×4 with a super-resolution model (images/upscale.ts) to an HD picture, marked with
 *    the small "Preview" badge so it is never taken for an AI render.
 * 5. Its likeness measured: below `likenessFloor` of the user's own photos, made again from the
 *    next cut-out, then with more of the face kept from under the grade, then in softer coloured
 *    light; these tries are judged at canvas size and only one that keeps the likeness is
 *    upscaled. The most alike is kept.
 */

export const localGenerationRules = {
  /** The composition's size (4:5 portrait); ×4 super-resolution makes it 2048×2560. */
  canvas: { width: 512, height: 640 },
  /**
   * Cut-outs a generation chooses among by its seed, so repeats differ: the best few, and only
   * those nearly as typical of the person as the most typical one (a picture keeps the likeness
   * of the photo it is made from).
   */
  cutoutChoices: 3,
  minTypicality: 0.97,
  jpegQuality: 90,
  /**
   * A picture whose face scores below this share of the user's own photos' likeness is made
   * again from the next cut-out (at most one try per choice), and the most alike is kept: some
   * photos lose more of the person than others under a scene's light (decision 034).
   */
  likenessFloor: 0.92,
  /** The face's share given back from under the grade in the first rescue (others: 0.65). */
  rescueFaceStrength: 0.85,
} as const;

export function createLocalGenerationEngine({
  storage,
  draft = false,
  badge = true,
}: {
  storage: Storage;
  /** Pictures at canvas size, without super-resolution (LOCAL_ENGINE_DRAFT). */
  draft?: boolean;
  /**
   * The "Preview" badge on every picture. Off only where the pictures are presented as what they
   * are by other means: the default content, whose preset cards show a style's example.
   */
  badge?: boolean;
}): GenerationEngine {
  const failed = (reason: string): GenerationOutcome => ({
    status: 'failed',
    error: reason,
    reason,
    reference: null,
  });
  const checkAborted = (signal: AbortSignal) => {
    if (signal.aborted) throw new EngineError('The picture was cancelled', { transient: true });
  };

  /** The user model's likeness profile; null when it is not one (unreadable, an older shape). */
  async function readProfile(key: string): Promise<LikenessProfile | null> {
    try {
      return await readLikenessProfile(storage, key);
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof ZodError) return null;
      throw error;
    }
  }

  return {
    name: 'local',
    makesPreviews: true,

    async generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationOutcome> {
      checkAborted(signal);
      if (!(await storage.exists(request.weights)))
        return failed(generationMessages.likenessMissing);
      const read = await readProfile(request.weights);
      if (!read) return failed(generationMessages.likenessMissing);
      const profile = read;
      const seed = request.seed ?? seedOf(request.generationId);
      const scene = sceneOf(request);
      const floor = localGenerationRules.likenessFloor * ownLikenessOf(profile);

      /** A try: the finished picture at canvas size, before super-resolution. */
      async function render(cutout: LikenessCutout, lit: Scene, faceStrength?: number) {
        // HD pictures get their grain after super-resolution, at the size it is seen.
        const picture = await renderPicture(await loadCutout(storage, cutout), lit, seed, {
          grain: draft,
          signal,
          faceStrength,
        });
        checkAborted(signal);
        return { cutout, lit, picture };
      }
      type Try = Awaited<ReturnType<typeof render>>;

      const finished = new Set<Try>();
      /** The picture as delivered (upscaled to HD unless in draft mode), and its likeness. */
      async function finish(made: Try) {
        finished.add(made);
        const image = draft ? made.picture : await grainedHd(made.picture, made.lit, seed);
        checkAborted(signal);
        const jpeg = await encode(image, badge);
        return { from: made, jpeg, likeness: await likenessOf(jpeg, profile) };
      }

      // The seed's photo goes straight to HD: most pictures keep the likeness. Other tries are
      // judged at canvas size (a tenth of the time), and only one that keeps it is upscaled.
      const order = cutoutOrder(profile, seed);
      for (const cutout of order)
        if (!(await storage.exists(cutout.key))) return failed(generationMessages.likenessMissing);
      let best = await finish(await render(order[0]!, scene));
      let mostAlike = { made: best.from, likeness: best.likeness };
      const tryAgain = async (cutout: LikenessCutout, lit: Scene, faceStrength?: number) => {
        const made = await render(cutout, lit, faceStrength);
        const drafted = draft ? await finish(made) : null;
        const likeness =
          drafted?.likeness ?? (await likenessOf(await encode(made.picture, false), profile));
        if (likeness > mostAlike.likeness) mostAlike = { made, likeness };
        if (likeness < floor && !draft) return;
        const delivered = drafted ?? (await finish(made));
        if (delivered.likeness > best.likeness) best = delivered;
      };
      for (const cutout of order.slice(1)) {
        if (best.likeness >= floor) break;
        await tryAgain(cutout, scene);
      }
      // No photo kept the likeness under the scene: the most alike once more with more of the
      // face given back from under the grade (a heavy grade's loss), then in softened coloured
      // light instead (a strong coloured rim's loss).
      const rescues: [Scene, number | undefined][] = [
        [scene, localGenerationRules.rescueFaceStrength],
        [softenedLight(scene), undefined],
      ];
      for (const [lit, faceStrength] of rescues) {
        if (best.likeness >= floor) break;
        await tryAgain(mostAlike.made.cutout, lit, faceStrength);
      }
      // Still below: the most alike try delivered too, if it was not delivered already.
      if (best.likeness < floor && !finished.has(mostAlike.made)) {
        const delivered = await finish(mostAlike.made);
        if (delivered.likeness > best.likeness) best = delivered;
      }
      return {
        status: 'succeeded',
        image: { bytes: best.jpeg, contentType: 'image/jpeg' },
        reference: null,
      };
    },
  };
}

/**
 * The scene of a request: what its prompt (the preset's or the user's) says, with the parts the
 * preset sets itself on top (the prompt says "neon"; the preset picks which pink). The trigger
 * word means nothing to the reader.
 */
export function sceneOf(
  request: Pick<GenerationRequest, 'preset' | 'prompt' | 'triggerWord'>,
): Scene {
  const read = readPrompt(request.prompt.replaceAll(request.triggerWord, ' ')).scene;
  return sceneSchema.parse({ ...read, ...request.preset?.scene });
}

/**
 * The cut-outs a generation may be made from, the seed's choice first: the best few, and only
 * those nearly as typical of the person as the most typical one (a picture keeps the likeness of
 * the photo it is made from).
 */
export function cutoutOrder(profile: LikenessProfile, seed: number): LikenessCutout[] {
  const rules = localGenerationRules;
  const mostTypical = Math.max(...profile.cutouts.map((c) => c.typicality));
  const choices = profile.cutouts
    .slice(0, rules.cutoutChoices)
    .filter((c) => c.typicality >= mostTypical * rules.minTypicality);
  if (choices.length === 0) return [profile.cutouts[0]!];
  const first = seed % choices.length;
  return [...choices.slice(first), ...choices.slice(0, first)];
}

/**
 * The scene with its coloured light halfway to white and its rim light at half strength: a
 * strong pink rim or a cyan key on the face costs the features the likeness rests on.
 */
export function softenedLight(scene: Scene): Scene {
  const halfway = (colour: Rgb): Rgb => colour.map((c) => Math.round((c + 255) / 2)) as Rgb;
  return {
    ...scene,
    light: { ...scene.light, colour: halfway(scene.light.colour) },
    rim: scene.rim && { colour: halfway(scene.rim.colour), strength: scene.rim.strength / 2 },
  };
}

/** What the user's own photos score against their profile (older profiles: their cut-outs'). */
function ownLikenessOf(profile: LikenessProfile): number {
  const { cutouts } = profile;
  return profile.ownLikeness ?? cutouts.reduce((sum, c) => sum + c.typicality, 0) / cutouts.length;
}

/**
 * The picture's likeness to the profile, measured as the generation worker measures it (in grey
 * for a colourless picture, decision 033); 0 when no face is found in it.
 */
async function likenessOf(jpeg: Buffer, profile: LikenessProfile): Promise<number> {
  const faceProfile = {
    embedding: profile.embedding,
    greyEmbedding: profile.greyEmbedding ?? null,
  };
  const { faces } = await analyzePhoto(jpeg, { grey: faceProfile.greyEmbedding !== null });
  return Math.max(0, ...faces.map((face) => profileSimilarity(face, faceProfile) ?? 0));
}

/** The picture as a JPEG, with the "Preview" badge when asked. */
function encode(image: RgbImage, badge: boolean): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .composite(badge ? [previewBadgeOverlay(image.width, image.height)] : [])
    .jpeg({ quality: localGenerationRules.jpegQuality, mozjpeg: true })
    .toBuffer();
}

/** The composed, finished picture at canvas size (before super-resolution). */
export async function renderPicture(
  cutout: Cutout,
  scene: Scene,
  seed: number,
  options: { grain?: boolean; signal?: AbortSignal; faceStrength?: number } = {},
): Promise<StudioPicture> {
  const { width, height } = localGenerationRules.canvas;
  const backdrop = await paintBackdrop(scene, width, height, seed);
  if (options.signal?.aborted)
    throw new EngineError('The picture was cancelled', { transient: true });
  const composition = composePerson(backdrop, cutout, scene, backdropLight(scene).ambient);
  const finished = finishPicture(composition.image, scene, seed, { grain: options.grain ?? true });
  return {
    ...protectFace(
      finished,
      composition.image,
      composition.landmarks,
      scene.treatment,
      options.faceStrength,
    ),
    face: composition.landmarks,
  };
}

/** A finished picture at canvas size, and where the face is in it. */
export interface StudioPicture extends RgbImage {
  face: FaceLandmarks;
}

/**
 * The picture upscaled ×4, with its grain added at that size, except over the face: a film's
 * grain there costs the features the likeness rests on. The face itself is enlarged with
 * lanczos3 rather than the model: ESRGAN-slim redraws a small face's fine detail and costs up to
 * 4% of its likeness (measured on the contact sheets: 0.933 at canvas size, 0.895 in HD, 0.934
 * with the face enlarged plainly), while it keeps hair, clothes and backdrop sharp (decision 036).
 */
async function grainedHd(picture: StudioPicture, scene: Scene, seed: number): Promise<RgbImage> {
  const [modelled, plain] = await Promise.all([upscaleToHd(picture), resizeLanczos(picture)]);
  const scale = modelled.width / picture.width;
  const at = ([x, y]: [number, number]): [number, number] => [x * scale, y * scale];
  const face = {
    leftEye: at(picture.face.leftEye),
    rightEye: at(picture.face.rightEye),
    nose: at(picture.face.nose),
    mouth: at(picture.face.mouth),
  };
  return protectFace(grainAfterUpscale(modelled, scene, seed), plain, face, scene.treatment, 1);
}

/** A generation's seed: stable for its id, so a retry paints the same picture. */
export function seedOf(generationId: string): number {
  return createHash('sha256').update(generationId).digest().readUInt32BE(0);
}
