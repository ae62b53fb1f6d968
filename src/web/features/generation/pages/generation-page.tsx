import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Trash2 } from 'lucide-react';
import { useNavigate, useParams } from 'react-router';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { BulkJobView } from '../components/bulk-job-view.tsx';
import { BackToGenerated, DetailSkeleton, Problem } from '../components/detail-parts.tsx';
import { FavouriteButton } from '../components/favourite-button.tsx';
import {
  ContentNotice,
  GenerationBadges,
  GenerationMedia,
} from '../components/generation-media.tsx';
import {
  bulkJobQueryOptions,
  deleteGeneration,
  generationQueryKeys,
  generationQueryOptions,
  isNotFound,
  type Generation,
} from '../generation-api.ts';
import {
  generatedTabPath,
  generationTitle,
  generationView,
  isValidRecordId,
} from '../generation-rules.ts';
import { useDownloadImage } from '../use-download-image.ts';
import { useMarkViewed } from '../use-generation-actions.ts';
import { ConfirmDeleteButton } from '../components/confirm-delete-button.tsx';

const text = generationMessages;

/**
 * /generations/{id}: one generated image with download, favourite and delete. The address is
 * also used with a bulk job's id right after a bulk start: an id that is no generation but is
 * one of the user's bulk jobs shows that job. A blocked image shows the Content Notice and no
 * download.
 */
export function GenerationPage() {
  const { id } = useParams();
  const valid = isValidRecordId(id);
  const generation = useQuery({ ...generationQueryOptions(id ?? ''), enabled: valid });
  const lookForBulk = valid && generation.isError && isNotFound(generation.error);
  const bulk = useQuery({ ...bulkJobQueryOptions(id ?? ''), enabled: lookForBulk });
  usePageTitle(
    (generation.data && generationTitle(generation.data)) ??
      bulk.data?.bulkJob.label ??
      pageTitleMessages.generation,
  );

  let body: ReactNode;
  if (!valid) body = <Problem title={text.detail.invalidId} />;
  else if (generation.isPending) body = <DetailSkeleton />;
  else if (generation.isSuccess) body = <GenerationDetail generation={generation.data} />;
  else if (!lookForBulk)
    body = (
      <Problem
        title={text.detail.loadFailed}
        description={generation.error.message}
        onRetry={() => void generation.refetch()}
      />
    );
  else if (bulk.isPending) body = <DetailSkeleton />;
  else if (bulk.isSuccess) body = <BulkJobView detail={bulk.data} />;
  else if (isNotFound(bulk.error)) body = <Problem title={text.detail.notFound} />;
  else
    body = (
      <Problem
        title={text.detail.loadFailed}
        description={bulk.error.message}
        onRetry={() => void bulk.refetch()}
      />
    );

  return (
    <Container className="flex flex-col gap-6 py-8 md:py-12">
      <BackToGenerated />
      {body}
    </Container>
  );
}

function GenerationDetail({ generation }: { generation: Generation }) {
  const view = generationView(generation);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { download, downloading } = useDownloadImage();
  const [confirming, setConfirming] = useState(false);
  useMarkViewed(generation, true);

  const removal = useMutation({
    mutationFn: () => deleteGeneration(generation.id),
    onSuccess: () => {
      notify.success(text.detail.deleted);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: generationQueryKeys.lists });
      if (generation.bulkJobId)
        void queryClient.invalidateQueries({
          queryKey: generationQueryKeys.bulkJob(generation.bulkJobId),
        });
      void navigate(generatedTabPath, { replace: true });
    },
    onError: (error) =>
      notify.error(text.detail.deleteFailed(error.message || commonMessages.unexpectedError)),
  });

  const statusBadge =
    view === 'processing' ? (
      <Badge variant="accent" size="md">
        {text.status.processing}
      </Badge>
    ) : view === 'failed' ? (
      <Badge variant="danger" size="md">
        {text.status.failed}
      </Badge>
    ) : (
      <Badge variant="success" size="md">
        {text.status.complete}
      </Badge>
    );

  return (
    <div className="grid gap-8 md:grid-cols-2 md:gap-12">
      <div className="flex flex-col gap-4">
        {view === 'blocked' ? (
          <ContentNotice />
        ) : (
          <div className="overflow-hidden rounded-card border border-neutral-200/80 bg-white shadow-card">
            <GenerationMedia generation={generation} size="large" />
          </div>
        )}
      </div>

      <div className="flex flex-col gap-6">
        <header className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            {statusBadge}
            <GenerationBadges generation={generation} />
          </div>
          <h1 className="text-3xl font-semibold break-words text-neutral-950 md:text-4xl">
            {generationTitle(generation)}
          </h1>
          {view === 'failed' ? (
            <p className="text-sm text-danger-700" role="status">
              {generation.failureReason || commonMessages.unknownError}
            </p>
          ) : null}
          {view === 'failed' ? <p className="text-sm text-neutral-600">{text.refunded}</p> : null}
        </header>

        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
          <dt className="text-neutral-500">{text.detail.model}</dt>
          <dd className="text-neutral-900">{generation.userModelName}</dd>
          {generation.promptText ? (
            <>
              <dt className="text-neutral-500">{text.detail.prompt}</dt>
              <dd className="break-words whitespace-pre-line text-neutral-900">
                {generation.promptText}
              </dd>
            </>
          ) : (
            <>
              <dt className="text-neutral-500">{text.detail.style}</dt>
              <dd className="text-neutral-900">{generation.modelName}</dd>
            </>
          )}
          <dt className="text-neutral-500">{text.detail.created}</dt>
          <dd className="text-neutral-900">{formatRelativeOrDate(generation.createdAt)}</dd>
        </dl>

        <div className="flex flex-wrap gap-3">
          {view === 'complete' ? (
            <Button loading={downloading} onClick={() => void download(generation)}>
              <Download aria-hidden="true" className="size-4" />
              {text.detail.download}
            </Button>
          ) : null}
          <FavouriteButton generation={generation} />
          <Button variant="destructive-outline" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" className="size-4" />
            {text.detail.delete}
          </Button>
        </div>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={text.detail.deleteConfirmTitle}
        description={text.detail.deleteConfirmText}
        busy={removal.isPending}
        action={
          <ConfirmDeleteButton
            label={text.detail.delete}
            deleting={removal.isPending}
            onDelete={() => removal.mutate()}
          />
        }
      />
    </div>
  );
}
