import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { Spinner } from './spinner.tsx';

const variants = {
  primary: 'bg-accent-600 text-white shadow-sm hover:bg-accent-700 active:bg-accent-800',
  secondary: 'bg-neutral-900 text-white shadow-sm hover:bg-neutral-800 active:bg-neutral-950',
  outline:
    'border border-neutral-300 bg-white text-neutral-900 hover:border-neutral-400 hover:bg-neutral-100',
  ghost: 'text-neutral-700 hover:bg-neutral-200/60 hover:text-neutral-950',
  destructive: 'bg-danger-600 text-white shadow-sm hover:bg-danger-700',
  // The calm way in to a destructive action (e.g. "Delete account" opening its confirmation).
  'destructive-outline':
    'border border-danger-100 bg-white text-danger-700 hover:border-danger-600/40 hover:bg-danger-50',
} as const;

// md and lg are at least 44 px tall: comfortable touch targets on phones.
const sizes = {
  sm: 'h-9 px-4 text-sm',
  md: 'h-11 px-5 text-sm',
  lg: 'h-12 px-7 text-base',
  icon: 'size-11',
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/** The button look, for the rare element that cannot use `<Button asChild>`. */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(
    'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 rounded-full font-medium whitespace-nowrap transition-colors duration-150 select-none',
    'disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50',
    '[&_svg]:shrink-0',
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and marks it busy, keeping its label (no width jump). */
  loading?: boolean;
  /** Renders the single child (e.g. a router `Link`) with the button's look and props. */
  asChild?: boolean;
}

export function Button({
  variant,
  size,
  loading = false,
  asChild = false,
  disabled,
  className,
  children,
  type,
  ...props
}: ButtonProps) {
  const classes = buttonClasses({ variant, size, className });
  if (asChild) {
    return (
      <Slot.Root className={classes} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? <Spinner size="sm" /> : null}
      {children}
    </button>
  );
}
