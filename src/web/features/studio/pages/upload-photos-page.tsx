import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, ImagePlus, Upload, X } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router';
import type { PhotoCounts as Counts } from '../../../../common/api/studio.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { uploadMessages, validationMessages } from '../../../../common/messages/studio.ts';
import { photos } from '../../../../common/product/photos.ts';
import { routes } from '../../../../common/product/routes.ts';
import { timings } from '../../../../common/product/timings.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { StickyActionBar } from '../../../components/ui/sticky-action-bar.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { sessionQueryKey } from '../../../lib/session.ts';
import { FlowPage } from '../components/flow-page.tsx';
import { PhotoCard } from '../components/photo-card.tsx';
import { PhotoCounts } from '../components/photo-counts.tsx';
import { UploadErrorsDialog } from '../components/upload-errors-dialog.tsx';
import {
  hasPendingPhotos,
  photoContinueRule,
  photoPlacesTaken,
  selectFiles,
  shouldSkipToGender,
} from '../photo-rules.ts';
import { deletePhoto, photosQueryOptions, studioQueryKeys, uploadPhoto } from '../studio-api.ts';
import { LoadFailed } from '../components/load-failed.tsx';

const text = uploadMessages;
const inputId = 'photo-input';
const acceptTypes = photos.acceptedMimeTypes.join(',');
/** Two at a time: each file still shows its own progress, and the server validates as they land. */
const parallelUploads = 2;

interface QueuedFile {
  key: number;
  file: File;
  previewUrl: string;
  state: 'waiting' | 'uploading' | 'failed';
  /** 0..1 while uploading. */
  progress: number;
  error: string | null;
}

const emptyCounts: Counts = { total: 0, passed: 0, failed: 0, pending: 0 };

/**
 * /upload-photos: choose up to 12 photos (file picker or drag and drop), upload them one request
 * each with a progress bar per file, watch each one's validation live, remove the ones that
 * failed, and Continue once 8 to 12 passed and none failed. Opening it when the draft's
 * validation is complete goes on to /select-gender (spec §4), except with `?edit=1`, the later
 * screens' way back here.
 */
