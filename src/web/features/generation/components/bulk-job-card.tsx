import { Layers } from 'lucide-react';
import { Link } from 'react-router';
import { bulkMessages } from '../../../../common/messages/generation.ts';
import { paths } from '../../../../common/product/routes.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import type { BulkJob } from '../generation-api.ts';
import { bulkBadge, bulkProgressPercent } from '../generation-rules.ts';

const text = bulkMessages;

/** A bulk job in the generated tab's list: its name, badge and progress; opens its page. */
export function BulkJobCard({ job, now }: { job: BulkJob; now: Date }) {
  const badge = bulkBadge(job.status);
  const percent = bulkProgressPercent(job);
  return (
    <article
      aria-label={job.label}
      data-testid="bulk-job-card"
      className="relative flex flex-col gap-3 rounded-card border border-neutral-200/80 bg-white p-4 shadow-card transition-shadow focus-within:shadow-lifted hover:shadow-lifted"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-50 text-accent-700">
          <Layers aria-hidden="true" className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <Link
            to={paths.bulkGeneration(job.id)}
            aria-label={text.openJob(job.label)}
            className="truncate text-sm font-semibold text-neutral-950 after:absolute after:inset-0 after:rounded-card after:content-[''] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-accent-600"
          >
            {job.label}
          </Link>
          <p className="text-xs text-neutral-600">{formatRelativeOrDate(job.createdAt, now)}</p>
        </div>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </div>
      <Progress value={percent} label={`${text.progressLabel}: ${job.label}`} />
      <div className="flex items-center justify-between text-xs text-neutral-600">
        <span>{text.progress(job.completedImages, job.totalImages)}</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      {job.failedImages > 0 ? (
        <p className="text-xs text-danger-700">{text.failedCount(job.failedImages)}</p>
      ) : null}
    </article>
  );
}
