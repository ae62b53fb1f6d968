import type { ReactNode, RefObject } from 'react';
import { cn } from '../../../lib/cn.ts';

const sizes = {
  lg: 'text-3xl font-semibold text-neutral-950 focus:outline-none md:text-4xl',
  md: 'text-2xl font-semibold text-balance text-neutral-950 focus:outline-none md:text-3xl',
} as const;

/**
 * The title of a quiz stage (question, result, sales, offer). Focus moves to it when the stage
 * changes, so a screen reader starts there; it is not in the tab order and draws no ring.
 */
export function StageHeading({
  headingRef,
  size,
  className,
  children,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  size: keyof typeof sizes;
  className?: string;
  children: ReactNode;
}) {
  return (
    <h1 ref={headingRef} tabIndex={-1} className={cn(className, sizes[size])}>
      {children}
    </h1>
  );
}
