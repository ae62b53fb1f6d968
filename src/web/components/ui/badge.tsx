import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  neutral: 'bg-neutral-100 text-neutral-700 ring-neutral-200',
  accent: 'bg-accent-50 text-accent-800 ring-accent-200',
  success: 'bg-success-50 text-success-700 ring-success-100',
  danger: 'bg-danger-50 text-danger-700 ring-danger-100',
  outline: 'bg-transparent text-neutral-700 ring-neutral-300',
  solid: 'bg-neutral-900 text-white ring-neutral-900',
} as const;

const sizes = {
  sm: 'px-2.5 py-0.5 text-xs [&_svg]:size-3.5',
  md: 'px-3 py-1 text-sm [&_svg]:size-4',
} as const;

export type BadgeVariant = keyof typeof variants;

export interface BadgeProps extends ComponentProps<'span'> {
  variant?: BadgeVariant;
  size?: keyof typeof sizes;
}

export function Badge({ variant = 'neutral', size = 'sm', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full font-medium whitespace-nowrap ring-1 ring-inset',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
