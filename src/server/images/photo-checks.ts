import type { PhotoFailureReason } from '../../common/api/studio.ts';
import { identity } from '../../common/product/identity.ts';
import { photos } from '../../common/product/photos.ts';
import type { DetectedFace, PhotoAnalysis } from './faces.ts';

/**
 * The rules a training photo must pass, on what `faces.ts` measured. Pure: no model here.
 *
 * Every number was calibrated on the photo fixtures (the shared set, copied in
 * tests/fixtures/photos and assets/seed) with @vladmandic/human 3.3.6 on WASM, detection at
 * 1024 px longest side, rotation-aware detector. "Passing" photos below means person A's 12,
 * person B's 4, the 7 real portraits, quality/large-12mp and quality/exif-orientation-6.
 * Re-measure on real uploads when a model or the detection size changes.
 */
export const faceRules = {
  /**
   * A face counts when the detector is at least this sure. Passing photos score 0.84-0.98; the
   * weaker face of two-faces/pair-1 0.65 and of pair-2 0.78 (both must count); the only false
   * positive seen, a mission patch in quality/tiny-face, 0.38-0.39 (must not). Margins: 0.15
   * below the weakest real face, 0.11 above the false positive.
   */
  minFaceScore: 0.5,
  /**
   * The face box's short side must be at least this share of the photo's short side. The box is
   * the detector's (about 2.5 eye distances, hair included). Passing photos: 28% (person B,
   * 233 px in 820) to 100%; the false positive in tiny-face 12%, and its real 41 px face would
   * be about 5%. 15% leaves 1.9x below person B.
   */
  minFaceShare: photos.minFaceSharePercent / 100,
  /** And at least this many pixels (full size): passing photos 233 px and more (person B). */
  minFacePx: photos.minFacePx,
  /**
   * A face found only by the small-face search (`findSmallFaces`, in a photo where the normal
   * detection found none) makes the reason "Face too small" from this score. Measured: the real
   * 41 px face of quality/tiny-face 0.92; false positives in the no-face photos: the cat 0.52,
   * none in coffee, rocket or text. 0.12 below the real face, 0.28 above the cat.
   */
  minSmallFaceScore: 0.8,
  /**
   * Laplacian variance of the face box at 256x256 (see `DetectedFace.sharpness`). Blurry:
   * 3.7 (quality/blurry, 4.3 for its seed copy). Passing: 43.5 (person B b-03) to 1286 (Grace
   * Hopper); person A 72-340, large-12mp 363. 15 is 3.5x above blurry and 2.9x below the
   * softest passing face.
   */
  minSharpness: 15,
  /**
   * Two faces are the same person at this cosine similarity (`faceSimilarity`) or more; measured
   * in src/common/product/identity.ts (`identity`).
   */
  samePersonMinSimilarity: identity.samePersonMinSimilarity,
} as const;

/** The faces the rules count (confident enough), most confident first. */
export function countedFaces(analysis: PhotoAnalysis): DetectedFace[] {
  return analysis.faces
    .filter((face) => face.score >= faceRules.minFaceScore)
    .sort((a, b) => b.score - a.score);
}

/** The photo's one face, or null when it has none or several. */
export function primaryFace(analysis: PhotoAnalysis): DetectedFace | null {
  const faces = countedFaces(analysis);
  return faces.length === 1 ? faces[0]! : null;
}

/**
 * Checks of one photo alone, in this order: tooSmall (short side < photos.minShortSidePx),
 * noFace, multipleFaces, faceTooSmall, tooBlurry. null = passes.
 */
export function judgePhoto(analysis: PhotoAnalysis): PhotoFailureReason | null {
  const shortSide = Math.min(analysis.width, analysis.height);
  if (shortSide < photos.minShortSidePx) return 'tooSmall';
  const faces = countedFaces(analysis);
  if (faces.length === 0) return 'noFace';
  if (faces.length > 1) return 'multipleFaces';
  const face = faces[0]!;
  const faceSide = Math.min(face.box.width, face.box.height);
  if (faceSide < faceRules.minFacePx || faceSide < faceRules.minFaceShare * shortSide) {
    return 'faceTooSmall';
  }
  if (face.sharpness < faceRules.minSharpness) return 'tooBlurry';
  return null;
}

