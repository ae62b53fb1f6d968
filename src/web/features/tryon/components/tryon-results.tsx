import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Download, Shirt, Sparkles } from 'lucide-react';
import type { TryOn } from '../../../../common/api/tryon.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { tryonMessages } from '../../../../common/messages/tryon.ts';
import { Image } from '../../../components/image.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { downloadImage, tryOnsQueryOptions } from '../tryon-api.ts';
import { hasProcessing, resultDate, statusBadge } from '../tryon-rules.ts';
import { loadMore } from '../../../lib/load-more.ts';

const text = tryonMessages;
/** A missed event must not leave a result spinning forever: a slow poll while one is running. */
const processingPollMs = 15_000;

/** The user's try-ons, newest first, each with its status, pictures, date and download. */
export function TryOnResults() {
  const query = useInfiniteQuery({
    ...tryOnsQueryOptions(),
    refetchInterval: (current) =>
      hasProcessing(current.state.data?.pages.flatMap((page) => page.tryOns))
        ? processingPollMs
        : false,
  });
  const tryOns = query.data?.pages.flatMap((page) => page.tryOns) ?? [];
  // One clock for the whole list, so neighbouring dates agree.
  const now = new Date();

  return (
    <section aria-labelledby="tryon-results-title" className="flex flex-col gap-5">
      <h3 id="tryon-results-title" className="text-xl font-semibold text-neutral-950">
        {text.resultsTitle}
      </h3>
      {query.isPending ? (
        <ul aria-busy="true" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((key) => (
            <li key={key}>
              <Skeleton shape="card" className="aspect-[4/5] w-full" />
            </li>
          ))}
        </ul>
      ) : query.isError ? (
        <FormAlert>
          <p>{text.resultsLoadFailed}</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
            {commonMessages.tryAgain}
          </Button>
        </FormAlert>
      ) : tryOns.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-card border border-dashed border-neutral-300 bg-white px-6 py-10 text-center md:py-12">
          <span className="flex size-12 items-center justify-center rounded-full bg-accent-50 text-accent-700">
            <Shirt aria-hidden="true" className="size-5" />
          </span>
          <p className="font-semibold text-neutral-950">{text.resultsEmpty}</p>
          <p className="max-w-md text-sm text-neutral-600">{text.resultsEmptyHint}</p>
        </div>
      ) : (
        <>
          <ul aria-label={text.resultsTitle} className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {tryOns.map((tryOn) => (
              <li key={tryOn.id}>
                <TryOnCard tryOn={tryOn} now={now} />
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <Button
              variant="outline"
              className="self-center"
              loading={query.isFetchingNextPage}
              onClick={() => void loadMore(query)}
            >
              {text.loadMore}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

function TryOnCard({ tryOn, now }: { tryOn: TryOn; now: Date }) {
  const [downloading, setDownloading] = useState(false);
  const badge = statusBadge(tryOn.status);
  const date = resultDate(tryOn, now);
  const dateId = `tryon-${tryOn.id}-date`;

  async function download() {
    if (!tryOn.downloadUrl) return;
    setDownloading(true);
    try {
      await downloadImage(tryOn.downloadUrl, `try-on-${tryOn.id.slice(0, 8)}.jpg`);
      notify.success(text.downloaded);
    } catch (error) {
      console.warn('Try-on download failed', error);
      notify.error(text.downloadFailed);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <article
      aria-label={text.resultAlt(date)}
      data-status={tryOn.status}
      className="flex h-full flex-col overflow-hidden rounded-card border border-neutral-200/80 bg-white shadow-card"
    >
      <div className="relative bg-neutral-100">
        {tryOn.status === 'completed' ? (
          <Image
            src={tryOn.resultImageUrl}
            alt={text.resultAlt(date)}
            aspectRatio="4 / 5"
            fit="contain"
            className="w-full"
          />
        ) : (
          <div className="relative flex aspect-[4/5] w-full items-center justify-center overflow-hidden">
            {tryOn.personImageUrl ? (
              <Image
                src={tryOn.personImageUrl}
                alt=""
                aspectRatio="4 / 5"
                className={
                  tryOn.status === 'failed' || tryOn.status === 'blocked'
                    ? 'absolute inset-0 h-full w-full opacity-40 grayscale'
                    : 'absolute inset-0 h-full w-full scale-105 opacity-70 blur-sm'
                }
              />
            ) : null}
            {tryOn.status === 'processing' ? (
              <div className="relative mx-6 flex flex-col items-center gap-3 rounded-card bg-white/90 px-5 py-4 text-center shadow-card backdrop-blur">
                <Spinner />
                <p className="text-sm text-neutral-700">{text.processingText}</p>
              </div>
            ) : null}
          </div>
        )}
        <div className="absolute top-3 left-3 flex flex-wrap gap-2">
          <Badge variant={badge.variant} className="bg-white/95">
            {badge.label}
          </Badge>
          {tryOn.isPreview && tryOn.status === 'completed' ? (
            <Badge variant="outline" className="bg-white/95" title={text.previewHint}>
              <Sparkles aria-hidden="true" />
              {text.preview}
            </Badge>
          ) : null}
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-4 p-4">
        <div className="flex items-center gap-3">
          <Thumb src={tryOn.personImageUrl} alt={text.personAlt} />
          <span aria-hidden="true" className="text-neutral-400">
            +
          </span>
          <Thumb src={tryOn.garmentImageUrl} alt={text.garmentAlt} />
          <p id={dateId} className="ml-auto text-right text-xs text-neutral-600">
            <time dateTime={tryOn.createdAt}>{date}</time>
          </p>
        </div>

        {tryOn.status === 'failed' || tryOn.status === 'blocked' ? (
          <div className="rounded-control bg-danger-50 px-3 py-2 text-sm text-danger-700">
            <p className="font-medium">{tryOn.failureReason ?? commonMessages.unknownError}</p>
            <p className="mt-1 text-xs">
              {tryOn.status === 'blocked' ? text.blocked : text.failed}
            </p>
          </div>
        ) : null}
        {tryOn.isPreview && tryOn.status === 'completed' ? (
          <p className="text-xs text-neutral-500">{text.previewHint}</p>
        ) : null}

        {tryOn.status === 'completed' && tryOn.downloadUrl ? (
          <Button
            variant="outline"
            className="mt-auto w-full"
            loading={downloading}
            onClick={() => void download()}
            aria-describedby={dateId}
          >
            {downloading ? null : <Download aria-hidden="true" className="size-4" />}
            {commonMessages.download}
          </Button>
        ) : null}
      </div>
    </article>
  );
}

function Thumb({ src, alt }: { src: string | null; alt: string }) {
  return (
    <Image
      src={src}
      alt={alt}
      width={44}
      height={55}
      className="h-[55px] w-11 shrink-0 rounded-md bg-neutral-100"
    />
  );
}
