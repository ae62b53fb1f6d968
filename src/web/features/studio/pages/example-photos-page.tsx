import { useQuery } from '@tanstack/react-query';
import { ArrowRight, CircleCheck, CircleX, RefreshCw } from 'lucide-react';
import type { ExamplePhoto, GoodOrBad } from '../../../../common/api/catalog.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { examplePhotosMessages } from '../../../../common/messages/studio.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Image } from '../../../components/image.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { FlowPage } from '../components/flow-page.tsx';
import { examplePhotosQueryOptions } from '../studio-api.ts';

const text = examplePhotosMessages;

/** /example-photos: what good and bad training photos look like, then on to the upload. */
export function ExamplePhotosPage() {
  usePageTitle(pageTitleMessages.examplePhotos);
  const query = useQuery(examplePhotosQueryOptions());
  const photos = query.data?.photos ?? [];

  return (
    <FlowPage
      size="lg"
      title={text.title}
      description={text.subtitle}
      back={{ to: routes.createModel, label: commonMessages.back }}
    >
      {query.isError ? (
        <FormAlert>
          <p>{text.loadFailed}</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
            <RefreshCw aria-hidden="true" className="size-4" />
            {commonMessages.tryAgain}
          </Button>
        </FormAlert>
      ) : null}
      <div className="grid gap-8 md:grid-cols-2">
        <ExampleGroup kind="good" photos={photos} loading={query.isPending} />
        <ExampleGroup kind="bad" photos={photos} loading={query.isPending} />
      </div>
      <ButtonLink
        to={routes.uploadPhotos}
        trailingIcon={ArrowRight}
        size="lg"
        className="self-start"
      >
        {text.continue}
      </ButtonLink>
    </FlowPage>
  );
}

function ExampleGroup({
  kind,
  photos: allPhotos,
  loading,
}: {
  kind: GoodOrBad;
  /** All the example photos: the group shows those of its kind. */
  photos: ExamplePhoto[];
  loading: boolean;
}) {
  const good = kind === 'good';
  const title = good ? text.good : text.bad;
  const tips = good ? text.goodTips : text.badTips;
  const photos = allPhotos.filter((photo) => photo.goodOrBad === kind);
  const Icon = good ? CircleCheck : CircleX;
  const headingId = `examples-${kind}-title`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2
        id={headingId}
        className={cn(
          'flex items-center gap-2 text-xl font-semibold',
          good ? 'text-success-700' : 'text-danger-700',
        )}
      >
        <Icon aria-hidden="true" className="size-5" />
        {title}
      </h2>
      <ul className="flex flex-col gap-2">
        {tips.map((tip) => (
          <li key={tip} className="flex items-start gap-2 text-sm leading-relaxed text-neutral-700">
            <Icon
              aria-hidden="true"
              className={cn(
                'mt-0.5 size-4 shrink-0',
                good ? 'text-success-600' : 'text-danger-600',
              )}
            />
            {tip}
          </li>
        ))}
      </ul>
      {loading ? (
        <div aria-hidden="true" className="grid grid-cols-2 gap-3">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} shape="card" className="aspect-[4/5] w-full" />
          ))}
        </div>
      ) : photos.length > 0 ? (
        <ul className="grid grid-cols-2 gap-3">
          {photos.map((photo) => (
            <li key={photo.id}>
              <Card className="flex h-full flex-col overflow-hidden">
                <div className="relative">
                  <Image
                    src={photo.image.src}
                    srcSet={photo.image.srcset}
                    sizes="(min-width: 768px) 25vw, 50vw"
                    alt={photo.image.alt || photo.caption}
                    width={photo.image.width}
                    height={photo.image.height}
                    aspectRatio="4 / 5"
                    className="w-full"
                  />
                  <Badge variant={good ? 'success' : 'danger'} className="absolute top-2 left-2">
                    <Icon aria-hidden="true" />
                    {good ? text.goodBadge : text.badBadge}
                  </Badge>
                </div>
                <p className="p-3 text-xs leading-relaxed text-neutral-700">{photo.caption}</p>
              </Card>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
