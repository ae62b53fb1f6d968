import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Download, ExternalLink } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { paths } from '../../../../common/product/routes.ts';
import { timings } from '../../../../common/product/timings.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { generationQueryOptions, type Generation } from '../generation-api.ts';
import { generatedTabPath, generationTitle, generationView } from '../generation-rules.ts';
import { useDownloadImage } from '../use-download-image.ts';
import { useMarkViewed } from '../use-generation-actions.ts';
import { GenerationBadges, GenerationMedia } from './generation-media.tsx';

const text = generationMessages.result;

/**
 * The picture the user has just asked for, shown where they pressed Generate: its progress while
 * it is made, then the picture with Download, its full page and the way to all results. The
 * detail query it reads is refreshed by the event stream's `generation.updated`; a slow poll
 * while it is processing covers a missed event. Seeing it here counts as seeing it (no "New"
 * badge waits for it in the list).
 */
export function GenerationResult({ generation: created }: { generation: Generation }) {
  const query = useQuery({
    ...generationQueryOptions(created.id),
    initialData: created,
    initialDataUpdatedAt: Date.now(),
    refetchInterval: (current) =>
      current.state.data?.status === 'processing' ? timings.generationResultPollMs : false,
  });
  // A failed refetch keeps the last known state on screen; the poll or an event tries again.
  const generation = query.data;
  const view = generationView(generation);
  const { download, downloading } = useDownloadImage();
  useMarkViewed(generation, true);

  // On a phone the result lands below the fold: bring it into view once, when it first appears.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [created.id]);

  return (
    <section
      ref={section}
      aria-labelledby={`result-${created.id}`}
      data-testid="generation-result"
      data-status={view}
      className="scroll-mt-24"
    >
      <Card className="flex flex-col gap-4 p-4 md:p-5">
        <div className="flex flex-col gap-1">
          <h2 id={`result-${created.id}`} className="text-base font-semibold text-neutral-950">
            {text.title}
          </h2>
          {/* Announced as it changes, without taking focus from the Generate button. */}
          <p role="status" className="text-sm text-neutral-600">
            {view === 'processing' ? text.processing : view === 'failed' ? text.failed : text.ready}
          </p>
        </div>
        {view === 'processing' ? <Progress value={null} label={text.progressLabel} /> : null}
        <div className="overflow-hidden rounded-control">
          <GenerationMedia generation={generation} size="large" className="max-h-[60dvh]" />
        </div>
        <div className="flex flex-col gap-1">
          <p className="truncate text-sm font-medium text-neutral-950">
            {generationTitle(generation)}
          </p>
          <GenerationBadges generation={generation} />
        </div>
        <div className="flex flex-wrap gap-2">
          {view === 'complete' ? (
            <Button size="sm" loading={downloading} onClick={() => void download(generation)}>
              <Download aria-hidden="true" className="size-4" />
              {generationMessages.detail.download}
            </Button>
          ) : null}
          {view === 'processing' ? null : (
            <ButtonLink
              to={paths.generation(generation.id)}
              icon={ExternalLink}
              size="sm"
              variant="outline"
            >
              {text.open}
            </ButtonLink>
          )}
          <ButtonLink to={generatedTabPath} trailingIcon={ArrowRight} size="sm" variant="ghost">
            {text.seeAll}
          </ButtonLink>
        </div>
      </Card>
    </section>
  );
}
