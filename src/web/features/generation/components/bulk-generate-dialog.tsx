import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Coins, Layers } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { catalogMessages } from '../../../../common/messages/catalog.ts';
import { bulkMessages } from '../../../../common/messages/generation.ts';
import { modelsMessages } from '../../../../common/messages/models.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { paths } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
} from '../../../components/ui/dialog.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { useSession } from '../../../lib/session.ts';
import { modelsQueryOptions } from '../../studio/studio-api.ts';
import { requestFailure, startBulk } from '../generation-api.ts';
import {
  bulkQueuedMessage,
  checkPresetBulk,
  defaultModelId,
  isUsableModel,
} from '../generation-rules.ts';
import { useReturnFocus } from '../use-return-focus.ts';
import { SingleModelPicker } from './model-picker.tsx';
import { NoModelsPrompt } from './no-models-prompt.tsx';

const text = bulkMessages;

/**
 * Bulk Generate from a category: choose the AI model every selected preset is made with, see
 * the cost, and start it as one request (one bulk job, one credit per image). On success the
 * user goes to the job's page and watches it fill in.
 */
export function BulkGenerateDialog({
  open,
  onOpenChange,
  presetIds,
  categoryId,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  presetIds: readonly string[];
  categoryId: string;
  onStarted: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <BulkDialogBody presetIds={presetIds} categoryId={categoryId} onStarted={onStarted} />
      ) : null}
    </Dialog>
  );
}

function BulkDialogBody({
  presetIds,
  categoryId,
  onStarted,
}: {
  presetIds: readonly string[];
  categoryId: string;
  onStarted: () => void;
}) {
  const { subscription } = useSession();
  const models = useQuery(modelsQueryOptions());
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [chosen, setChosen] = useState<string | null>(null);
  const returnFocus = useReturnFocus();

  const list = models.data?.models ?? [];
  const usable = list.filter(isUsableModel);
  const userModelId =
    chosen && usable.some((model) => model.id === chosen)
      ? chosen
      : defaultModelId(list, models.data?.selectedModelId);
  const count = presetIds.length;

  const start = useMutation({
    mutationFn: (request: { userModelId: string; presetIds: string[] }) =>
      startBulk({ kind: 'presets', categoryId, ...request }),
    onSuccess: (created) => {
      notify.success(bulkQueuedMessage(created));
      onStarted();
      void navigate(paths.bulkGeneration(created.bulkJob.id));
    },
    onError: (error) => {
      const failure = requestFailure(error, 'bulk');
      notify.error(failure.message);
      if (failure.redirectTo) void navigate(failure.redirectTo);
    },
  });

  const onSubmit = () => {
    const outcome = checkPresetBulk({ subscription, presetIds, userModelId });
    if (!outcome.ok) {
      notify.error(outcome.message);
      if (outcome.redirectTo) void navigate(outcome.redirectTo);
      return;
    }
    start.mutate({ userModelId: outcome.userModelId, presetIds: outcome.presetIds });
  };

  return (
    <DialogContent
      closeLabel={commonMessages.close}
      {...returnFocus}
      title={text.dialogTitle}
      description={text.dialogText(count)}
    >
      {models.isPending ? (
        <SkeletonGroup className="flex flex-col gap-2">
          <Skeleton className="h-16" />
        </SkeletonGroup>
      ) : models.isError ? (
        <p role="alert" className="text-sm text-danger-700">
          {modelsMessages.loadFailed}
        </p>
      ) : usable.length === 0 ? (
        <NoModelsPrompt
          title={catalogMessages.modelPickerEmptyTitle}
          text={catalogMessages.modelPickerEmptyText}
          linkLabel={modelsMessages.createNew}
          returnTo={pathname}
        />
      ) : (
        <SingleModelPicker
          models={list}
          legend={catalogMessages.chooseYourModel}
          name="bulk-user-model"
          value={userModelId}
          onChange={setChosen}
          disabled={start.isPending}
        />
      )}

      <p className="flex items-center gap-2 text-sm text-neutral-700" data-testid="bulk-cost">
        <Coins aria-hidden="true" className="size-4 shrink-0 text-accent-600" />
        {text.cost(count)}
      </p>

      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">{commonMessages.cancel}</Button>
        </DialogClose>
        <Button
          onClick={onSubmit}
          loading={start.isPending}
          disabled={usable.length === 0 || count === 0}
        >
          <Layers aria-hidden="true" className="size-4" />
          {start.isPending ? text.submitting : text.submit(count)}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
