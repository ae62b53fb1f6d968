import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, Plus, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import type { UserModel } from '../../../../common/api/studio.ts';
import { modelsMessages } from '../../../../common/messages/models.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { AlertDialogAction } from '../../../components/ui/alert-dialog.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { sessionQueryKey, useSession } from '../../../lib/session.ts';
import { ModelCard } from '../components/model-card.tsx';
import { canChooseModel } from '../model-status.ts';
import { deleteModel, modelsQueryOptions, selectModel, studioQueryKeys } from '../studio-api.ts';
import { LoadFailed } from '../components/load-failed.tsx';

const text = modelsMessages;

/**
 * /my-models: the user's AI models, newest first, with their status; choose the one generations
 * use (Pro and above), delete one (after confirming: everything made from it goes too), or
 * create another.
 */
export function MyModelsPage() {
  usePageTitle(pageTitleMessages.myModels);
  const queryClient = useQueryClient();
  const { subscription } = useSession();
  const query = useQuery(modelsQueryOptions());
  const canChoose = canChooseModel(subscription?.tier, subscription?.active === true);
  const [toDelete, setToDelete] = useState<UserModel | null>(null);

  const choose = useMutation({
    mutationFn: (model: UserModel) => selectModel(model.id),
    onSuccess: (fresh, model) => {
      queryClient.setQueryData(studioQueryKeys.models, fresh);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      notify.success(text.selectedToast(model.name));
    },
    onError: (error) =>
      notify.error(error instanceof Error && error.message ? error.message : text.selectFailed),
  });

  const removal = useMutation({
    mutationFn: (model: UserModel) => deleteModel(model.id),
    onSuccess: () => {
      notify.success(text.deleted);
      setToDelete(null);
    },
    onError: () => notify.error(text.deleteFailed),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: studioQueryKeys.models });
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });

  const createButton = (
    <ButtonLink to={routes.createModel} icon={Plus}>
      {text.createNew}
    </ButtonLink>
  );

  return (
    <Container className="flex flex-col gap-8 py-8 md:gap-10 md:py-12">
      <PageHeader title={text.title} description={text.subtitle} actions={createButton} />

      {!canChoose && (query.data?.models.length ?? 0) > 0 ? (
        <p className="flex flex-wrap items-center gap-2 rounded-control border border-neutral-200 bg-white px-4 py-3 text-sm text-neutral-700">
          <Lock aria-hidden="true" className="size-4 text-neutral-500" />
          {text.selectUpgradeHint}
          <Link
            to={routes.subscription}
            className="font-semibold text-accent-700 underline underline-offset-2"
          >
            {text.upgrade}
          </Link>
        </p>
      ) : null}

      {query.isPending ? (
        <SkeletonGroup className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} shape="card" className="aspect-[4/6] w-full" />
          ))}
        </SkeletonGroup>
      ) : query.isError ? (
        <LoadFailed message={text.loadFailed} onRetry={() => void query.refetch()} />
      ) : query.data.models.length === 0 ? (
        <EmptyState
          icon={<Sparkles aria-hidden="true" />}
          title={text.empty}
          description={text.emptyHint}
          action={createButton}
        />
      ) : (
        <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {query.data.models.map((model) => (
            <li key={model.id}>
              <ModelCard
                model={model}
                selected={query.data.selectedModelId === model.id}
                canChoose={canChoose}
                choosing={choose.isPending && choose.variables?.id === model.id}
                onChoose={() => choose.mutate(model)}
                onDelete={() => setToDelete(model)}
              />
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !removal.isPending) setToDelete(null);
        }}
        title={toDelete ? text.deleteTitle(toDelete.name) : ''}
        description={text.deleteDescription}
        busy={removal.isPending}
        action={
          <AlertDialogAction
            variant="destructive"
            disabled={removal.isPending}
            onClick={(event) => {
              // Kept open until the server answers, so the outcome is seen.
              event.preventDefault();
              if (toDelete) removal.mutate(toDelete);
            }}
          >
            {removal.isPending ? commonMessages.deleting : text.deleteConfirm}
          </AlertDialogAction>
        }
      />
    </Container>
  );
}
