import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { timings } from '../../../../common/product/timings.ts';
import { useInView } from './use-in-view.ts';
import { useReducedMotion } from './use-reduced-motion.ts';

export interface AutoAdvance {
  index: number;
  /** 0..1 of the current slide's time, for the progress bar. */
  progress: number;
  /** True until the visitor picks a slide by hand (or motion is reduced). */
  running: boolean;
  /** A choice by hand: shows that slide and stops advancing for good. */
  select: (index: number) => void;
}

/**
 * Cycles through `count` slides: every `tickMs` the progress moves on, and after `slideMs` the
 * next slide comes. Picking a slide by hand stops it, so the page never takes the visitor's
 * choice away. Timers (not CSS) drive it, so tests can move time with a fake clock.
 */
export function useAutoAdvance(
  count: number,
  {
    enabled,
    slideMs = timings.carousel.slideMs,
    tickMs = timings.carousel.tickMs,
  }: { enabled: boolean; slideMs?: number; tickMs?: number },
): AutoAdvance {
  const [index, setIndex] = useState(0);
  const [progress, setProgress] = useState(0);
  const [manual, setManual] = useState(false);
  const elapsed = useRef(0);
  const running = enabled && !manual && count > 1;

  // A layout effect: the timer starts in the same task that shows the progress bar. A passive
  // effect runs a task later (React yields for a paint first), so time moved in between, as a
  // test's clock does, passed without the timer.
  useLayoutEffect(() => {
    if (!running) return;
    const id = window.setInterval(() => {
      elapsed.current += tickMs;
      if (elapsed.current >= slideMs) {
        elapsed.current = 0;
        setIndex((current) => (current + 1) % count);
      }
      setProgress(elapsed.current / slideMs);
    }, tickMs);
    return () => window.clearInterval(id);
  }, [running, count, slideMs, tickMs]);

  const select = useCallback((next: number) => {
    setManual(true);
    setIndex(next);
    setProgress(0);
  }, []);

  return { index: count > 0 ? index % count : 0, progress, running, select };
}

/**
 * `useAutoAdvance` for a section of the page (the carousels below the fold): it runs while the
 * element given `section` as its ref is on screen and motion is not reduced. `reducedMotion` is
 * there for the section's own animations.
 */
export function useSectionAutoAdvance(count: number) {
  const reducedMotion = useReducedMotion();
  const section = useRef<HTMLElement>(null);
  const inView = useInView(section);
  const advance = useAutoAdvance(count, { enabled: inView && !reducedMotion });
  return { section, reducedMotion, ...advance };
}