export function UploadPhotosPage() {
  usePageTitle(pageTitleMessages.uploadPhotos);
  const [searchParams] = useSearchParams();
  const editing = searchParams.get('edit') === '1';
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // The event stream reports each validation; polling every 2 s while one is pending is the
  // specification's fallback should an event be missed.
  const photosQuery = useQuery({
    ...photosQueryOptions(),
    refetchInterval: (query) =>
      hasPendingPhotos(query.state.data?.counts) ? timings.validationPoll.uploadMs : false,
  });
  const data = photosQuery.data;
  const counts = data?.counts ?? emptyCounts;

  // Only on arrival: once the user is here, a validation completing must not take them away.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current || !data) return;
    arrived.current = true;
    if (shouldSkipToGender(data.trainingStatus, data.counts, editing)) {
      void navigate(routes.selectGender, { replace: true });
    }
  }, [data, editing, navigate]);

  // Failed photos take none of the 12 places: the photos replacing them can always be added.
  const places = photoPlacesTaken(counts);
  const uploads = useUploadQueue(places);
  const [removingId, setRemovingId] = useState<string | null>(null);
  const removal = useMutation({
    mutationFn: deletePhoto,
    onMutate: (photoId) => setRemovingId(photoId),
    onError: () => notify.error(text.failedToDelete),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: studioQueryKeys.photos });
      setRemovingId(null);
    },
  });

  const rule = photoContinueRule(counts);
  const full = places + uploads.queue.length >= photos.max;

  return (
    <FlowPage
      size="lg"
      title={text.title}
      description={text.subtitle}
      back={{ to: routes.examplePhotos, label: text.backToGuidelines }}
    >
      <section aria-labelledby="choose-title" className="flex flex-col gap-4">
        <h2 id="choose-title" className="sr-only">
          {text.choose}
        </h2>
        <DropZone
          disabled={full || uploads.uploading}
          selectedCount={places + uploads.queue.length}
          onFiles={uploads.add}
        />
        {uploads.notice ? <FormAlert>{uploads.notice}</FormAlert> : null}

        {uploads.queue.length > 0 ? (
          <Card className="flex flex-col gap-4 p-5 md:p-6">
            <h3 className="text-base font-semibold text-neutral-950">{text.selectedTitle}</h3>
            <ul className="flex flex-col gap-3">
              {uploads.queue.map((item) => (
                <QueuedFileRow
                  key={item.key}
                  item={item}
                  disabled={uploads.uploading}
                  onRemove={() => uploads.remove(item.key)}
                />
              ))}
            </ul>
          </Card>
        ) : null}

        {/* On a phone, while files wait in the list above, Upload is the next step: it spans the
            screen and stays at the bottom of it below a long list. */}
        <StickyActionBar
          data-testid="photo-upload-bar"
          sticky={uploads.queue.length > 0}
          className="flex flex-wrap items-center gap-x-4 gap-y-2"
        >
          <Button
            onClick={() => void uploads.start()}
            loading={uploads.uploading}
            className={cn(uploads.queue.length > 0 && 'max-md:w-full')}
          >
            {uploads.uploading ? null : <Upload aria-hidden="true" className="size-4" />}
            {uploads.uploading ? text.uploading : text.upload}
          </Button>
          <p role="status" aria-live="polite" className="text-sm text-neutral-600">
            {uploads.progressText}
          </p>
        </StickyActionBar>

        {uploads.errors.length > 0 && !uploads.uploading ? (
          <FormAlert>
            <span>{text.someFailed(uploads.errors.length)}</span>{' '}
            <button
              type="button"
              onClick={() => uploads.setErrorsOpen(true)}
              className="cursor-pointer font-semibold underline underline-offset-2"
            >
              {text.showErrors}
            </button>
          </FormAlert>
        ) : null}
        <UploadErrorsDialog
          errors={uploads.errors}
          open={uploads.errorsOpen}
          onOpenChange={uploads.setErrorsOpen}
        />
      </section>

      <section aria-labelledby="photos-title" className="flex flex-col gap-5">
        <h2 id="photos-title" className="text-xl font-semibold text-neutral-950">
          {text.uploadedTitle}
        </h2>
        {photosQuery.isPending ? (
          <PhotosSkeleton />
        ) : photosQuery.isError && !data ? (
          <LoadFailed
            message={validationMessages.loadFailed}
            onRetry={() => void photosQuery.refetch()}
            headingLevel="h3"
          />
        ) : (
          <>
            <PhotoCounts counts={counts} />
            {data && data.photos.length > 0 ? (
              <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
                {data.photos.map((photo, index) => (
                  <li key={photo.id}>
                    <PhotoCard
                      photo={photo}
                      position={index + 1}
                      removing={removingId === photo.id}
                      onRemove={() => removal.mutate(photo.id)}
                    />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-neutral-600">{text.noPhotosYet}</p>
            )}
          </>
        )}
      </section>

      {!data ? null : rule.canContinue ? (
        // On a phone Continue stays at the bottom of the screen below the photos, unless files
        // chosen but not uploaded yet hold that place with Upload (never two bars at once).
        <StickyActionBar
          data-testid="photo-continue-bar"
          sticky={uploads.queue.length === 0}
          className="flex flex-col md:flex-row md:justify-end"
        >
          <ButtonLink to={routes.validationResults} trailingIcon={ArrowRight} size="lg">
            {text.continue}
          </ButtonLink>
        </StickyActionBar>
      ) : (
        <Card className="p-5 md:p-6">
          <p data-testid="photo-rule" className="text-sm leading-relaxed text-neutral-700">
            {rule.message}
          </p>
        </Card>
      )}
    </FlowPage>
  );
}

/**
 * The files waiting to upload and the upload itself: image files only, no more than the draft
 * has room for, two requests at a time, a progress figure per file, and the list of what failed.
 */
function useUploadQueue(uploadedCount: number) {
  const queryClient = useQueryClient();
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [errorsOpen, setErrorsOpen] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [tally, setTally] = useState<{ done: number; total: number } | null>(null);
  const nextKey = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const queueRef = useRef(queue);

  useEffect(() => {
    queueRef.current = queue;
  }, [queue]);

  // Leaving the page cancels what is still uploading and frees the previews.
  useEffect(
    () => () => {
      controller.current?.abort();
      for (const item of queueRef.current) URL.revokeObjectURL(item.previewUrl);
    },
    [],
  );

  const patch = (key: number, change: Partial<QueuedFile>) =>
    setQueue((current) =>
      current.map((item) => (item.key === key ? { ...item, ...change } : item)),
    );

  const remove = (key: number) =>
    setQueue((current) => {
      const item = current.find((entry) => entry.key === key);
      if (item) URL.revokeObjectURL(item.previewUrl);
      return current.filter((entry) => entry.key !== key);
    });

  const add = (files: File[]) => {
    const selection = selectFiles(files, { uploaded: uploadedCount, selected: queue.length });
    const notes: string[] = [];
    if (selection.notImages > 0) notes.push(text.onlyImages);
    if (selection.overCap > 0) {
      notes.push(text.tooMany);
      if (selection.room > 0) notes.push(text.restLeftOut(selection.room));
    }
    setNotice(notes.length ? notes.join(' ') : null);
    if (selection.accepted.length === 0) return;
    setQueue((current) => [
      ...current,
      ...selection.accepted.map((file) => ({
        key: (nextKey.current += 1),
        file,
        previewUrl: URL.createObjectURL(file),
        state: 'waiting' as const,
        progress: 0,
        error: null,
      })),
    ]);
  };

  const start = async () => {
    if (uploading) return;
    const items = queue;
    if (items.length === 0) {
      setNotice(text.selectPhotos);
      return;
    }
    setNotice(null);
    setErrors([]);
    const run = new AbortController();
    controller.current = run;
    setUploading(true);
    setTally({ done: 0, total: items.length });
    const failures: string[] = [];
    let signedOut = false;
    let next = 0;

    const worker = async () => {
      while (next < items.length && !signedOut && !run.signal.aborted) {
        const item = items[next]!;
        next += 1;
        patch(item.key, { state: 'uploading', progress: 0, error: null });
        try {
          await uploadPhoto(item.file, {
            signal: run.signal,
            onProgress: (progress) => patch(item.key, { progress }),
          });
          remove(item.key);
          void queryClient.invalidateQueries({ queryKey: studioQueryKeys.photos });
        } catch (error) {
          if (run.signal.aborted) return;
          if (isApiError(error) && error.status === 401) signedOut = true;
          const reason = error instanceof Error ? error.message : commonMessages.unknownError;
          patch(item.key, { state: 'failed', progress: 0, error: reason });
          // A server error means the photo arrived but could not be kept (stored or recorded).
          const arrived = isApiError(error) && error.status >= 500;
          failures.push(
            arrived
              ? text.failedToRecord(item.file.name, reason)
              : text.failedToUpload(item.file.name, reason),
          );
        }
        setTally((current) => current && { ...current, done: current.done + 1 });
      }
    };

    await Promise.all(Array.from({ length: parallelUploads }, worker));
    if (run.signal.aborted) return;
    setUploading(false);
    void queryClient.invalidateQueries({ queryKey: studioQueryKeys.photos });

    if (signedOut) {
      // The session ended: say so; the route guard then sends the user to sign in.
      notify.error(text.mustBeLoggedIn);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      return;
    }
    setErrors(failures);
    if (failures.length > 0) {
      notify.error(text.someFailed(failures.length), {
        action: { label: text.showErrors, onClick: () => setErrorsOpen(true) },
      });
    }
  };

  const progressText = !tally
    ? ''
    : uploading
      ? text.uploadingProgress(Math.min(tally.done + 1, tally.total), tally.total)
      : text.uploadsDone;

  return {
    queue,
    notice,
    errors,
    errorsOpen,
    setErrorsOpen,
    uploading,
    progressText,
    add,
    remove,
    start,
  };
}

function DropZone({
  disabled,
  selectedCount,
  onFiles,
}: {
  disabled: boolean;
  selectedCount: number;
  onFiles: (files: File[]) => void;
}) {
  const [dragging, setDragging] = useState(false);

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    if (disabled) return;
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <div
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className="relative"
    >
      <input
        id={inputId}
        type="file"
        multiple
        accept={acceptTypes}
        disabled={disabled}
        aria-describedby={`${inputId}-hint`}
        className="peer sr-only"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          // The same file can be chosen again after being removed from the selection.
          event.target.value = '';
        }}
      />
      <label
        htmlFor={inputId}
        className={cn(
          'flex cursor-pointer flex-col items-center gap-3 rounded-card border-2 border-dashed border-neutral-300 bg-white px-6 py-10 text-center transition-colors',
          'hover:border-accent-600/60 hover:bg-accent-50/40',
          'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent-600',
          'peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
          dragging && 'border-accent-600 bg-accent-50',
        )}
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-50 text-accent-700">
          <ImagePlus aria-hidden="true" className="size-6" />
        </span>
        <span className="text-base font-semibold text-neutral-950">{text.choose}</span>
        <span className="text-sm text-neutral-600">{text.dropHint}</span>
      </label>
      <p
        id={`${inputId}-hint`}
        className="mt-2 flex flex-wrap justify-between gap-2 text-xs text-neutral-600"
      >
        <span>{text.typeHint}</span>
        <span className="tabular-nums">{text.selectedCount(selectedCount)}</span>
      </p>
    </div>
  );
}

