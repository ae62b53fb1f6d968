import { useEffect, useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, ChevronDown, FolderOpen, ImagePlus, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import type { Category, PresetSummary } from '../../../../common/api/catalog.ts';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { paths } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { cn } from '../../../lib/cn.ts';
import {
  categoriesQueryOptions,
  presetsQueryOptions,
  type CatalogLinkState,
} from '../catalog-api.ts';
import { carouselPresets } from '../carousel-presets.ts';
import { PresetCard, PresetCardSkeleton } from './preset-card.tsx';
import { carouselItemClasses } from '../../../lib/carousel-layout.ts';
import { PresetCarousel } from './preset-carousel.tsx';

const text = catalogMessages;

/**
 * The dashboard's Presets tab: every active category in order, each a collapsible row with a
 * View All link and a carousel of its presets (at most 8 with a picture). Loading shows skeleton rows, a failure says what
 * went wrong with Try again, and an empty catalog says so with Refresh.
 */
export function CategoryList() {
  const categories = useQuery(categoriesQueryOptions());
  const presets = useQuery(presetsQueryOptions());

  const byCategory = useMemo(() => {
    const groups = new Map<string, PresetSummary[]>();
    for (const preset of presets.data?.presets ?? []) {
      const group = groups.get(preset.categoryId) ?? [];
      group.push(preset);
      groups.set(preset.categoryId, group);
    }
    return groups;
  }, [presets.data]);

  // The specification's toast for a failed model load, once per failure (not on every render).
  const presetsError = presets.error;
  useEffect(() => {
    if (presetsError) notify.error(text.loadModelsFailed(presetsError.message));
  }, [presetsError]);

  const retry = () => {
    void categories.refetch();
    void presets.refetch();
  };

  if (categories.isPending || presets.isPending) {
    if (categories.isError || presets.isError) {
      return <LoadFailed error={categories.error ?? presets.error} onRetry={retry} />;
    }
    return <CategoryListSkeleton />;
  }
  if (categories.isError || presets.isError) {
    return <LoadFailed error={categories.error ?? presets.error} onRetry={retry} />;
  }

  const list = categories.data.categories;
  if (list.length === 0) {
    return (
      <EmptyState
        icon={<FolderOpen aria-hidden="true" />}
        title={text.noCategories}
        description={text.noCategoriesHint}
        action={
          <Button
            variant="outline"
            onClick={retry}
            loading={categories.isFetching || presets.isFetching}
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            {text.refresh}
          </Button>
        }
      />
    );
  }

  return (
    <div className="flex flex-col gap-10">
      {list.map((category, index) => (
        <CategoryRow
          key={category.manualId}
          category={category}
          presets={byCategory.get(category.manualId) ?? []}
          eager={index === 0}
        />
      ))}
    </div>
  );
}

function CategoryRow({
  category,
  presets,
  eager,
}: {
  category: Category;
  presets: PresetSummary[];
  eager: boolean;
}) {
  const [expanded, setExpanded] = useState(true);
  const panelId = useId();
  const linkState: CatalogLinkState = { categoryName: category.displayName };

  return (
    <section aria-labelledby={`${panelId}-title`} className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h3 id={`${panelId}-title`} className="min-w-0">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={panelId}
            onClick={() => setExpanded((value) => !value)}
            className="group -mx-2 flex cursor-pointer items-center gap-2 rounded-control px-2 py-1 text-left text-lg font-semibold text-neutral-950 hover:bg-neutral-200/50 md:text-xl"
          >
            {category.emoji ? (
              <span aria-hidden="true" className="text-xl">
                {category.emoji}
              </span>
            ) : null}
            <span className="truncate">{category.displayName}</span>
            <span className="text-sm font-normal text-neutral-500">
              ({text.presetCount(presets.length)})
            </span>
            <ChevronDown
              aria-hidden="true"
              className={cn(
                'size-5 shrink-0 text-neutral-500 transition-transform motion-reduce:transition-none',
                expanded ? 'rotate-0' : '-rotate-90',
              )}
            />
          </button>
        </h3>
        <Button asChild variant="ghost" size="sm" className="shrink-0">
          <Link
            to={paths.category(category.manualId)}
            state={linkState}
            aria-label={`${text.viewAll}: ${category.displayName}`}
          >
            {text.viewAll}
          </Link>
        </Button>
      </div>

      <div id={panelId} hidden={!expanded}>
        {presets.length === 0 ? (
          <EmptyState
            headingLevel="h3"
            className="py-8 md:py-10"
            icon={<ImagePlus aria-hidden="true" />}
            title={text.emptyCategory}
            action={
              <Button variant="outline" size="sm" onClick={() => notify.info(text.comingSoon)}>
                {text.addModel}
              </Button>
            }
          />
        ) : (
          <PresetCarousel label={category.displayName}>
            {carouselPresets(presets).map((preset, index) => (
              <li key={preset.id} className={carouselItemClasses}>
                <PresetCard
                  preset={preset}
                  eager={eager && index < 4}
                  linkState={{ categoryName: category.displayName }}
                />
              </li>
            ))}
          </PresetCarousel>
        )}
      </div>
    </section>
  );
}

function LoadFailed({ error, onRetry }: { error: Error | null; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-4 rounded-card border border-danger-100 bg-danger-50/60 px-6 py-12 text-center"
    >
      <AlertCircle aria-hidden="true" className="size-8 text-danger-600" />
      <div className="flex flex-col gap-1.5">
        <h3 className="text-lg font-semibold text-neutral-950">{text.somethingWentWrong}</h3>
        <p className="text-sm text-neutral-700">{error?.message || text.loadCategoriesFailed}</p>
      </div>
      <Button variant="outline" onClick={onRetry}>
        {text.tryAgain}
      </Button>
    </div>
  );
}

function CategoryListSkeleton() {
  return (
    <SkeletonGroup className="flex flex-col gap-10">
      {[0, 1].map((row) => (
        <div key={row} className="flex flex-col gap-4">
          <div className="flex items-center justify-between">
            <Skeleton className="h-7 w-48" />
            <Skeleton shape="pill" className="h-9 w-20" />
          </div>
          <div className="flex gap-4 overflow-hidden pt-1 pb-3">
            {[0, 1, 2, 3].map((card) => (
              <PresetCardSkeleton key={card} className={carouselItemClasses} />
            ))}
          </div>
          {/* The carousel's button row, so the real rows take the same height. */}
          <div className="h-9" />
        </div>
      ))}
    </SkeletonGroup>
  );
}
