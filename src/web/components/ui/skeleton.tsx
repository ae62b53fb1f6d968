import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/**
 * A placeholder in the shape of what is loading. Give it the final size (or aspect ratio) so the
 * content replaces it without moving anything. Hidden from assistive technology: the region that
 * loads should say so itself (e.g. `aria-busy`).
 */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-shimmer rounded-control bg-neutral-200/80', className)}
      {...props}
    />
  );
}