function QueuedFileRow({
  item,
  disabled,
  onRemove,
}: {
  item: QueuedFile;
  disabled: boolean;
  onRemove: () => void;
}) {
  return (
    <li
      data-state={item.state}
      className="flex items-center gap-3 rounded-control border border-neutral-200 p-2 pr-3"
    >
      <img
        src={item.previewUrl}
        alt=""
        width={48}
        height={48}
        className="size-12 shrink-0 rounded-md object-cover"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <p className="truncate text-sm font-medium text-neutral-900" title={item.file.name}>
          {item.file.name}
        </p>
        {item.state === 'uploading' ? (
          <Progress
            value={Math.round(item.progress * 100)}
            label={text.uploadProgressLabel(item.file.name)}
          />
        ) : item.state === 'failed' ? (
          <p className="text-xs text-danger-700">{item.error}</p>
        ) : (
          <p className="text-xs text-neutral-500">{text.waiting}</p>
        )}
      </div>
      <Button
        variant="ghost"
        size="icon"
        disabled={disabled}
        aria-label={text.removeSelected(item.file.name)}
        onClick={onRemove}
      >
        <X aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

function PhotosSkeleton() {
  return (
    <SkeletonGroup className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {Array.from({ length: 4 }, (_, index) => (
        <Skeleton key={index} shape="card" className="aspect-square w-full" />
      ))}
    </SkeletonGroup>
  );
}
