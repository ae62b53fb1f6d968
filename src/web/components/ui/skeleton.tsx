import type { ComponentProps } from 'react';
import { commonMessages } from '../../../common/messages/shell.ts';
import { cn } from '../../lib/cn.ts';

/**
 * A placeholder in the shape of what is loading. Give it the final size (or aspect ratio) so the
 * content replaces it without moving anything. Hidden from assistive technology: the region that
 * loads should say so itself (e.g. `aria-busy`).
 */
const shapes = {
  control: 'rounded-control',
  card: 'rounded-card',
  pill: 'rounded-full',
} as const;

export interface SkeletonProps extends ComponentProps<'div'> {
  /** Match the corners of what it stands in for: a field, a card or a pill (button, badge). */
  shape?: keyof typeof shapes;
}

export function Skeleton({ shape = 'control', className, ...props }: SkeletonProps) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-shimmer bg-neutral-200/80', shapes[shape], className)}
      {...props}
    />
  );
}

export interface SkeletonGroupProps extends ComponentProps<'div'> {
  /** What assistive technology hears while it loads. */
  label?: string;
}

/**
 * The region that stands in for content while it loads: marked busy, it says "Loading…" once to
 * assistive technology; its children are the `Skeleton`s, laid out as the content will be.
 */
export function SkeletonGroup({
  label = commonMessages.loadingEllipsis,
  children,
  ...props
}: SkeletonGroupProps) {
  return (
    <div aria-busy="true" {...props}>
      <span role="status" className="sr-only">
        {label}
      </span>
      {children}
    </div>
  );
}
