import { Check } from 'lucide-react';
import { Link } from 'react-router';
import type { PresetSummary } from '../../../../common/api/catalog.ts';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { paths } from '../../../../common/product/routes.ts';
import { layout } from '../../../../common/product/timings.ts';
import { Image } from '../../../components/image.tsx';
import { cn } from '../../../lib/cn.ts';
import type { CatalogLinkState } from '../catalog-api.ts';

export interface PresetCardProps {
  preset: PresetSummary;
  /** Router state handed to /model/{id} (e.g. the category it was opened from). */
  linkState?: CatalogLinkState;
  /** With these the card gets a checkbox for multi-select (category page). */
  selected?: boolean;
  onSelectedChange?: (selected: boolean) => void;
  /** The first cards of a page are above the fold: their pictures load first. */
  eager?: boolean;
  className?: string;
}

// Seeded and uploaded preset pictures are portraits; a fixed box keeps the grid still while
// they load and lines cards up when an operator uploads another shape.
const cardAspect = '4 / 5';

/**
 * A preset as a picture with its name; the whole card opens /model/{id}. The select checkbox is a
 * sibling of the link (not inside it), so both stay separately focusable and announced.
 */
export function PresetCard({
  preset,
  linkState,
  selected,
  onSelectedChange,
  eager = false,
  className,
}: PresetCardProps) {
  const selectable = onSelectedChange !== undefined;
  const checkboxId = `select-${preset.id}`;
  const nameId = `preset-name-${preset.id}`;

  return (
    <div
      className={cn(
        'group relative flex flex-col overflow-hidden rounded-card border bg-white shadow-card transition-shadow hover:shadow-lifted',
        selected ? 'border-accent-600 ring-2 ring-accent-600' : 'border-neutral-200/80',
        className,
      )}
      data-testid="preset-card"
    >
      <Link
        to={paths.model(preset.id)}
        state={linkState}
        className="flex flex-col rounded-card focus-visible:outline-offset-2"
        // Named by the preset's name alone; the picture's alt would only repeat it.
        aria-labelledby={nameId}
      >
        <div className="overflow-hidden bg-neutral-100">
          <Image
            src={preset.featuredImage?.src}
            srcSet={preset.featuredImage?.srcset}
            sizes={`${layout.presetCardWidthPx}px`}
            alt={preset.featuredImage?.alt ?? preset.displayName}
            width={preset.featuredImage?.width}
            height={preset.featuredImage?.height}
            aspectRatio={cardAspect}
            // Never lazy: in a sideways carousel lazy pictures load only as a card scrolls in,
            // so paging shows empty frames first. The catalog is a few dozen small WebPs; the
            // ones above the fold go first, the rest at low priority.
            loading="eager"
            fetchPriority={eager ? 'high' : 'low'}
            className="w-full transition-transform duration-300 group-hover:scale-[1.03] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
          />
        </div>
        <div className="flex min-h-16 flex-col justify-center gap-0.5 px-4 py-3">
          <span
            id={nameId}
            className="line-clamp-2 text-sm font-semibold text-neutral-950 md:line-clamp-1"
          >
            {preset.displayName}
          </span>
          {preset.description ? (
            <span className="line-clamp-1 text-xs text-neutral-500">{preset.description}</span>
          ) : null}
        </div>
      </Link>
      {selectable ? (
        <label
          htmlFor={checkboxId}
          className={cn(
            'absolute top-3 left-3 flex size-9 cursor-pointer items-center justify-center rounded-full border shadow-sm backdrop-blur transition-colors',
            selected
              ? 'border-accent-600 bg-accent-600 text-white'
              : 'border-white/80 bg-white/85 text-transparent hover:text-neutral-400',
          )}
        >
          <input
            id={checkboxId}
            type="checkbox"
            // Transparent over the whole circle, so the real checkbox is what is clicked.
            className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full opacity-0"
            checked={selected === true}
            onChange={(event) => onSelectedChange(event.target.checked)}
            aria-label={catalogMessages.selectPreset(preset.displayName)}
          />
          <Check aria-hidden="true" className="pointer-events-none size-4" strokeWidth={3} />
          {/* The real checkbox is visually hidden; this ring shows its keyboard focus. */}
          <span className="pointer-events-none absolute -inset-1 rounded-full peer-focus-visible:outline-2 peer-focus-visible:outline-accent-600" />
        </label>
      ) : null}
    </div>
  );
}

/** Stands in for a card while the catalog loads, in the card's exact shape. */
export function PresetCardSkeleton({ className }: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex flex-col overflow-hidden rounded-card border border-neutral-200/80 bg-white',
        className,
      )}
    >
      <div className="animate-shimmer bg-neutral-200/80" style={{ aspectRatio: cardAspect }} />
      <div className="flex min-h-16 flex-col justify-center gap-2 px-4 py-3">
        <div className="h-3.5 w-2/3 animate-shimmer rounded-full bg-neutral-200/80" />
        <div className="h-3 w-5/6 animate-shimmer rounded-full bg-neutral-200/80" />
      </div>
    </div>
  );
}
