// The offline studio engine outside the server, for scripts that make pictures with it (the
// default content, the engine's contact sheets): a person's photos go through the local training
// engine (cut-outs and likeness profile, as for a user), then pictures are made through the same
// code a generation runs. Everything lives in a temporary storage folder, removed by close().
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { LocalStorage } from '../../src/server/adapters/storage/local-storage.ts';
import { storageKey } from '../../src/server/adapters/storage/storage.ts';
import type { PresetScene } from '../../src/server/adapters/engine/studio/scene.ts';
import {
  createLocalGenerationEngine,
  renderPicture,
  sceneOf,
} from '../../src/server/adapters/engine/local-generation.ts';
import {
  createLocalTrainingEngine,
  readLikenessProfile,
} from '../../src/server/adapters/engine/local-training.ts';
import { loadCutout } from '../../src/server/adapters/engine/studio/cutouts.ts';
import { analyzePhoto, profileSimilarity } from '../../src/server/images/faces.ts';
import { closeUpscaler } from '../../src/server/images/upscale.ts';
import type { Gender } from '../../src/common/product/training.ts';
import sharp from 'sharp';

export const triggerWord = 'ohwx';

export interface StudioJob {
  /** Seeds the picture (which cut-out, the backdrop's details, the grain): same id, same picture. */
  id: string;
  /** With the trigger word in it, as a generation has it. */
  prompt: string;
  preset: { id: string; scene: PresetScene | null } | null;
}

export interface StudioPerson {
  name: string;
  /** The mean likeness of the person's own photos to their profile: what a picture is measured against. */
  ownLikeness: number;
  /** The finished HD picture (JPEG), as a user downloads it. */
  picture(job: StudioJob): Promise<Buffer>;
  /** The composition at canvas size (PNG): fast, for looking. */
  draft(job: StudioJob, seed: number): Promise<Buffer>;
  /** The likeness of a picture to this person's profile (0 when no face is found). */
  likeness(picture: Buffer): Promise<number>;
}

export function openStudio(label: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), `likeness-${label}-`));
  const storage = new LocalStorage({
    root,
    secret: label,
    defaultTtlSeconds: 3600,
    publicPath: '/f',
  });
  // No "Preview" badge: a picture made here is presented as a style's example (or, in the quiz,
  // as a picture to judge), not handed to a user as their own.
  const engine = createLocalGenerationEngine({ storage, badge: false });

  async function person(name: string, photos: Buffer[], gender: Gender): Promise<StudioPerson> {
    const zipKey = storageKey('users', 'u', 'image_zips', `${name}.zip`);
    await storage.put(
      zipKey,
      Buffer.from(zipSync(Object.fromEntries(photos.map((b, i) => [`image_${i + 1}.jpg`, b])))),
      'application/zip',
    );
    const started = await createLocalTrainingEngine({ storage }).start({
      modelId: name,
      userId: 'u',
      zipKey,
      zipUrl: '',
      triggerWord,
      steps: 1,
      gender,
      webhookUrl: null,
    });
    if (started.state?.status !== 'succeeded')
      throw new Error(`${name}: training did not succeed: ${JSON.stringify(started.state)}`);
    const weights = started.state.weights;
    const profile = await readLikenessProfile(storage, weights);
    const faceProfile = {
      embedding: profile.embedding,
      greyEmbedding: profile.greyEmbedding ?? null,
    };

    // A black-and-white or toned picture is measured in grey, as the server does (decision 033).
    async function likeness(picture: Buffer): Promise<number> {
      const { faces } = await analyzePhoto(picture, { grey: true });
      return Math.max(0, ...faces.map((face) => profileSimilarity(face, faceProfile) ?? 0));
    }
    let own = 0;
    for (const bytes of photos) own += await likeness(bytes);

    return {
      name,
      ownLikeness: own / photos.length,
      likeness,
      async picture(job) {
        const outcome = await engine.generate(
          {
            generationId: job.id,
            userId: 'u',
            weights,
            triggerWord,
            gender,
            prompt: job.prompt,
            preset: job.preset,
          },
          new AbortController().signal,
        );
        if (outcome.status !== 'succeeded')
          throw new Error(`${name}, ${job.id}: ${JSON.stringify(outcome)}`);
        return outcome.image.bytes;
      },
      async draft(job, seed) {
        const scene = sceneOf({ prompt: job.prompt, triggerWord, preset: job.preset });
        const image = await renderPicture(
          await loadCutout(storage, profile.cutouts[0]!),
          scene,
          seed,
        );
        return sharp(image.data, {
          raw: { width: image.width, height: image.height, channels: 3 },
        })
          .png()
          .toBuffer();
      },
    };
  }

  return {
    person,
    async close() {
      await closeUpscaler();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
