import { Check, Heart } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import type { Generation } from '../generation-api.ts';
import { generationTitle, generationView, isNew } from '../generation-rules.ts';
import { GenerationBadges, GenerationMedia } from './generation-media.tsx';

const text = generationMessages;

/**
 * One generation in a grid: its picture (or state), name, age and badges. The name is the
 * button that opens the generation modal; it stretches over the whole card, so the picture
 * opens it too, while the blocked placeholder's More Info stays its own button above it. While
 * the list is selecting, the same button is the card's checkbox instead.
 */
export function GenerationCard({
  generation,
  onOpen,
  now,
  selection,
}: {
  generation: Generation;
  onOpen: () => void;
  /** One clock for a whole list, so neighbours never disagree about "2 minutes ago". */
  now: Date;
  /** Present while the list is selecting: whether this card is selected, and how to toggle it. */
  selection?: { selected: boolean; onToggle: () => void };
}) {
  const view = generationView(generation);
  const fresh = isNew(generation);
  const title = generationTitle(generation);
  return (
    <article
      aria-label={title}
      data-testid="generation-card"
      data-status={view}
      data-selected={selection?.selected}
      className={cn(
        'group relative flex h-full flex-col overflow-hidden rounded-card border border-neutral-200/80 bg-white shadow-card transition-shadow focus-within:shadow-lifted hover:shadow-lifted',
        selection?.selected && 'border-accent-600 ring-2 ring-accent-600',
      )}
    >
      <div className="relative overflow-hidden">
        <GenerationMedia generation={generation} size="card" />
        <div className="pointer-events-none absolute top-2 left-2 flex flex-wrap gap-1.5">
          {selection ? (
            <span
              aria-hidden="true"
              className={cn(
                'flex size-7 items-center justify-center rounded-full border-2 shadow-sm',
                selection.selected
                  ? 'border-accent-600 bg-accent-600 text-white'
                  : 'border-white bg-white/70 text-transparent',
              )}
            >
              <Check className="size-4" />
            </span>
          ) : null}
          {fresh ? (
            <Badge variant="solid" data-testid="new-badge">
              {text.history.newBadge}
            </Badge>
          ) : null}
        </div>
        {generation.favourite ? (
          <span className="pointer-events-none absolute top-2 right-2 flex size-8 items-center justify-center rounded-full bg-white/90 text-accent-600 shadow-sm">
            <Heart aria-hidden="true" className="size-4 fill-current" />
            <span className="sr-only">{text.history.favourites}</span>
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1.5 px-3 py-3">
        <button
          type="button"
          {...(selection
            ? {
                role: 'checkbox',
                'aria-checked': selection.selected,
                'aria-label': text.history.selection.selectImage(title),
                onClick: selection.onToggle,
              }
            : { 'aria-label': text.openImage(title), onClick: onOpen })}
          className={cn(
            'truncate text-left text-sm font-semibold text-neutral-950 focus-visible:outline-none',
            // The stretched hit area: the whole card opens the modal.
            'after:absolute after:inset-0 after:rounded-card after:content-[""] focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-accent-600',
            'cursor-pointer',
          )}
        >
          {title}
        </button>
        <p className="text-xs text-neutral-600">
          {formatRelativeOrDate(generation.createdAt, now)}
        </p>
        <GenerationBadges generation={generation} />
      </div>
    </article>
  );
}

/** Stands in for a card while a list loads, in the card's shape. */
export function GenerationCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="flex flex-col overflow-hidden rounded-card border border-neutral-200/80 bg-white"
    >
      <div className="animate-shimmer bg-neutral-200/80" style={{ aspectRatio: '4 / 5' }} />
      <div className="flex flex-col gap-2 px-3 py-3">
        <div className="h-3.5 w-2/3 animate-shimmer rounded-full bg-neutral-200/80" />
        <div className="h-3 w-1/3 animate-shimmer rounded-full bg-neutral-200/80" />
      </div>
    </div>
  );
}

export const generationGridClasses = 'grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4';
