import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { Image } from '../../../components/image.tsx';
import { cn } from '../../../lib/cn.ts';

const text = catalogMessages;

export interface ImageCarouselProps {
  images: CatalogImage[];
  index: number;
  onIndexChange: (index: number) => void;
  /** Used when a picture has no alt of its own. */
  fallbackAlt: string;
}

const slideAspect = '4 / 5';

/**
 * The preset's pictures one at a time (featured first), with Previous/Next and a position
 * readout. The slide box has a fixed shape, so changing pictures never moves the page. The
 * index is owned by the page, so the examples grid below can pick a picture too.
 */
export function ImageCarousel({ images, index, onIndexChange, fallbackAlt }: ImageCarouselProps) {
  const count = images.length;
  const current = images[index] ?? images[0];
  const go = (delta: number) => onIndexChange((index + delta + count) % count);

  return (
    <div
      role="group"
      aria-roledescription="carousel"
      aria-label={fallbackAlt}
      className="relative overflow-hidden rounded-card bg-neutral-100 shadow-card"
      onKeyDown={(event) => {
        if (count < 2) return;
        if (event.key === 'ArrowLeft') go(-1);
        if (event.key === 'ArrowRight') go(1);
      }}
    >
      <Image
        key={current?.id ?? 'none'}
        src={current?.src}
        srcSet={current?.srcset}
        sizes="(min-width: 768px) 50vw, 100vw"
        alt={current?.alt || fallbackAlt}
        width={current?.width}
        height={current?.height}
        aspectRatio={slideAspect}
        loading="eager"
        className="w-full"
      />
      {count > 1 ? (
        <>
          <SlideButton side="left" label={text.previousImage} onClick={() => go(-1)} />
          <SlideButton side="right" label={text.nextImage} onClick={() => go(1)} />
          <p
            aria-live="polite"
            className="absolute right-3 bottom-3 rounded-full bg-neutral-950/60 px-3 py-1 text-xs font-medium text-white tabular-nums"
          >
            {text.imageCount(index + 1, count)}
          </p>
        </>
      ) : null}
    </div>
  );
}

function SlideButton({
  side,
  label,
  onClick,
}: {
  side: 'left' | 'right';
  label: string;
  onClick: () => void;
}) {
  const Icon = side === 'left' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={cn(
        'absolute top-1/2 flex size-11 -translate-y-1/2 cursor-pointer items-center justify-center rounded-full bg-white/90 text-neutral-900 shadow-card backdrop-blur transition-colors hover:bg-white',
        side === 'left' ? 'left-3' : 'right-3',
      )}
    >
      <Icon aria-hidden="true" className="size-5" />
    </button>
  );
}

/** The same pictures as a grid of examples; choosing one shows it in the carousel. */
export function ExamplesGrid({ images, index, onIndexChange, fallbackAlt }: ImageCarouselProps) {
  return (
    <ul className="grid grid-cols-3 gap-3 md:grid-cols-4 lg:grid-cols-6">
      {images.map((image, position) => (
        <li key={image.id}>
          <button
            type="button"
            aria-label={text.showImage(position + 1, images.length)}
            aria-current={position === index ? 'true' : undefined}
            onClick={() => onIndexChange(position)}
            className={cn(
              'block w-full cursor-pointer overflow-hidden rounded-control ring-offset-2 transition-shadow',
              position === index ? 'ring-2 ring-accent-600' : 'hover:ring-2 hover:ring-neutral-300',
            )}
          >
            <Image
              src={image.variants[0]?.src ?? image.src}
              alt={image.alt || fallbackAlt}
              width={image.variants[0]?.width ?? image.width}
              height={image.variants[0]?.height ?? image.height}
              aspectRatio={slideAspect}
              className="w-full"
            />
          </button>
        </li>
      ))}
    </ul>
  );
}
