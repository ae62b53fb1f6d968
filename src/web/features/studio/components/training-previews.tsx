import { useId } from 'react';
import type { ModelPreview } from '../../../../common/api/studio.ts';
import { trainingPreviewsMessages } from '../../../../common/messages/studio.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';

const text = trainingPreviewsMessages;

/**
 * A model's training previews (decision 039): quick pictures made from the user's photos while
 * the model trains, labelled as previews and as free. A preview still being made holds its place
 * (4:5, as the pictures are), so nothing moves when it arrives.
 */
export function TrainingPreviews({
  previews,
  training,
  className,
}: {
  previews: readonly ModelPreview[];
  /** The model still trains (else: it has, and these were made meanwhile). */
  training: boolean;
  className?: string;
}) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      data-testid="training-previews"
      className={cn('flex flex-col gap-3', className)}
    >
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={titleId} className="font-semibold text-neutral-950">
            {text.title}
          </h2>
          <Badge variant="accent">{text.badge}</Badge>
        </div>
        <p className="text-sm text-neutral-700">
          {training ? text.whileTraining : text.afterTraining}
        </p>
      </div>
      <ul aria-label={text.listLabel} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {previews.map((preview) => (
          <li key={preview.id}>
            <PreviewTile preview={preview} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function PreviewTile({ preview }: { preview: ModelPreview }) {
  const made = preview.status === 'complete' && preview.thumbnailUrl && preview.imageUrl;
  return (
    <figure className="flex flex-col gap-1.5">
      <div className="relative aspect-[4/5] overflow-hidden rounded-card bg-neutral-100">
        {made ? (
          <a
            href={preview.imageUrl!}
            target="_blank"
            rel="noreferrer"
            className="block size-full rounded-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          >
            <img
              src={preview.thumbnailUrl!}
              alt={text.alt(preview.presetName)}
              width={preview.width ?? undefined}
              height={preview.height ?? undefined}
              data-testid="training-preview-image"
              className="size-full object-cover"
            />
          </a>
        ) : (
          <div aria-busy="true" className="absolute inset-0 flex items-center justify-center">
            <Skeleton shape="card" className="absolute inset-0" />
            <Spinner size="md" label={text.making} className="relative text-neutral-500" />
          </div>
        )}
        <Badge variant="solid" className="pointer-events-none absolute top-2 left-2 opacity-90">
          {text.badge}
        </Badge>
      </div>
      <figcaption className="truncate text-xs text-neutral-600">{preview.presetName}</figcaption>
    </figure>
  );
}
