import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { useNavigate } from 'react-router';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { validationMessages } from '../../../../common/messages/studio.ts';
import { photos } from '../../../../common/product/photos.ts';
import { timings } from '../../../../common/product/timings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { FlowPage } from '../components/flow-page.tsx';
import { PhotoCounts } from '../components/photo-counts.tsx';
import { editPhotosPath, hasPendingPhotos, validationResultsContinue } from '../photo-rules.ts';
import { photosQueryOptions } from '../studio-api.ts';
import { LoadFailed } from '../components/load-failed.tsx';

const text = validationMessages;

/**
 * /validation-results: how many photos passed, failed or are still being checked (live, with
 * the specification's 3 s poll as a fallback), and Continue, which needs at least 8 passed; with
 * fewer it goes back to the photos and says why.
 */
export function ValidationResultsPage() {
  usePageTitle(pageTitleMessages.validationResults);
  const navigate = useNavigate();
  const query = useQuery({
    ...photosQueryOptions(),
    refetchInterval: (state) =>
      hasPendingPhotos(state.state.data?.counts) ? timings.validationPoll.resultsMs : false,
  });

  const onContinue = () => {
    if (!query.data) return;
    const next = validationResultsContinue(query.data.counts);
    if (!next.ok) notify.error(next.message);
    void navigate(next.to);
  };

  const counts = query.data?.counts;
  const checked = counts ? counts.passed + counts.failed : 0;

  return (
    <FlowPage title={text.title} back={{ to: editPhotosPath, label: text.backToUpload }}>
      {query.isPending ? (
        <SkeletonGroup className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-20 w-full" />
          ))}
        </SkeletonGroup>
      ) : query.isError ? (
        <LoadFailed message={text.loadFailed} onRetry={() => void query.refetch()} />
      ) : (
        <section aria-labelledby="summary-title" className="flex flex-col gap-6">
          <h2 id="summary-title" className="text-xl font-semibold text-neutral-950">
            {text.summaryTitle}
          </h2>
          <PhotoCounts counts={query.data.counts} />
          {query.data.counts.total > 0 ? (
            <Progress
              value={checked}
              max={query.data.counts.total}
              label={text.validating}
              showValue={query.data.counts.pending > 0}
            />
          ) : null}
          <Card className="flex flex-col gap-4 p-5 md:flex-row md:items-center md:justify-between md:p-6">
            <p className="text-sm leading-relaxed text-neutral-700">
              {query.data.counts.passed < photos.min ? text.needAtLeast : null}
            </p>
            <Button size="lg" onClick={onContinue}>
              {text.continue}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Button>
          </Card>
        </section>
      )}
    </FlowPage>
  );
}
