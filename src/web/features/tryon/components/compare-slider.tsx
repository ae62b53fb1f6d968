import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ChevronsLeftRight } from 'lucide-react';
import { cn } from '../../../lib/cn.ts';
import {
  beforeClipPath,
  percentForKey,
  percentFromPointer,
  roundPercent,
  sliderBounds,
} from '../compare-slider-math.ts';

export interface ComparePicture {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface CompareSliderProps {
  before: ComparePicture;
  after: ComparePicture;
  beforeLabel: string;
  afterLabel: string;
  /** The handle's accessible name. */
  label: string;
  valueText: (percent: number) => string;
  initialPercent: number;
  className?: string;
}

/**
 * Before and after, one over the other, with a divider to drag: "before" shows from the left
 * edge to the divider, "after" beyond it. Mouse, pen and touch drag it (pointer events, from
 * anywhere on the picture; vertical swipes still scroll the page); the handle is a focusable
 * slider that arrows move by 5%, Page keys by 20%, Home and End to the ends. Key moves glide
 * unless reduced motion is asked for; drags follow the pointer directly.
 */
export function CompareSlider({
  before,
  after,
  beforeLabel,
  afterLabel,
  label,
  valueText,
  initialPercent,
  className,
}: CompareSliderProps) {
  const [percent, setPercent] = useState(initialPercent);
  const [dragging, setDragging] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);

  function moveTo(clientX: number) {
    const box = boxRef.current?.getBoundingClientRect();
    if (box) setPercent(percentFromPointer(clientX, box));
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    // Main button (or a touch / pen contact) only.
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDragging(true);
    moveTo(event.clientX);
    // Keyboard users can carry on from where the pointer left the divider.
    handleRef.current?.focus({ preventScroll: true });
    event.preventDefault();
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!dragging) return;
    moveTo(event.clientX);
  }

  function endDrag(event: PointerEvent<HTMLDivElement>) {
    if (!dragging) return;
    setDragging(false);
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = percentForKey(event.key, percent);
    if (next === null) return;
    event.preventDefault();
    setPercent(next);
  }

  const rounded = roundPercent(percent);
  const glide = dragging
    ? ''
    : 'motion-safe:transition-all motion-safe:duration-200 motion-safe:ease-out';

  return (
    <div
      ref={boxRef}
      data-testid="compare-slider"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      className={cn(
        'relative cursor-ew-resize overflow-hidden rounded-card bg-neutral-200 shadow-lifted select-none',
        // Horizontal drags belong to the slider; vertical swipes still scroll the page.
        'touch-pan-y',
        className,
      )}
      style={{ aspectRatio: `${after.width} / ${after.height}` }}
    >
      <img
        src={after.src}
        alt={after.alt}
        width={after.width}
        height={after.height}
        draggable={false}
        className="absolute inset-0 h-full w-full object-cover"
      />
      <div
        data-testid="compare-before"
        className={cn('absolute inset-0', glide)}
        style={{ clipPath: beforeClipPath(percent) }}
      >
        <img
          src={before.src}
          alt={before.alt}
          width={before.width}
          height={before.height}
          draggable={false}
          className="h-full w-full object-cover"
        />
      </div>

      <span
        aria-hidden="true"
        className="absolute top-4 left-4 rounded-full bg-neutral-950/70 px-3 py-1 text-xs font-semibold tracking-wide text-white backdrop-blur"
      >
        {beforeLabel}
      </span>
      <span
        aria-hidden="true"
        className="absolute top-4 right-4 rounded-full bg-accent-600/90 px-3 py-1 text-xs font-semibold tracking-wide text-white backdrop-blur"
      >
        {afterLabel}
      </span>

      {/* The divider line and its handle, centred on the divider. */}
      <div
        aria-hidden="true"
        className={cn(
          'pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow',
          glide,
        )}
        style={{ left: `${percent}%` }}
      />
      <div
        ref={handleRef}
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-orientation="horizontal"
        aria-valuemin={sliderBounds.min}
        aria-valuemax={sliderBounds.max}
        aria-valuenow={rounded}
        aria-valuetext={valueText(rounded)}
        onKeyDown={onKeyDown}
        className={cn(
          'absolute top-1/2 flex size-12 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-white text-neutral-900 shadow-lifted ring-1 ring-neutral-900/10',
          'focus-visible:outline-4 focus-visible:outline-offset-2',
          glide,
        )}
        style={{ left: `${percent}%` }}
      >
        <ChevronsLeftRight aria-hidden="true" className="size-5" />
      </div>
    </div>
  );
}
