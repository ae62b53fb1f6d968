import { CircleAlert, CircleCheck, Trash2 } from 'lucide-react';
import type { TrainingPhoto } from '../../../../common/api/studio.ts';
import { uploadMessages, validationMessages } from '../../../../common/messages/studio.ts';
import { Image } from '../../../components/image.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';

const text = uploadMessages;
const validation = validationMessages;

/**
 * One uploaded photo with its validation state: validating (spinner), passed (check) or failed
 * (why, and what to do about it). The card is an article named by the file, so it can be found
 * and read as a unit; its remove button names the file too.
 */
export function PhotoCard({
  photo,
  position,
  onRemove,
  removing,
}: {
  photo: TrainingPhoto;
  /** Its number on the page, 1 for the oldest: what "almost the same as photo 3" refers to. */
  position: number;
  onRemove: () => void;
  removing: boolean;
}) {
  const failed = photo.status === 'failed';
  const reason =
    failed && photo.reason === 'sameShot' && photo.sameShotAs
      ? validation.sameShotAs(photo.sameShotAs)
      : failed && photo.reason
        ? validation.reasons[photo.reason]
        : null;
  const advice = failed && photo.reason ? validation.advice[photo.reason] : null;

  return (
    <article
      aria-label={photo.fileName}
      data-status={photo.status}
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-card border bg-white shadow-card',
        failed ? 'border-danger-600/50' : 'border-neutral-200/80',
      )}
    >
      <div className="relative">
        <Image
          src={photo.thumbnailUrl}
          alt={text.photoAlt(photo.fileName)}
          aspectRatio="1 / 1"
          className={cn('w-full', removing && 'opacity-50')}
        />
        <button
          type="button"
          onClick={onRemove}
          disabled={removing}
          aria-label={text.removePhotoNamed(photo.fileName)}
          className="absolute top-2 right-2 inline-flex size-9 cursor-pointer items-center justify-center rounded-full bg-white/90 text-neutral-700 shadow-sm transition-colors hover:bg-white hover:text-danger-700 disabled:cursor-not-allowed"
        >
          {removing ? <Spinner size="sm" /> : <Trash2 aria-hidden="true" className="size-4" />}
        </button>
      </div>
      <div className="flex flex-col gap-1.5 p-3">
        <p className="truncate text-xs text-neutral-500" title={photo.fileName}>
          <span className="font-semibold text-neutral-700">{text.photoNumber(position)}</span>
          {' · '}
          {photo.fileName}
        </p>
        <PhotoStatus status={photo.status} />
        {reason ? <p className="text-sm font-medium text-danger-700">{reason}</p> : null}
        {advice ? <p className="text-xs leading-relaxed text-neutral-600">{advice}</p> : null}
      </div>
    </article>
  );
}

function PhotoStatus({ status }: { status: TrainingPhoto['status'] }) {
  if (status === 'pending') {
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-accent-700">
        <Spinner size="sm" />
        {validation.validating}
      </p>
    );
  }
  if (status === 'passed') {
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-success-700">
        <CircleCheck aria-hidden="true" className="size-4" />
        {validation.passed}
      </p>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-sm font-medium text-danger-700">
      <CircleAlert aria-hidden="true" className="size-4" />
      {validation.failed}
    </p>
  );
}
