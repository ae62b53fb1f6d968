import { useState, type ReactNode } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CheckSquare, Download, Heart, Images } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { useSession } from '../../../lib/session.ts';
import {
  bulkJobsQueryOptions,
  favouritesZipUrl,
  generationsQueryOptions,
  type GenerationsFilter,
} from '../generation-api.ts';
import { BulkJobCard } from './bulk-job-card.tsx';
import { GenerationCardSkeleton, generationGridClasses } from './generation-card.tsx';
import { GenerationGrid } from './generation-grid.tsx';
import { GenerationModal } from './generation-modal.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { loadMore } from '../../../lib/load-more.ts';

const text = generationMessages.history;

/**
 * The dashboard's Generated tab: single generations newest first (50 a page, Load more), the
 * favourites filter with its zip, and the newest bulk jobs. Everything updates live from the
 * event stream; a card opens the generation modal, or, after Select, joins the selection that
 * can be downloaded, favourited or deleted together.
 */
export function GeneratedTab({ emptyAction }: { emptyAction?: ReactNode }) {
  const { status } = useSession();
  if (status === 'signed-out') {
    return <EmptyState title={text.loginRequired} headingLevel="h2" className="bg-white" />;
  }
  return <GeneratedLists emptyAction={emptyAction} />;
}

function GeneratedLists({ emptyAction }: { emptyAction?: ReactNode }) {
  const [filter, setFilter] = useState<GenerationsFilter>('all');
  const [openId, setOpenId] = useState<string | null>(null);
  // Null when not selecting; the ids chosen so far when selecting.
  const [selection, setSelection] = useState<ReadonlySet<string> | null>(null);
  const list = useInfiniteQuery(generationsQueryOptions(filter));
  const bulkJobs = useQuery(bulkJobsQueryOptions());
  const now = new Date();

  const generations = list.data?.pages.flatMap((page) => page.generations) ?? [];
  const opened = generations.find((generation) => generation.id === openId) ?? null;
  // In the list's order, and only what is still in it (a deleted image leaves the selection).
  const selectedIds = selection
    ? generations.map((generation) => generation.id).filter((id) => selection.has(id))
    : [];
  const toggle = (id: string) =>
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const jobs = bulkJobs.data ?? [];
  const nothingYet =
    filter === 'all' && list.isSuccess && generations.length === 0 && jobs.length === 0;

  if (nothingYet && bulkJobs.isSuccess) {
    return (
      <EmptyState
        icon={<Images aria-hidden="true" />}
        title={text.empty}
        description={text.emptyHint}
        action={emptyAction}
        className="bg-white"
      />
    );
  }

  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="generated-images-title" className="flex flex-col gap-5">
        <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
          <h2 id="generated-images-title" className="text-xl font-semibold text-neutral-950">
            {text.singleImages}
          </h2>
          <div className="flex flex-wrap items-center gap-3">
            <div
              role="group"
              aria-label={text.filterLabel}
              className="inline-flex items-center gap-1 rounded-full bg-neutral-200/60 p-1"
            >
              {(['all', 'favourites'] as const).map((value) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={filter === value}
                  onClick={() => setFilter(value)}
                  className={cn(
                    'inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full px-3.5 text-sm font-medium text-neutral-600 transition-colors hover:text-neutral-950',
                    filter === value && 'bg-white text-neutral-950 shadow-sm',
                  )}
                >
                  {value === 'favourites' ? (
                    <Heart aria-hidden="true" className="size-3.5" />
                  ) : null}
                  {value === 'all' ? text.all : text.favourites}
                </button>
              ))}
            </div>
            {generations.length > 0 && selection === null ? (
              <Button variant="outline" size="sm" onClick={() => setSelection(new Set())}>
                <CheckSquare aria-hidden="true" className="size-4" />
                {text.selection.select}
              </Button>
            ) : null}
            {filter === 'favourites' && generations.length > 0 ? (
              <Button asChild variant="outline" size="sm">
                <a href={favouritesZipUrl} download>
                  <Download aria-hidden="true" className="size-4" />
                  {text.downloadFavourites}
                </a>
              </Button>
            ) : null}
          </div>
        </div>

        {list.isPending ? (
          <SkeletonGroup className={generationGridClasses}>
            {Array.from({ length: 4 }, (_, index) => (
              <GenerationCardSkeleton key={index} />
            ))}
          </SkeletonGroup>
        ) : list.isError ? (
          <EmptyState
            title={<span role="alert">{text.loadFailed}</span>}
            description={list.error.message}
            headingLevel="h3"
            action={
              <Button variant="outline" onClick={() => void list.refetch()}>
                {commonMessages.tryAgain}
              </Button>
            }
          />
        ) : generations.length === 0 ? (
          <EmptyState
            icon={
              filter === 'favourites' ? <Heart aria-hidden="true" /> : <Images aria-hidden="true" />
            }
            title={filter === 'favourites' ? text.noFavourites : text.empty}
            description={filter === 'favourites' ? text.noFavouritesHint : text.emptyHint}
            headingLevel="h3"
            action={filter === 'favourites' ? undefined : emptyAction}
          />
        ) : (
          <>
            {selection ? (
              <SelectionBar
                ids={selectedIds}
                onDone={() => setSelection(null)}
                onDeleted={() => setSelection(null)}
              />
            ) : null}
            <GenerationGrid
              generations={generations}
              now={now}
              onOpen={setOpenId}
              selection={selection ? { selected: selection, onToggle: toggle } : null}
              testId="generations-grid"
            />
            {list.hasNextPage ? (
              <Button
                variant="outline"
                className="self-center"
                loading={list.isFetchingNextPage}
                onClick={() => void loadMore(list)}
              >
                {text.loadMore}
              </Button>
            ) : null}
          </>
        )}
      </section>

      {jobs.length > 0 ? (
        <section aria-labelledby="bulk-jobs-title" className="flex flex-col gap-5">
          <h2 id="bulk-jobs-title" className="text-xl font-semibold text-neutral-950">
            {text.bulkJobs}
          </h2>
          <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {jobs.map((job) => (
              <li key={job.id}>
                <BulkJobCard job={job} now={now} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <GenerationModal generation={opened} onClose={() => setOpenId(null)} />
    </div>
  );
}
