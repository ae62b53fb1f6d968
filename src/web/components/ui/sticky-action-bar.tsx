import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export interface StickyActionBarProps extends ComponentProps<'div'> {
  /** False keeps the bar in the page's flow on a phone too (another bar holds the bottom now). */
  sticky?: boolean;
}

/**
 * The screen's primary action on a phone: below 768 px the bar stays at the bottom of the screen
 * while the block holding it is in view (sticky, so it never leaves that block), spanning the
 * screen across the 20 px side padding of the page or card around it. From 768 px up it is a
 * plain block in the page's flow. Every phone style is a `max-md:` variant, so the classes a
 * caller adds (its layout, and how the block looks on a larger screen) never fight them.
 */
export function StickyActionBar({ sticky = true, className, ...props }: StickyActionBarProps) {
  return (
    <div
      className={cn(
        sticky &&
          'max-md:sticky max-md:bottom-0 max-md:z-10 max-md:-mx-5 max-md:border-t max-md:border-neutral-200/80 max-md:bg-white/95 max-md:px-5 max-md:pt-3 max-md:pb-[max(0.75rem,env(safe-area-inset-bottom))] max-md:backdrop-blur',
        className,
      )}
      {...props}
    />
  );
}
