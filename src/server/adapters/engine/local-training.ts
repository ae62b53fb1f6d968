import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { z } from 'zod';
import { trainingMessages } from '../../../common/messages/models.ts';
import { photos as photoRules } from '../../../common/product/photos.ts';
import {
  analyzePhoto,
  faceSimilarity,
  meanDescriptor,
  type DetectedFace,
  type FaceLandmarks,
} from '../../images/analysis.ts';
import { segmentPerson } from '../../images/segmentation.ts';
import { differentPersonIds, judgePhoto, primaryFace } from '../../images/photo-checks.ts';
import { storageKey, type Storage } from '../storage/storage.ts';
import type {
  TrainingEngine,
  TrainingRequest,
  TrainingStart,
  TrainingState,
} from './training-engine.ts';

/**
 * The `local` training engine: no GPU, no network. It "trains" in-process in seconds by building
 * a likeness profile from the training zip: the person cut out of each of the best few photos
 * (sharp, facing the camera, the face inside the person's matte), with their face landmarks, and
 * the mean face descriptor, stored under `users/{userId}/models/{modelId}/likeness/`. The local
 * generation engine composes those cut-outs into its studio scenes.
 */

export const likenessRules = {
  /** At most this many cut-outs are kept (the best first); fewer when fewer photos are usable. */
  maxCutouts: 5,
  /** The longest side of a stored cut-out, pixels: enough for a headshot at 512 px wide. */
  cutoutMaxSide: 1024,
  /** WebP with its matte as the alpha channel: lossy colour, near-lossless matte. */
  cutoutQuality: 92,
  /** The matte must cover the face's centre this much, or the cut-out missed the person. */
  minFaceCover: 0.6,
  /** Zip entries larger than this are not photos we made; they are skipped unread. */
  maxEntryBytes: photoRules.maxUploadBytes,
  maxEntries: 50,
} as const;

const point = z.tuple([z.number(), z.number()]);
const landmarksSchema = z.object({
  leftEye: point,
  rightEye: point,
  nose: point,
  mouth: point,
});

const likenessCutoutSchema = z.object({
  /** Storage key of the WebP: the photo, upright and scaled down, with the person's matte as alpha. */
  key: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Eye centres (left/right as seen in the picture), nose tip, mouth centre, in its pixels. */
  landmarks: landmarksSchema,
  /** The zip entry it was cut from. */
  source: z.string(),
  score: z.number(),
  sharpness: z.number(),
  /** 1 = looking straight at the camera, 0 = in profile (from the nose's offset between the eyes). */
  frontalness: z.number(),
  /** Its face's similarity to the profile's mean descriptor: how typical of the person it is. */
  typicality: z.number(),
});

export const likenessProfileSchema = z.object({
  version: z.literal(2),
  modelId: z.string(),
  createdAt: z.string(),
  /** Best first. */
  cutouts: z.array(likenessCutoutSchema).min(1),
  /** The mean of the usable photos' face descriptors, L2-normalised; compare with `faceSimilarity`. */
  embedding: z.array(z.number()),
  /**
   * The same of their grey descriptors (`greyIdentityModel`): what black-and-white and toned
   * pictures are scored against (decision 033). Absent from profiles made before it.
   */
  greyEmbedding: z.array(z.number()).optional(),
  /**
   * The mean likeness of the usable photos to `embedding`: what the user's own photos score, the
   * bar a picture's likeness is held to. Absent from profiles made before it.
   */
  ownLikeness: z.number().optional(),
  photos: z.object({ read: z.number().int(), usable: z.number().int() }),
});

export type LikenessCutout = z.infer<typeof likenessCutoutSchema>;
export type LikenessProfile = z.infer<typeof likenessProfileSchema>;

/** Reads and checks a profile written by the local engine (`weights` of a succeeded training). */
export async function readLikenessProfile(
  storage: Storage,
  weightsKey: string,
): Promise<LikenessProfile> {
  const raw: unknown = JSON.parse((await storage.read(weightsKey)).toString('utf8'));
  return likenessProfileSchema.parse(raw);
}

