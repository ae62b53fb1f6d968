import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

const widths = {
  sm: 'max-w-2xl',
  md: 'max-w-4xl',
  lg: 'max-w-6xl',
  xl: 'max-w-7xl',
} as const;

export interface ContainerProps extends ComponentProps<'div'> {
  size?: keyof typeof widths;
}

/** Centres content with the app's side padding; every page and bar uses it so edges line up. */
export function Container({ size = 'lg', className, ...props }: ContainerProps) {
  return <div className={cn('mx-auto w-full px-5 md:px-8', widths[size], className)} {...props} />;
}
