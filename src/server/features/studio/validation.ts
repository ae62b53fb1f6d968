import type { PhotoFailureReason, TrainingStatus } from '../../../common/api/studio.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { DetectedFace, FaceAnalysisOptions, PhotoAnalysis } from '../../images/faces.ts';
import {
  differentPersonIds,
  foundOnlySmallFace,
  judgePhoto,
  primaryFace,
  sameShotCopies,
  varietyRules,
} from '../../images/photo-checks.ts';
import {
  findPhotoById,
  listDraftPhotos,
  lockDraft,
  setTrainingStatus,
  updatePhoto,
  type PhotoRow,
} from './repository.ts';

/** What validation needs from face analysis (the real one loads human's models on first use). */
export interface FaceAnalyzer {
  analyze(bytes: Buffer, options?: FaceAnalysisOptions): Promise<PhotoAnalysis>;
  /** The slower search for faces too small for `analyze` (see `findSmallFaces`). */
  findSmallFaces(bytes: Buffer): Promise<{ score: number }[]>;
  similarity(a: number[], b: number[]): number;
  /** How sure it is that two variety patches show one shot, 0..1 (`varietyScore`). */
  varietyScore(a: Uint8Array, b: Uint8Array): Promise<number>;
}

export interface PhotoChange {
  userId: string;
  photoId: string;
  status: string;
}

/**
 * Validates one photo: the checks of the photo alone run outside any transaction (they take
 * a fraction of a second), and so does the variety check's comparison with the draft's photos
 * validated so far; then, with the user's draft locked, the photo is compared with those
 * validated meanwhile (two uploads at once), the result is recorded and the variety and
 * same-person checks are settled across the whole draft, so the outcome does not depend on the
 * order in which photos finish.
 */
export function createPhotoValidation(deps: {
  db: Database;
  storage: Storage;
  faces: FaceAnalyzer;
}) {
  const { db, storage, faces } = deps;

  async function analyse(
    photo: PhotoRow,
  ): Promise<{ reason: PhotoFailureReason } | { reason: null; face: DetectedFace } | undefined> {
    if (!(await storage.exists(photo.storageKey))) return undefined; // deleted meanwhile
    const bytes = await storage.read(photo.storageKey);
    const analysis = await faces.analyze(bytes);
    let reason = judgePhoto(analysis);
    // No face at the detector's usual size: maybe one too small to see there.
    if (reason === 'noFace' && foundOnlySmallFace(await faces.findSmallFaces(bytes)))
      reason = 'faceTooSmall';
    const face = primaryFace(analysis);
    if (reason || !face) return { reason: reason ?? 'noFace' };
    return { reason: null, face };
  }

  return {
    /** Runs the checks of one photo; answers the photos whose status changed. */
    async validate(photoId: string, options: { lastAttempt: boolean }): Promise<PhotoChange[]> {
      const photo = await findPhotoById(db, photoId);
      if (!photo || photo.status !== 'pending' || photo.modelId) return [];
      let outcome: Awaited<ReturnType<typeof analyse>>;
      try {
        outcome = await analyse(photo);
      } catch (error) {
        // A photo that keeps failing the analysis is unusable; earlier attempts are retried.
        if (!options.lastAttempt) throw error;
        outcome = { reason: 'unreadable' };
      }
      if (!outcome) return [];
      const result = outcome;
      const variety = result.reason ? null : result.face.variety;
      // The slow part of the variety check before the lock: the photos validated so far.
      const compared = new Set<string>();
      const sameShot = new Set<string>();
      const compare = async (others: PhotoRow[]) => {
        if (!variety) return;
        for (const other of others) {
          const patch = other.id !== photo.id && other.face?.variety;
          if (!patch || compared.has(other.id)) continue;
          compared.add(other.id);
          const score = await sameShotScore(faces, photo, variety, other, patch);
          if (score >= varietyRules.sameShotMinScore) sameShot.add(other.id);
        }
      };
      if (variety) await compare(await listDraftPhotos(db, photo.userId));
      return db.transaction(async (tx) => {
        await lockDraft(tx, photo.userId);
        const current = await findPhotoById(tx, photoId);
        if (!current || current.status !== 'pending' || current.modelId) return [];
        const changes: PhotoChange[] = [];
        if (result.reason) {
          await updatePhoto(tx, photoId, {
            status: 'failed',
            failureReason: result.reason,
            validatedAt: new Date(),
          });
          changes.push({ userId: photo.userId, photoId, status: 'failed' });
        } else {
          const { face } = result;
          const draft = await listDraftPhotos(tx, photo.userId);
          // Photos validated while this one was being analysed (usually none).
          await compare(draft);
          const matches = draft.filter((other) => sameShot.has(other.id));
          await updatePhoto(tx, photoId, {
            face: {
              box: face.box,
              score: face.score,
              sharpness: face.sharpness,
              ...(variety && { variety: variety.toString('base64') }),
              sameShotAs: matches.map((other) => other.id),
            },
            embedding: face.embedding,
            validatedAt: new Date(),
          });
          // The relation is kept on both photos, so either one's removal can be settled.
          for (const other of matches) {
            await updatePhoto(tx, other.id, {
              face: {
                ...other.face!,
                sameShotAs: [...new Set([...(other.face!.sameShotAs ?? []), photoId])],
              },
            });
          }
        }
        changes.push(...(await settleDraft(tx, photo.userId, faces.similarity)));
        return dedupe(changes);
      });
    },
  };
}

