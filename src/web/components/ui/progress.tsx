import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn.ts';

export interface ProgressProps {
  /** 0..max; null shows an indeterminate bar. */
  value: number | null;
  max?: number;
  /** What is progressing ("Uploading photos"); read by screen readers. */
  label: string;
  /** Shows the percentage next to the label. */
  showValue?: boolean;
  className?: string;
}

export function Progress({ value, max = 100, label, showValue = false, className }: ProgressProps) {
  const clamped = value === null ? null : Math.min(Math.max(value, 0), max);
  const percent = clamped === null ? null : Math.round((clamped / max) * 100);
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      {showValue ? (
        <div className="flex items-center justify-between text-sm text-neutral-700">
          <span>{label}</span>
          {percent !== null ? <span className="tabular-nums">{percent}%</span> : null}
        </div>
      ) : null}
      <ProgressPrimitive.Root
        value={clamped}
        max={max}
        aria-label={label}
        className="relative h-2 w-full overflow-hidden rounded-full bg-neutral-200"
      >
        <ProgressPrimitive.Indicator
          className={cn(
            'h-full rounded-full bg-accent-600 transition-[width] duration-500 ease-out',
            percent === null && 'w-1/3 animate-shimmer',
          )}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </ProgressPrimitive.Root>
    </div>
  );
}