interface Candidate {
  source: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  face: DetectedFace;
  frontalness: number;
  quality: number;
}

export function createLocalTrainingEngine({ storage }: { storage: Storage }): TrainingEngine {
  // reference → outcome. In memory: after a restart a reference is unknown (see `status`).
  const outcomes = new Map<string, TrainingState>();

  async function train(request: TrainingRequest): Promise<TrainingState> {
    if (!(await storage.exists(request.zipKey))) {
      return { status: 'failed', error: trainingMessages.prepareFailed };
    }
    const zip = await storage.read(request.zipKey);
    let entries: { name: string; bytes: Uint8Array }[];
    try {
      const files = unzipSync(zip, {
        filter: (file) =>
          /^image_\d+\.jpg$/.test(file.name) && file.originalSize <= likenessRules.maxEntryBytes,
      });
      entries = Object.entries(files)
        .map(([name, bytes]) => ({ name, bytes }))
        .sort((a, b) => entryNumber(a.name) - entryNumber(b.name))
        .slice(0, likenessRules.maxEntries);
    } catch {
      return { status: 'failed', error: trainingMessages.prepareFailed };
    }

    let reported = -1;
    const progress = async (percent: number) => {
      if (percent === reported || !request.onProgress) return;
      reported = percent;
      await request.onProgress(percent);
    };
    await progress(0);

    const candidates: Candidate[] = [];
    for (const [index, entry] of entries.entries()) {
      try {
        const analysis = await analyzePhoto(Buffer.from(entry.bytes), { grey: true });
        const face = primaryFace(analysis);
        if (face && judgePhoto(analysis) === null && face.embedding.length > 0) {
          const frontalness = frontalnessOf(face.landmarks);
          candidates.push({
            source: entry.name,
            bytes: entry.bytes,
            width: analysis.width,
            height: analysis.height,
            face,
            frontalness,
            quality: face.score * frontalness * (face.sharpness / (face.sharpness + 100)),
          });
        }
      } catch {
        // An unreadable photo is left out; the others still make the profile.
      }
      await progress(Math.round(((index + 1) / entries.length) * 90));
    }

    // Photos of someone else (should validation have let one through) stay out of the profile.
    const others = differentPersonIds(
      candidates.map((c) => ({ id: c.source, embedding: c.face.embedding })),
      faceSimilarity,
    );
    const usable = candidates.filter((c) => !others.has(c.source));
    if (usable.length === 0) return { status: 'failed', error: trainingMessages.noUsableFace };

    const folder = ['users', request.userId, 'models', request.modelId, 'likeness'] as const;
    await storage.deletePrefix(`${storageKey(...folder)}/`);
    // The best photos, and among them the most typical of the person: a picture made from a
    // photo that looks most like all the others keeps the likeness best.
    const embedding = meanDescriptor(usable.map((c) => c.face.embedding))!;
    const rank = (c: Candidate) => c.quality * faceSimilarity(c.face.embedding, embedding);
    const ranked = [...usable].sort((a, b) => rank(b) - rank(a));
    const cutouts: LikenessCutout[] = [];
    for (const candidate of ranked) {
      if (cutouts.length === likenessRules.maxCutouts) break;
      const cut = await cutOut(candidate);
      if (!cut) continue;
      const key = storageKey(...folder, `person-${cutouts.length + 1}.webp`);
      await storage.put(key, cut.webp, 'image/webp');
      cutouts.push({
        key,
        width: cut.width,
        height: cut.height,
        landmarks: cut.landmarks,
        source: candidate.source,
        score: candidate.face.score,
        sharpness: candidate.face.sharpness,
        frontalness: candidate.frontalness,
        typicality: faceSimilarity(candidate.face.embedding, embedding),
      });
    }
    if (cutouts.length === 0) return { status: 'failed', error: trainingMessages.noUsableFace };
    const greyEmbedding = meanDescriptor(
      usable.flatMap((c) => (c.face.grey ? [c.face.grey.embedding] : [])),
    );
    const profile: LikenessProfile = {
      version: 2,
      modelId: request.modelId,
      createdAt: new Date().toISOString(),
      cutouts,
      embedding,
      ...(greyEmbedding && { greyEmbedding }),
      ownLikeness:
        usable.reduce((sum, c) => sum + faceSimilarity(c.face.embedding, embedding), 0) /
        usable.length,
      photos: { read: entries.length, usable: usable.length },
    };
    const weights = storageKey(...folder, 'profile.json');
    await storage.put(weights, Buffer.from(JSON.stringify(profile)), 'application/json');
    await progress(100);
    return { status: 'succeeded', weights };
  }

  return {
    name: 'local',

    async start(request: TrainingRequest): Promise<TrainingStart> {
      const reference = `local-${randomUUID()}`;
      const state = await train(request);
      outcomes.set(reference, state);
      return { reference, state };
    },

    async status(reference: string): Promise<TrainingState> {
      const state = outcomes.get(reference);
      // The local engine finishes inside `start`; a reference it does not know was started
      // before this process did, and its outcome is gone with it.
      if (!state) return { status: 'failed', error: trainingMessages.startFailed };
      if (state.status === 'succeeded' && !(await storage.exists(state.weights))) {
        return { status: 'failed', error: trainingMessages.startFailed };
      }
      return state;
    },

    async readWebhook() {
      return null;
    },
  };
}

