import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Layers, Lock, X } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { bulkMessages } from '../../../../common/messages/generation.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { BackLink } from '../../../components/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { BulkGenerateDialog } from '../../generation/components/bulk-generate-dialog.tsx';
import { bulkPlanGate } from '../../generation/generation-rules.ts';
import { categoryQueryOptions, readCatalogLinkState } from '../catalog-api.ts';
import { PresetCard, PresetCardSkeleton } from '../components/preset-card.tsx';

const text = catalogMessages;
const gridClasses = 'grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4';

/**
 * /category/{categoryId}: every preset of a category as a grid, with multi-select for Bulk
 * Generate. Bulk is a Pro, Premium and Enterprise feature (spec README resolution); others see
 * the gate with an upgrade link, and a Pro plan that lapsed is told it needs an active one. An eligible user chooses the AI model in a dialog that shows
 * the cost and starts the whole selection as one bulk job.
 */
export function CategoryPage() {
  const { categoryId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { categoryName } = readCatalogLinkState(location.state);
  const query = useQuery(categoryQueryOptions(categoryId));
  const { subscription } = useSession();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialogOpen, setDialogOpen] = useState(false);

  // The specification's toast for a failed model load (spec 01 §8), once per failure; an unknown
  // category is not a failure and is said inline only.
  const loadError = query.error;
  const notFound = isApiError(loadError) && loadError.status === 404;
  useEffect(() => {
    if (loadError && !notFound) notify.error(text.loadModelsFailed(loadError.message));
  }, [loadError, notFound]);

  const title = query.data?.category.displayName ?? categoryName ?? pageTitleMessages.category;
  usePageTitle(title);

  const gate = bulkPlanGate(subscription);
  const count = selected.size;
  // In the page's order, so the bulk job's images follow the grid.
  const selectedIds = (query.data?.presets ?? [])
    .map((preset) => preset.id)
    .filter((id) => selected.has(id));

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const bulkGenerate = () => {
    if (gate) {
      notify.error(gate.message);
      if (gate.redirectTo) void navigate(gate.redirectTo);
      return;
    }
    if (count === 0) {
      notify.error(bulkMessages.selectAtLeastOne);
      return;
    }
    setDialogOpen(true);
  };

  return (
    <Container className="flex flex-col gap-8 py-8 md:gap-10 md:py-12">
      <div className="flex flex-col gap-4">
        <BackLink to={routes.dashboard}>{commonMessages.back}</BackLink>
        <header className="flex flex-col gap-2">
          <h1 className="flex items-center gap-3 text-3xl font-semibold text-neutral-950 md:text-4xl">
            {query.data?.category.emoji ? (
              <span aria-hidden="true">{query.data.category.emoji}</span>
            ) : null}
            {query.isPending && !categoryName ? <Skeleton className="h-10 w-56" /> : title}
          </h1>
          <p className="text-base text-neutral-600">{text.categoryHint}</p>
        </header>
      </div>

      {gate ? (
        <div
          role="note"
          className="flex flex-col gap-3 rounded-card border border-accent-200 bg-accent-50/70 p-4 md:flex-row md:items-center md:justify-between md:p-5"
        >
          <div className="flex items-start gap-3">
            <Lock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-700" />
            <div className="flex flex-col gap-0.5">
              <p className="font-semibold text-neutral-950">
                {gate.kind === 'tier' ? text.bulkLockedTitle : gate.message}
              </p>
              {gate.kind === 'tier' ? (
                <p className="text-sm text-neutral-700">{gate.message}</p>
              ) : null}
            </div>
          </div>
          <Button asChild size="sm" className="self-start md:self-auto">
            <Link to={`${routes.subscription}?redirect=${encodeURIComponent(location.pathname)}`}>
              {text.upgrade}
            </Link>
          </Button>
        </div>
      ) : null}

      {query.isPending ? (
        <SkeletonGroup className={gridClasses}>
          {Array.from({ length: 8 }, (_, i) => (
            <PresetCardSkeleton key={i} />
          ))}
        </SkeletonGroup>
      ) : query.isError ? (
        // The alert wraps the whole state: inside the heading it would leave the heading nameless.
        <div role="alert">
          <EmptyState
            title={notFound ? text.categoryNotFound : text.somethingWentWrong}
            description={notFound ? undefined : query.error.message || text.loadModelsFailedPlain}
            action={
              notFound ? (
                <Button asChild variant="outline">
                  <Link to={routes.dashboard}>{commonMessages.goBack}</Link>
                </Button>
              ) : (
                <Button variant="outline" onClick={() => void query.refetch()}>
                  {text.tryAgain}
                </Button>
              )
            }
          />
        </div>
      ) : query.data.presets.length === 0 ? (
        <EmptyState
          title={text.emptyCategory}
          action={
            <Button variant="outline" onClick={() => notify.info(text.comingSoon)}>
              {text.addModel}
            </Button>
          }
        />
      ) : (
        <ul className={gridClasses}>
          {query.data.presets.map((preset, index) => (
            <li key={preset.id}>
              <PresetCard
                preset={preset}
                eager={index < 4}
                linkState={{ fromCategory: categoryId, categoryName: title }}
                selected={selected.has(preset.id)}
                onSelectedChange={(on) => toggle(preset.id, on)}
              />
            </li>
          ))}
        </ul>
      )}

      {/* The bulk bar: always in the page flow at the bottom, sticky so it stays in reach. */}
      {query.data && query.data.presets.length > 0 ? (
        <div className="sticky bottom-4 z-30 flex items-center justify-between gap-3 rounded-full border border-neutral-200 bg-white/95 py-2 pr-2 pl-5 shadow-lifted backdrop-blur">
          <p aria-live="polite" className="text-sm font-medium text-neutral-700 tabular-nums">
            {text.selectedCount(count)}
          </p>
          <div className="flex items-center gap-2">
            {count > 0 ? (
              <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
                <X aria-hidden="true" className="size-4" />
                <span className="sr-only md:not-sr-only">{text.clearSelection}</span>
              </Button>
            ) : null}
            <Button
              size="sm"
              onClick={bulkGenerate}
              disabled={!gate && count === 0}
              aria-describedby={gate ? 'bulk-gate' : undefined}
            >
              {gate ? (
                <Lock aria-hidden="true" className="size-4" />
              ) : (
                <Layers aria-hidden="true" className="size-4" />
              )}
              {text.bulkGenerate}
              {count > 0 ? (
                <span className="rounded-full bg-white/20 px-2 py-0.5 text-xs tabular-nums">
                  {count}
                </span>
              ) : null}
            </Button>
            {gate ? (
              <span id="bulk-gate" className="sr-only">
                {gate.message}
              </span>
            ) : null}
          </div>
        </div>
      ) : null}

      <BulkGenerateDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        presetIds={selectedIds}
        categoryId={categoryId}
        onStarted={() => {
          setDialogOpen(false);
          setSelected(new Set());
        }}
      />
    </Container>
  );
}
