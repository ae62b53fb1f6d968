import sharp from 'sharp';
import { trainingPreviewsMessages } from '../../../common/messages/studio.ts';
import { analyzePhoto } from '../../images/analysis.ts';
import { primaryFace } from '../../images/photo-checks.ts';
import type { Storage } from '../storage/storage.ts';
import type { GenerationOutcome, PreviewRequest } from './generation-engine.ts';
import { localGenerationRules, renderPicture, seedOf } from './local-generation.ts';
import { cutOut } from './local-training.ts';
import { previewBadgeOverlay } from './preview-badge.ts';
import type { Cutout } from './studio/compose.ts';
import { decodeCutout } from './studio/cutouts.ts';
import { readPrompt } from './studio/prompt.ts';
import { sceneSchema } from './studio/scene.ts';
import { EngineError } from './training-engine.ts';

/**
 * The `local` engine's training previews (decision 039): made from the user's photos alone, as a
 * zero-shot identity model would, without the likeness profile the training is building. The
 * person is cut out of the best photo the training's way (`cutOut`) and composed into the
 * preset's scene with the studio's `renderPicture`, at canvas size (512×640, no
 * super-resolution: a preview within seconds), with the "Preview" badge.
 */

export const localPreviewRules = {
  /** Photos tried, best first, until one gives a cut-out (a face with landmarks in the matte). */
  photosTried: 3,
  /** Cut-outs kept in memory: one training's four previews share one. */
  cutoutsKept: 4,
} as const;

export function createLocalPreview({ storage }: { storage: Storage }) {
  // The training's photos (by their keys) → the person cut out of the best usable one.
  const cutouts = new Map<string, Promise<Cutout | null>>();

  async function cutOutBest(photos: PreviewRequest['photos']): Promise<Cutout | null> {
    for (const photo of photos.slice(0, localPreviewRules.photosTried)) {
      if (!(await storage.exists(photo.key))) continue;
      const bytes = await storage.read(photo.key);
      const analysis = await analyzePhoto(bytes);
      const face = primaryFace(analysis);
      if (!face) continue;
      const cut = await cutOut({ bytes, width: analysis.width, height: analysis.height, face });
      if (cut) return decodeCutout(cut.webp, cut.landmarks);
    }
    return null;
  }

  function personOf(photos: PreviewRequest['photos']): Promise<Cutout | null> {
    const key = photos.map((photo) => photo.key).join('\n');
    let found = cutouts.get(key);
    if (!found) {
      found = cutOutBest(photos);
      cutouts.set(key, found);
      found.catch(() => cutouts.delete(key));
      for (const old of cutouts.keys()) {
        if (cutouts.size <= localPreviewRules.cutoutsKept) break;
        cutouts.delete(old);
      }
    }
    return found;
  }

  return async function preview(
    request: PreviewRequest,
    signal: AbortSignal,
  ): Promise<GenerationOutcome> {
    const cancelled = () => new EngineError('The preview was cancelled', { transient: true });
    if (signal.aborted) throw cancelled();
    const person = await personOf(request.photos);
    if (!person) {
      const reason = trainingPreviewsMessages.noPerson;
      return { status: 'failed', error: reason, reason, reference: null };
    }
    // The prompt's scene, with the parts the preset sets itself on top (as `sceneOf` does).
    const scene = sceneSchema.parse({
      ...readPrompt(request.prompt).scene,
      ...request.preset.scene,
    });
    const picture = await renderPicture(person, scene, seedOf(request.previewId), { signal });
    if (signal.aborted) throw cancelled();
    const jpeg = await sharp(picture.data, {
      raw: { width: picture.width, height: picture.height, channels: 3 },
    })
      .composite([previewBadgeOverlay(picture.width, picture.height)])
      .jpeg({ quality: localGenerationRules.jpegQuality, mozjpeg: true })
      .toBuffer();
    return {
      status: 'succeeded',
      image: { bytes: jpeg, contentType: 'image/jpeg' },
      reference: null,
    };
  };
}