function entryNumber(name: string): number {
  return Number(/\d+/.exec(name)?.[0] ?? 0);
}

/**
 * 1 when the nose tip is midway between the eyes (facing the camera), falling to 0 as it moves
 * half an eye distance sideways (turned away). Measured along the eye line, so a tilted head is
 * still frontal. 0.5 when the landmarks are unknown.
 */
export function frontalnessOf(landmarks: FaceLandmarks | null): number {
  if (!landmarks) return 0.5;
  const { leftEye, rightEye, nose } = landmarks;
  const dx = rightEye[0] - leftEye[0];
  const dy = rightEye[1] - leftEye[1];
  const eyeDistance = Math.hypot(dx, dy);
  if (eyeDistance === 0) return 0;
  const midX = (leftEye[0] + rightEye[0]) / 2;
  const midY = (leftEye[1] + rightEye[1]) / 2;
  const offset = Math.abs(((nose[0] - midX) * dx + (nose[1] - midY) * dy) / eyeDistance);
  return Math.max(0, Math.min(1, 1 - (2 * offset) / eyeDistance));
}

/**
 * The person cut out of the photo: upright, at most `cutoutMaxSide`, the matte as the WebP's
 * alpha. Null when the photo has no landmarks to place the face by, or the matte misses the face.
 * Training previews (local-preview.ts) cut out the best photo the same way.
 */
export async function cutOut(
  candidate: Pick<Candidate, 'bytes' | 'width' | 'height' | 'face'>,
): Promise<{
  webp: Buffer;
  width: number;
  height: number;
  landmarks: FaceLandmarks;
} | null> {
  const { face, width, height } = candidate;
  if (!face.landmarks) return null;
  const scale = Math.min(1, likenessRules.cutoutMaxSide / Math.max(width, height));
  const { data, info } = await sharp(candidate.bytes, { limitInputPixels: photoRules.maxPixels })
    .rotate()
    .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), {
      fit: 'fill',
    })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const matte = await segmentPerson({ data, width: info.width, height: info.height });
  const map = ([x, y]: [number, number]): [number, number] => [x * scale, y * scale];
  const landmarks = {
    leftEye: map(face.landmarks.leftEye),
    rightEye: map(face.landmarks.rightEye),
    nose: map(face.landmarks.nose),
    mouth: map(face.landmarks.mouth),
  };
  const [noseX, noseY] = landmarks.nose;
  const at = Math.round(noseY) * info.width + Math.round(noseX);
  if ((matte[at] ?? 0) / 255 < likenessRules.minFaceCover) return null;
  const webp = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .joinChannel(Buffer.from(matte.buffer, matte.byteOffset, matte.byteLength), {
      raw: { width: info.width, height: info.height, channels: 1 },
    })
    .webp({ quality: likenessRules.cutoutQuality, alphaQuality: 100 })
    .toBuffer();
  return { webp, width: info.width, height: info.height, landmarks };
}
