import type { PhotoCounts as Counts } from '../../../../common/api/studio.ts';
import { validationMessages } from '../../../../common/messages/studio.ts';
import { cn } from '../../../lib/cn.ts';

const text = validationMessages;

/**
 * Total, passed, failed and in-progress photos. The figures are a description list (each read
 * with its label); the sentence under them is a polite live region, so validation news is
 * announced as it arrives without a screen reader re-reading the whole list.
 */
export function PhotoCounts({ counts, className }: { counts: Counts; className?: string }) {
  const figures = [
    { label: text.total, value: counts.total, tone: 'text-neutral-950' },
    { label: text.passed, value: counts.passed, tone: 'text-success-700' },
    { label: text.failed, value: counts.failed, tone: 'text-danger-700' },
    { label: text.inProgress, value: counts.pending, tone: 'text-accent-700' },
  ];
  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {figures.map((figure) => (
          <div
            key={figure.label}
            className="flex flex-col-reverse justify-end gap-1 rounded-control border border-neutral-200 bg-white px-4 py-3"
          >
            <dt className="text-sm text-neutral-600">{figure.label}</dt>
            <dd className={cn('text-2xl font-semibold tabular-nums', figure.tone)}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
      <p role="status" aria-live="polite" className="sr-only">
        {text.summary(counts.passed, counts.failed, counts.pending)}
      </p>
    </div>
  );
}