/**
 * Whether the small-face search found a real face in a photo with no face to judge: then the
 * reason is "Face too small", which tells the user what to change, rather than "No face found".
 */
export function foundOnlySmallFace(smallFaces: readonly { score: number }[]): boolean {
  return smallFaces.some((face) => face.score >= faceRules.minSmallFaceScore);
}

/**
 * Same-person consensus across a draft. Input: the photos that passed `judgePhoto`, in upload
 * (createdAt) order, each with its face's embedding. Returns the ids of the photos that show a
 * different person.
 *
 * The anchor is the photo that is the same person (similarity >= samePersonMinSimilarity) as
 * the most others, the earliest on a tie; a photo not the same person as the anchor is a
 * different person. The answer depends only on the photos and their order, never on the order
 * their validations finished in. A photo whose descriptor has another length than the anchor's
 * was described by another model (before decision 022): unknown, so it is not flagged.
 */
export function differentPersonIds(
  photos: { id: string; embedding: number[] }[],
  similarity: (a: number[], b: number[]) => number,
): Set<string> {
  const different = new Set<string>();
  if (photos.length < 2) return different;
  const same = photos.map(() => new Array<boolean>(photos.length).fill(false));
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const alike =
        similarity(photos[i]!.embedding, photos[j]!.embedding) >= faceRules.samePersonMinSimilarity;
      same[i]![j] = alike;
      same[j]![i] = alike;
    }
  }
  let anchor = 0;
  let anchorCount = -1;
  for (let i = 0; i < photos.length; i++) {
    const count = same[i]!.filter(Boolean).length;
    if (count > anchorCount) {
      anchor = i;
      anchorCount = count;
    }
  }
  for (let i = 0; i < photos.length; i++) {
    const comparable = photos[i]!.embedding.length === photos[anchor]!.embedding.length;
    if (i !== anchor && comparable && !same[anchor]![i]) different.add(photos[i]!.id);
  }
  return different;
}

/** The variety check's rule, on `varietyScore` (variety.ts). */
export const varietyRules = {
  /**
   * Two photos are one shot (one an edited copy of the other) at this score or more. Measured in
   * bench/results/variety.md: 120 synthetic edits of person A's 12 photos (mirrored, brighter,
   * JPEG q50, cropped, rotated 5 degrees, halved, combinations) and the fixtures' 10 pairs made
   * from one photo score 0.987-1.000; the 62 pairs of different shots 0-0.839 (a-03 against
   * a-09: the 45 cm and the mirrored 30 cm selfie of one session). As a residual (1 - score)
   * the threshold's 0.07 is 5x the edits' worst 0.013 and 2.3x below the closest different
   * shots' 0.161.
   */
  sameShotMinScore: 0.93,
} as const;

/**
 * The variety check across a draft. Input: the photos that passed their own checks, in upload
 * (createdAt) order, each with the ids of the draft's photos found to be the same shot as it.
 * Answers, for each photo that is a copy, the earlier photo it copies: the earliest earlier photo
 * of the same shot that is itself kept. The first photo of a shot is kept; so the answer depends
 * only on the photos and their order, never on the order their validations finished in, and
 * removing the first photo of a shot lets its next copy take its place.
 */
export function sameShotCopies(
  photos: { id: string; sameShotAs: readonly string[] }[],
): Map<string, string> {
  const copies = new Map<string, string>();
  const kept: string[] = [];
  for (const photo of photos) {
    const original = kept.find((id) => photo.sameShotAs.includes(id));
    if (original) copies.set(photo.id, original);
    else kept.push(photo.id);
  }
  return copies;
}
