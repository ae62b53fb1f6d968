import type { PhotoCounts, TrainingStatus } from '../../../common/api/studio.ts';
import { uploadMessages, validationMessages } from '../../../common/messages/studio.ts';
import { photos } from '../../../common/product/photos.ts';
import { routes } from '../../../common/product/routes.ts';

/** Why Continue is not offered on /upload-photos, in the order the page reports it. */
export type PhotoIssue = 'someInvalid' | 'validating' | 'tooMany' | 'tooFewPassed';

export type PhotoContinueRule =
  { canContinue: true } | { canContinue: false; issue: PhotoIssue; message: string };

const issueMessages: Record<PhotoIssue, string> = {
  someInvalid: uploadMessages.someInvalid,
  validating: validationMessages.validating,
  tooMany: uploadMessages.tooMany,
  tooFewPassed: uploadMessages.tooFewPassed,
};

/**
 * The specification's rule for /upload-photos: Continue appears only when 8 to 12 photos passed
 * and none failed. A photo still being validated also holds Continue back (it may yet fail).
 * When several rules are broken, the one the user can act on first is named: replace the failed
 * photos, wait for validation, remove extras, then add more.
 */
export function photoContinueRule(counts: PhotoCounts): PhotoContinueRule {
  const issue: PhotoIssue | null =
    counts.failed > 0
      ? 'someInvalid'
      : counts.pending > 0
        ? 'validating'
        : counts.passed > photos.max
          ? 'tooMany'
          : counts.passed < photos.min
            ? 'tooFewPassed'
            : null;
  if (issue === null) return { canContinue: true };
  return { canContinue: false, issue, message: issueMessages[issue] };
}

/** /upload-photos without the arrival redirect: where the later screens send the user back. */
export const editPhotosPath = `${routes.uploadPhotos}?edit=1`;

/**
 * Spec §4: opening /upload-photos while the draft's validation is complete goes to /select-gender.
 * Only on arrival, not with `?edit=1` (the later screens' way back to change photos), and only
 * when the photos satisfy the rule: with 3 photos, or a failed one, the user stays to fix them.
 */
export function shouldSkipToGender(
  trainingStatus: TrainingStatus | null,
  counts: PhotoCounts,
  editing: boolean,
) {
  return (
    !editing && trainingStatus === 'VALIDATION_COMPLETE' && photoContinueRule(counts).canContinue
  );
}

/** /validation-results' Continue: at least 8 passed, else back to the photos with the reason. */
export function validationResultsContinue(
  counts: PhotoCounts,
): { ok: true; to: string } | { ok: false; to: string; message: string } {
  if (counts.passed >= photos.min) return { ok: true, to: routes.selectGender };
  return { ok: false, to: editPhotosPath, message: validationMessages.needAtLeast };
}

/** Whether a photo is still being validated (the pages poll while one is). */
export function hasPendingPhotos(counts: PhotoCounts | undefined): boolean {
  return (counts?.pending ?? 0) > 0;
}

/**
 * How many of the draft's 12 places are taken: passed and pending photos. A failed one takes none
 * (the server counts the same way), so it never keeps out the photo that replaces it.
 */
export function photoPlacesTaken(counts: PhotoCounts): number {
  return counts.passed + counts.pending;
}

export interface FileLike {
  name: string;
  type: string;
}

export interface FileSelection<F extends FileLike> {
  /** What joins the selection, in the order given. */
  accepted: F[];
  /** How many were not image files. */
  notImages: number;
  /** How many images were left out because the draft would exceed 12 places. */
  overCap: number;
  /** How many more photos there was room for before this selection. */
  room: number;
}

/**
 * Files chosen or dropped on /upload-photos: image files only, and no more than the draft has
 * room for (12 minus the places taken, see `photoPlacesTaken`, and the files waiting to upload).
 */
export function selectFiles<F extends FileLike>(
  files: readonly F[],
  { uploaded, selected }: { uploaded: number; selected: number },
): FileSelection<F> {
  const room = Math.max(0, photos.max - uploaded - selected);
  const images = files.filter((file) => file.type.startsWith('image/'));
  const accepted = images.slice(0, room);
  return {
    accepted,
    notImages: files.length - images.length,
    overCap: images.length - accepted.length,
    room,
  };
}
