import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** Shared by inputs and textareas so every field looks and behaves the same. */
export const fieldClasses = cn(
  'w-full rounded-control border border-neutral-300 bg-white px-4 text-neutral-900 shadow-xs transition-colors',
  // 16 px text on phones stops iOS from zooming into the field; 14 px from the tablet size up.
  'text-base md:text-sm',
  'placeholder:text-neutral-500 hover:border-neutral-400',
  'focus-visible:border-accent-600 focus-visible:outline-accent-600/40',
  'aria-invalid:border-danger-600 aria-invalid:focus-visible:outline-danger-600/40',
  'disabled:cursor-not-allowed disabled:bg-neutral-100 disabled:opacity-70',
);

export interface InputProps extends ComponentProps<'input'> {
  /** Marks the field invalid for assistive technology and styles it as such. */
  invalid?: boolean;
}

export function Input({ className, invalid, type = 'text', ...props }: InputProps) {
  return (
    <input
      type={type}
      aria-invalid={invalid || undefined}
      className={cn(
        fieldClasses,
        'h-11 file:mr-3 file:border-0 file:bg-transparent file:font-medium',
        className,
      )}
      {...props}
    />
  );
}
