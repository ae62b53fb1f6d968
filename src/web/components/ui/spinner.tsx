import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

const sizes = { sm: 'size-4', md: 'size-5', lg: 'size-8' } as const;

export interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Announced to screen readers; without it the spinner is decorative (e.g. inside a button). */
  label?: string;
  className?: string;
}

export function Spinner({ size = 'md', label, className }: SpinnerProps) {
  const icon = (
    <LoaderCircle
      aria-hidden="true"
      className={cn('animate-spin motion-reduce:animate-none', sizes[size], className)}
    />
  );
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
