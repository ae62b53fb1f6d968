import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** A small line above the title (section or step name). */
  eyebrow?: ReactNode;
  /** Buttons shown beside the title from the tablet size up, below it on phones. */
  actions?: ReactNode;
  className?: string;
}

/** The one h1 of a page, with its lead-in and page-level actions. */
export function PageHeader({ title, description, eyebrow, actions, className }: PageHeaderProps) {
  return (
    <header
      className={cn(
        'flex flex-col gap-5 md:flex-row md:items-end md:justify-between md:gap-8',
        className,
      )}
    >
      <div className="flex max-w-2xl flex-col gap-2">
        {eyebrow ? (
          <p className="text-sm font-medium tracking-wide text-accent-700">{eyebrow}</p>
        ) : null}
        <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{title}</h1>
        {description ? (
          <p className="text-base leading-relaxed text-neutral-600">{description}</p>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-3">{actions}</div> : null}
    </header>
  );
}
