import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { cn } from '../../../lib/cn.ts';

export interface PresetCarouselProps {
  /** The category's name, for the scroll buttons' labels. */
  label: string;
  children: ReactNode;
}

/**
 * A horizontal row that scrolls natively (touch, trackpad, Shift+wheel; cards are links, so Tab
 * reaches and scrolls to each) with Previous/Next buttons that page by one view. The buttons are
 * disabled at either end instead of disappearing, so nothing shifts.
 */
export function PresetCarousel({ label, children }: PresetCarouselProps) {
  const scroller = useRef<HTMLUListElement>(null);
  const [edges, setEdges] = useState({ start: true, end: true });

  const update = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const max = element.scrollWidth - element.clientWidth;
    setEdges({ start: element.scrollLeft <= 1, end: element.scrollLeft >= max - 1 });
  }, []);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [update]);

  const page = (direction: 1 | -1) => {
    const element = scroller.current;
    if (!element) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollBy({
      left: direction * element.clientWidth,
      behavior: reduceMotion ? 'auto' : 'smooth',
    });
  };

  const buttonClasses =
    'inline-flex size-9 cursor-pointer items-center justify-center rounded-full border border-neutral-300 bg-white text-neutral-800 shadow-sm transition-colors hover:bg-neutral-100 disabled:cursor-default disabled:opacity-40';

  return (
    <div className="flex flex-col gap-3">
      <ul
        ref={scroller}
        onScroll={update}
        className="-mx-1 flex snap-x snap-mandatory gap-4 overflow-x-auto scroll-smooth px-1 pt-1 pb-3 [scrollbar-width:thin] motion-reduce:scroll-auto"
      >
        {children}
      </ul>
      <div className={cn('flex justify-end gap-2', edges.start && edges.end && 'invisible')}>
        <button
          type="button"
          className={buttonClasses}
          onClick={() => page(-1)}
          disabled={edges.start}
          aria-label={catalogMessages.scrollPrevious(label)}
        >
          <ChevronLeft aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={buttonClasses}
          onClick={() => page(1)}
          disabled={edges.end}
          aria-label={catalogMessages.scrollNext(label)}
        >
          <ChevronRight aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}
