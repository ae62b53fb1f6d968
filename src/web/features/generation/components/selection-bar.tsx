import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Heart, Trash2 } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { notify } from '../../../components/ui/toast.ts';
import {
  deleteGeneration,
  generationQueryKeys,
  selectionZipUrl,
  setFavourite,
} from '../generation-api.ts';
import { ConfirmDeleteButton } from './confirm-delete-button.tsx';

const text = generationMessages.history.selection;

/**
 * What can be done with the images selected in the Generated tab: download them as one zip,
 * add them to the favourites, or delete them after one confirmation. Each image is its own
 * request (at most a page of 50); the lists refetch once at the end, and the user is told how
 * many could not be changed, if any.
 */
export function SelectionBar({
  ids,
  onDone,
  onDeleted,
}: {
  /** The selected generations, in the list's order. */
  ids: readonly string[];
  onDone: () => void;
  /** After a delete: the selection is gone. */
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const count = ids.length;

  const settle = async (outcomes: PromiseSettledResult<unknown>[]) => {
    await queryClient.invalidateQueries({ queryKey: generationQueryKeys.all });
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
    if (failed > 0) notify.error(text.someFailed(failed));
    return outcomes.length - failed;
  };

  const favourite = useMutation({
    mutationFn: async () =>
      settle(await Promise.allSettled(ids.map((id) => setFavourite(id, true)))),
    onSuccess: (done) => {
      if (done > 0) notify.success(text.favourited(done));
    },
  });

  const removal = useMutation({
    mutationFn: async () => settle(await Promise.allSettled(ids.map(deleteGeneration))),
    onSuccess: (done) => {
      if (done > 0) notify.success(text.deleted(done));
      setConfirming(false);
      onDeleted();
    },
  });

  const busy = favourite.isPending || removal.isPending;

  return (
    <div
      role="toolbar"
      aria-label={text.label}
      data-testid="selection-bar"
      className="sticky top-[4.75rem] z-20 flex flex-wrap items-center gap-2 rounded-card border border-neutral-200 bg-white/95 p-3 shadow-lifted backdrop-blur"
    >
      <p role="status" className="mr-auto text-sm font-medium text-neutral-950">
        {text.count(count)}
      </p>
      {count > 0 ? (
        <Button asChild size="sm" variant="outline">
          <a href={selectionZipUrl(ids)} download>
            <Download aria-hidden="true" className="size-4" />
            {text.download}
          </a>
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="outline"
        disabled={count === 0 || busy}
        loading={favourite.isPending}
        onClick={() => favourite.mutate()}
      >
        <Heart aria-hidden="true" className="size-4" />
        {text.favourite}
      </Button>
      <Button
        size="sm"
        variant="destructive-outline"
        disabled={count === 0 || busy}
        onClick={() => setConfirming(true)}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        {text.delete}
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone} disabled={busy}>
        {text.done}
      </Button>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={text.deleteTitle(count)}
        description={text.deleteText}
        busy={removal.isPending}
        action={
          <ConfirmDeleteButton
            label={text.delete}
            deleting={removal.isPending}
            onDelete={() => removal.mutate()}
          />
        }
      />
    </div>
  );
}
