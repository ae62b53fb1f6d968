import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';

export interface SectionHeadingProps {
  id: string;
  eyebrow?: string;
  title: string;
  subtitle?: ReactNode;
  align?: 'center' | 'start';
  tone?: 'light' | 'dark';
  className?: string;
}

/** One heading style for every landing section, so the page reads as one calm document. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  subtitle,
  align = 'center',
  tone = 'light',
  className,
}: SectionHeadingProps) {
  return (
    <div
      className={cn(
        'flex max-w-2xl flex-col gap-3',
        align === 'center' && 'mx-auto items-center text-center',
        className,
      )}
    >
      {eyebrow ? (
        <p
          className={cn(
            'text-xs font-semibold tracking-[0.18em] uppercase',
            tone === 'dark' ? 'text-accent-300' : 'text-accent-700',
          )}
        >
          {eyebrow}
        </p>
      ) : null}
      <h2
        id={id}
        className={cn(
          'text-3xl leading-tight font-semibold md:text-4xl',
          tone === 'dark' ? 'text-white' : 'text-neutral-950',
        )}
      >
        {title}
      </h2>
      {subtitle ? (
        <p
          className={cn(
            'text-base leading-relaxed md:text-lg',
            tone === 'dark' ? 'text-neutral-300' : 'text-neutral-600',
          )}
        >
          {subtitle}
        </p>
      ) : null}
    </div>
  );
}
