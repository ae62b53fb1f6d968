import { useState } from 'react';
import { Download } from 'lucide-react';
import { bulkMessages } from '../../../../common/messages/generation.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import { bulkZipUrl, type BulkJobDetail } from '../generation-api.ts';
import { bulkBadge, bulkProgressPercent } from '../generation-rules.ts';
import { GenerationGrid } from './generation-grid.tsx';
import { GenerationModal } from './generation-modal.tsx';

const text = bulkMessages;

/**
 * A bulk job: its progress (completed of total, as a bar; announced politely as it moves) and
 * its images, each opening the generation modal. Live: the event stream patches the counters
 * and refetches the images as they finish.
 */
export function BulkJobView({ detail }: { detail: BulkJobDetail }) {
  const { bulkJob: job, generations } = detail;
  const [openId, setOpenId] = useState<string | null>(null);
  const badge = bulkBadge(job.status);
  const percent = bulkProgressPercent(job);
  const now = new Date();
  const opened = generations.find((generation) => generation.id === openId) ?? null;

  return (
    <div className="flex flex-col gap-8">
      <header className="flex flex-col gap-3">
        <p className="text-sm font-medium tracking-wide text-accent-700">
          {pageTitleMessages.bulkGeneration}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{job.label}</h1>
          <Badge variant={badge.variant} size="md" data-testid="bulk-status">
            {badge.label}
          </Badge>
        </div>
        <p className="text-sm text-neutral-600">{formatRelativeOrDate(job.createdAt, now)}</p>
      </header>

      <Card className="flex flex-col gap-4 p-5 md:p-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <p
            aria-live="polite"
            className="text-lg font-semibold text-neutral-950 tabular-nums"
            data-testid="bulk-progress"
          >
            {text.progress(job.completedImages, job.totalImages)}
          </p>
          <span className="text-sm text-neutral-600 tabular-nums">{percent}%</span>
        </div>
        <Progress value={percent} label={text.progressLabel} />
        {job.failedImages > 0 ? (
          <p className="text-sm text-danger-700">{text.failedCount(job.failedImages)}</p>
        ) : null}
        {job.completedImages > 0 ? (
          <Button asChild variant="outline" size="sm" className="self-start">
            <a href={bulkZipUrl(job.id)} download>
              <Download aria-hidden="true" className="size-4" />
              {text.downloadAll}
            </a>
          </Button>
        ) : null}
      </Card>

      <section aria-labelledby="bulk-images-title" className="flex flex-col gap-4">
        <h2 id="bulk-images-title" className="text-xl font-semibold text-neutral-950">
          {text.imagesTitle}
        </h2>
        <GenerationGrid generations={generations} now={now} onOpen={setOpenId} />
      </section>

      <GenerationModal generation={opened} onClose={() => setOpenId(null)} />
    </div>
  );
}
