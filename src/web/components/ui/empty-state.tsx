import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

export interface EmptyStateProps {
  /** A lucide icon element, shown in a soft circle. */
  icon?: ReactNode;
  title: ReactNode;
  /** Say what to do next, not only that there is nothing here. */
  description?: ReactNode;
  /** Usually one button that does that next thing. */
  action?: ReactNode;
  /** Heading level, so the empty state fits the page outline. */
  headingLevel?: 'h2' | 'h3';
  className?: string;
}

export function EmptyState({
  icon,
  title,
  description,
  action,
  headingLevel: Heading = 'h2',
  className,
}: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-4 rounded-card border border-dashed border-neutral-300 bg-white/60 px-6 py-12 text-center md:py-16',
        className,
      )}
    >
      {icon ? (
        <div className="flex size-14 items-center justify-center rounded-full bg-accent-50 text-accent-700 [&_svg]:size-6">
          {icon}
        </div>
      ) : null}
      <div className="flex max-w-md flex-col gap-2">
        <Heading className="text-lg font-semibold text-neutral-950">{title}</Heading>
        {description ? (
          <p className="text-sm leading-relaxed text-neutral-600">{description}</p>
        ) : null}
      </div>
      {action ? <div className="mt-2 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </div>
  );
}
