import {
  analyzeDecodedPhoto,
  analyzePhoto,
  findSmallFaces,
  type DecodedPhoto,
  warmUp as warmUpFaces,
  type FaceAnalysisOptions,
} from './faces.ts';
import { nsfwScores, warmUp as warmUpNsfw } from './nsfw.ts';
import { varietyScore } from './variety.ts';

/**
 * The image analysis that runs on a worker thread (`analysis.ts` posts a task's name and
 * arguments, an image thread (`image-worker.ts`) runs it) or, with no threads configured, on the calling
 * thread: the same functions either way. Arguments and results cross the thread boundary by
 * structured clone, which turns a Buffer into a plain Uint8Array: the tasks take either.
 */

/** An RGB picture, 3 bytes a pixel, rows top to bottom. */
export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

/** What a warm-up loads: the face models, the NSFW model, or both. */
export interface WarmUpModels {
  faces?: boolean;
  nsfw?: boolean;
}

/** A Buffer over the same memory (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const analysisTasks = {
  analyzePhoto: (bytes: Uint8Array, options?: FaceAnalysisOptions) =>
    analyzePhoto(asBuffer(bytes), options),
  analyzeDecodedPhoto: (photo: DecodedPhoto, options?: FaceAnalysisOptions) =>
    analyzeDecodedPhoto(
      { ...photo, image: { ...photo.image, data: asBuffer(photo.image.data) } },
      options,
    ),
  findSmallFaces: (bytes: Uint8Array) => findSmallFaces(asBuffer(bytes)),
  nsfwScores: (image: Uint8Array | RgbPixels) =>
    nsfwScores(
      image instanceof Uint8Array ? asBuffer(image) : { ...image, data: asBuffer(image.data) },
    ),
  varietyScore: (a: Uint8Array, b: Uint8Array) => Promise.resolve(varietyScore(a, b)),
  warmUp: async (models: WarmUpModels) => {
    // One after the other: tfjs runs one model at a time per runtime anyway.
    if (models.nsfw) await warmUpNsfw();
    if (models.faces) await warmUpFaces();
  },
};

export type AnalysisTasks = typeof analysisTasks;
export type AnalysisTaskName = keyof AnalysisTasks;