/**
 * Settles the same-person check over the draft's photos that passed their own checks and
 * refreshes the training status. Call with the draft locked (after an upload, a validation or
 * a deletion).
 */
export async function settleDraft(
  tx: Executor,
  userId: string,
  similarity: (a: number[], b: number[]) => number,
): Promise<PhotoChange[]> {
  const draft = await listDraftPhotos(tx, userId);
  const candidates = draft.filter(
    (photo) =>
      photo.embedding &&
      (photo.status !== 'failed' ||
        photo.failureReason === 'differentPerson' ||
        photo.failureReason === 'sameShot'),
  );
  // Copies first: a copy of a photo must not count twice toward whose face the draft shows.
  const copies = sameShotCopies(
    candidates.map((photo) => ({ id: photo.id, sameShotAs: photo.face?.sameShotAs ?? [] })),
  );
  const originals = candidates.filter((photo) => !copies.has(photo.id));
  const different = differentPersonIds(
    originals.map((photo) => ({ id: photo.id, embedding: photo.embedding! })),
    similarity,
  );
  const changes: PhotoChange[] = [];
  for (const photo of candidates) {
    const copyOf = copies.get(photo.id) ?? null;
    const reason = copyOf ? 'sameShot' : different.has(photo.id) ? 'differentPerson' : null;
    const status = reason ? 'failed' : 'passed';
    const sameStatus = photo.status === status && (photo.failureReason ?? null) === reason;
    if (sameStatus && (photo.face?.sameShotOf ?? null) === copyOf) continue;
    await updatePhoto(tx, photo.id, {
      status,
      failureReason: reason,
      ...(photo.face && { face: { ...photo.face, sameShotOf: copyOf } }),
    });
    photo.status = status;
    // The photo it copies may change without its status changing: still an update to show.
    changes.push({ userId, photoId: photo.id, status });
  }
  await setTrainingStatus(tx, userId, trainingStatusOf(draft));
  return changes;
}

/** The training status the user's draft photos say (read it with the draft locked). */
export async function draftTrainingStatus(
  tx: Executor,
  userId: string,
): Promise<TrainingStatus | null> {
  return trainingStatusOf(await listDraftPhotos(tx, userId));
}

/** VALIDATING while a photo waits for its checks, VALIDATION_COMPLETE once none does. */
function trainingStatusOf(draft: PhotoRow[]): TrainingStatus | null {
  if (draft.length === 0) return null;
  return draft.some((photo) => photo.status === 'pending' && !photo.embedding)
    ? 'VALIDATING'
    : 'VALIDATION_COMPLETE';
}

function dedupe(changes: PhotoChange[]): PhotoChange[] {
  return [...new Map(changes.map((change) => [change.photoId, change])).values()];
}

/**
 * The variety score of a photo being validated against another draft photo. The earlier of the
 * two (in the draft's order) is always the template the other is registered onto, so a pair
 * scores the same whichever of them was validated first.
 */
function sameShotScore(
  faces: FaceAnalyzer,
  photo: PhotoRow,
  variety: Buffer,
  other: PhotoRow,
  otherPatch: string,
): Promise<number> {
  const otherVariety = Buffer.from(otherPatch, 'base64');
  const photoFirst =
    photo.createdAt.getTime() - other.createdAt.getTime() || (photo.id < other.id ? -1 : 1);
  return photoFirst < 0
    ? faces.varietyScore(variety, otherVariety)
    : faces.varietyScore(otherVariety, variety);
}
