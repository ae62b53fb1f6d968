import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import type { CatalogImage } from '../../../../common/api/catalog.ts';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { paths, routes } from '../../../../common/product/routes.ts';
import { BackLink } from '../../../components/back-link.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { PresetGenerate } from '../../generation/components/preset-generate.tsx';
import { presetQueryOptions, readCatalogLinkState } from '../catalog-api.ts';
import { ExamplesGrid, ImageCarousel } from '../components/image-carousel.tsx';

const text = catalogMessages;

/**
 * /model/{id}: a preset's pictures, description and category, the user's own AI model to use,
 * and the Generate button in the state the session calls for. Back returns to the category the
 * preset was opened from (router state), else to the dashboard.
 */
export function ModelPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { fromCategory } = readCatalogLinkState(location.state);
  const backTo = fromCategory ? paths.category(fromCategory) : routes.dashboard;
  const query = useQuery(presetQueryOptions(id));
  const [index, setIndex] = useState(0);
  usePageTitle(query.data?.preset.displayName ?? pageTitleMessages.model);

  const back = <BackLink to={backTo}>{commonMessages.back}</BackLink>;

  if (query.isPending) return <ModelPageSkeleton back={back} />;

  if (query.isError) {
    const notFound = isApiError(query.error) && query.error.status === 404;
    return (
      <Container className="flex flex-col gap-6 py-8 md:py-12">
        {back}
        <NotFoundOrFailed
          notFound={notFound}
          backTo={backTo}
          onRetry={() => void query.refetch()}
        />
      </Container>
    );
  }

  const { preset } = query.data;
  const images: CatalogImage[] = [
    ...(preset.featuredImage ? [preset.featuredImage] : []),
    ...preset.additionalImages,
  ];

  return (
    <Container className="flex flex-col gap-8 py-8 md:gap-12 md:py-12">
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <div className="flex flex-col gap-4">
          {back}
          {/* Without any picture the carousel shows the calm "Image not available" box. */}
          <ImageCarousel
            images={images}
            index={index}
            onIndexChange={setIndex}
            fallbackAlt={preset.displayName}
          />
        </div>

        <div className="flex flex-col gap-6 md:pt-14">
          <div className="flex flex-col gap-3">
            <Link
              to={paths.category(preset.category.manualId)}
              state={{ categoryName: preset.category.displayName }}
              className="self-start rounded-full"
            >
              <Badge variant="accent" size="md" data-testid="category-badge">
                {preset.category.emoji ? (
                  <span aria-hidden="true">{preset.category.emoji}</span>
                ) : null}
                {preset.category.displayName}
              </Badge>
            </Link>
            <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">
              {preset.displayName}
            </h1>
            <p className="text-base leading-relaxed text-neutral-600">
              {preset.description || text.noDescription}
            </p>
          </div>

          <PresetGenerate presetId={preset.id} />
        </div>
      </div>

      {images.length > 0 ? (
        <section aria-labelledby="examples-title" className="flex flex-col gap-4">
          <h2 id="examples-title" className="text-xl font-semibold text-neutral-950">
            {text.examples}
          </h2>
          <ExamplesGrid
            images={images}
            index={index}
            onIndexChange={setIndex}
            fallbackAlt={preset.displayName}
          />
        </section>
      ) : null}
    </Container>
  );
}

function NotFoundOrFailed({
  notFound,
  backTo,
  onRetry,
}: {
  notFound: boolean;
  backTo: string;
  onRetry: () => void;
}) {
  if (notFound) {
    return (
      <EmptyState
        title={<span role="alert">{text.modelNotFound}</span>}
        headingLevel="h2"
        action={
          <Button asChild variant="outline">
            <Link to={backTo}>{commonMessages.goBack}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <EmptyState
      title={<span role="alert">{text.loadModelDetailsFailed}</span>}
      description={commonMessages.somethingWentWrong}
      action={
        <>
          <Button variant="outline" onClick={onRetry}>
            {commonMessages.tryAgain}
          </Button>
          <Button asChild variant="ghost">
            <Link to={backTo}>{commonMessages.goBack}</Link>
          </Button>
        </>
      }
    />
  );
}

function ModelPageSkeleton({ back }: { back: ReactNode }) {
  return (
    <Container aria-busy="true" className="flex flex-col gap-8 py-8 md:gap-12 md:py-12">
      <span role="status" className="sr-only">
        {commonMessages.loadingEllipsis}
      </span>
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        <div className="flex flex-col gap-4">
          {back}
          <Skeleton shape="card" className="aspect-[4/5] w-full" />
        </div>
        <div className="flex flex-col gap-6 md:pt-14">
          <Skeleton shape="pill" className="h-8 w-32" />
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-16 w-full" />
          <Skeleton shape="card" className="h-32 w-full" />
          <Skeleton shape="pill" className="h-12 w-full" />
        </div>
      </div>
    </Container>
  );
}
