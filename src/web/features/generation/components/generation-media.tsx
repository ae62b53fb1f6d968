import { CircleAlert, Info, ShieldAlert } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { Image } from '../../../components/image.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogCloseFooter,
  DialogContent,
  DialogTrigger,
} from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import type { Generation } from '../generation-api.ts';
import { generationTitle, generationView } from '../generation-rules.ts';

const text = generationMessages;

/** The shape a generation's picture takes before its size is known: a portrait. */
const defaultAspect = '4 / 5';

export function aspectOf(generation: Pick<Generation, 'width' | 'height'>): string {
  return generation.width && generation.height
    ? `${generation.width} / ${generation.height}`
    : defaultAspect;
}

/**
 * A generation's picture in whatever state it is: a calm "Processing" frame, the failure with
 * its reason, the safety placeholder for a blocked image, or the image itself (which falls back
 * to the "Image not available" gradient box when its file does not load).
 */
export function GenerationMedia({
  generation,
  size,
  className,
}: {
  generation: Generation;
  /** `card`: the thumbnail in a grid; `large`: the full image (modal, detail page). */
  size: 'card' | 'large';
  className?: string;
}) {
  const view = generationView(generation);
  const frame = cn(
    'flex w-full flex-col items-center justify-center gap-2 overflow-hidden p-4 text-center',
    className,
  );

  if (view === 'processing') {
    return (
      <div
        className={cn(frame, 'bg-gradient-to-br from-neutral-100 via-neutral-50 to-accent-50')}
        style={{ aspectRatio: defaultAspect }}
      >
        <Spinner size={size === 'card' ? 'md' : 'lg'} className="text-accent-600" />
        <span className="text-sm font-medium text-neutral-700">{text.status.processing}</span>
        {size === 'large' ? (
          <span className="max-w-xs text-xs text-neutral-600">{text.modal.processingText}</span>
        ) : null}
      </div>
    );
  }

  if (view === 'failed') {
    return (
      <div className={cn(frame, 'bg-danger-50')} style={{ aspectRatio: defaultAspect }}>
        <CircleAlert aria-hidden="true" className="size-6 text-danger-600" />
        <span className="text-sm font-semibold text-danger-700">{text.status.failed}</span>
        <span
          className={cn('text-xs text-danger-700', size === 'card' && 'line-clamp-3')}
          data-testid="failure-reason"
        >
          {generation.failureReason || commonMessages.unknownError}
        </span>
      </div>
    );
  }

  if (view === 'blocked') {
    return <BlockedPlaceholder className={frame} compact={size === 'card'} />;
  }

  const src =
    size === 'card' ? (generation.thumbnailUrl ?? generation.imageUrl) : generation.imageUrl;
  return (
    <Image
      src={src}
      alt={generationTitle(generation)}
      width={generation.width ?? undefined}
      height={generation.height ?? undefined}
      aspectRatio={size === 'card' ? defaultAspect : aspectOf(generation)}
      fit={size === 'card' ? 'cover' : 'contain'}
      className={cn('w-full', size === 'large' && 'bg-neutral-100', className)}
    />
  );
}

/**
 * A complete image the safety checker flagged: no picture exists. Says so, and More Info explains
 * the rule and what to do (rephrase).
 */
export function BlockedPlaceholder({
  className,
  compact = false,
}: {
  className?: string;
  compact?: boolean;
}) {
  const blocked = text.blocked;
  return (
    <div
      className={cn('relative z-10 bg-neutral-100', className)}
      style={{ aspectRatio: defaultAspect }}
      data-testid="blocked-placeholder"
    >
      <ShieldAlert aria-hidden="true" className="size-6 text-neutral-500" />
      <span className="text-sm font-semibold text-neutral-900">{blocked.title}</span>
      <span className={cn('text-xs text-neutral-600', compact && 'line-clamp-2')}>
        {blocked.text}
      </span>
      <Dialog>
        <DialogTrigger asChild>
          <Button variant="outline" size="sm" className="mt-1">
            <Info aria-hidden="true" className="size-4" />
            {blocked.moreInfo}
          </Button>
        </DialogTrigger>
        <DialogContent
          closeLabel={commonMessages.close}
          title={blocked.dialogTitle}
          description={blocked.dialogText}
        >
          <DialogCloseFooter label={commonMessages.close} />
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** The detail page's notice for a blocked image, in place of the picture (no download). */
export function ContentNotice() {
  return (
    <div
      role="note"
      className="flex items-start gap-3 rounded-card border border-neutral-200 bg-neutral-100 p-5"
      data-testid="content-notice"
    >
      <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-neutral-600" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold text-neutral-950">{text.blocked.noticeTitle}</p>
        <p className="text-sm text-neutral-700">{text.blocked.noticeText}</p>
      </div>
    </div>
  );
}

/** The likeness score and the honest "Preview" label of the local engine's images. */
export function GenerationBadges({
  generation,
  className,
}: {
  generation: Pick<
    Generation,
    'likeness' | 'likenessRefunded' | 'isPreview' | 'status' | 'hasNsfwContent'
  >;
  className?: string;
}) {
  const complete = generation.status === 'complete' && !generation.hasNsfwContent;
  if (!complete) return null;
  if (generation.likeness === null && !generation.isPreview && !generation.likenessRefunded)
    return null;
  return (
    <div className={cn('flex flex-wrap items-center gap-1.5', className)}>
      {generation.likeness !== null ? (
        <Badge
          variant={generation.likenessRefunded ? 'neutral' : 'success'}
          title={text.likenessHint}
          data-testid="likeness-badge"
        >
          {text.likeness(generation.likeness)}
        </Badge>
      ) : null}
      {generation.likenessRefunded ? (
        <Badge variant="outline" title={text.likenessRefundedHint} data-testid="likeness-refund">
          {text.likenessRefunded}
        </Badge>
      ) : null}
      {generation.isPreview ? (
        <Badge variant="outline" title={text.previewHint} data-testid="preview-badge">
          {text.preview}
        </Badge>
      ) : null}
    </div>
  );
}
