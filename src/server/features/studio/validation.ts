import type { PhotoFailureReason, TrainingStatus } from '../../../common/api/studio.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { DetectedFace, PhotoAnalysis } from '../../images/faces.ts';
import {
  differentPersonIds,
  foundOnlySmallFace,
  judgePhoto,
  primaryFace,
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
  analyze(bytes: Buffer): Promise<PhotoAnalysis>;
  /** The slower search for faces too small for `analyze` (see `findSmallFaces`). */
  findSmallFaces(bytes: Buffer): Promise<{ score: number }[]>;
  similarity(a: number[], b: number[]): number;
}

export interface PhotoChange {
  userId: string;
  photoId: string;
  status: string;
}

/**
 * Validates one photo: the checks of the photo alone run outside any transaction (they take
 * a fraction of a second); then, with the user's draft locked, the result is recorded and the
 * same-person check is settled across the whole draft, so the outcome does not depend on the
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
          await updatePhoto(tx, photoId, {
            face: { box: face.box, score: face.score, sharpness: face.sharpness },
            embedding: face.embedding,
            validatedAt: new Date(),
          });
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
      photo.embedding && (photo.status !== 'failed' || photo.failureReason === 'differentPerson'),
  );
  const different = differentPersonIds(
    candidates.map((photo) => ({ id: photo.id, embedding: photo.embedding! })),
    similarity,
  );
  const changes: PhotoChange[] = [];
  for (const photo of candidates) {
    const failed = different.has(photo.id);
    const status = failed ? 'failed' : 'passed';
    if (photo.status === status) continue;
    await updatePhoto(tx, photo.id, { status, failureReason: failed ? 'differentPerson' : null });
    photo.status = status;
    changes.push({ userId, photoId: photo.id, status });
  }
  await setTrainingStatus(tx, userId, trainingStatusOf(draft));
  return changes;
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
