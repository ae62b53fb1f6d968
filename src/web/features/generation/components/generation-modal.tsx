import { Download, ExternalLink } from 'lucide-react';
import { generationMessages } from '../../../../common/messages/generation.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { paths } from '../../../../common/product/routes.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog.tsx';
import { formatRelativeOrDate } from '../../../lib/dates.ts';
import type { Generation } from '../generation-api.ts';
import { generationTitle, generationView, promptPreview } from '../generation-rules.ts';
import { useDownloadImage } from '../use-download-image.ts';
import { useMarkViewed } from '../use-generation-actions.ts';
import { useReturnFocus } from '../use-return-focus.ts';
import { FavouriteButton } from './favourite-button.tsx';
import { GenerationBadges, GenerationMedia } from './generation-media.tsx';

const text = generationMessages;

/**
 * A generation opened from a list: processing (it finishes in place, the list's live data feeds
 * it), complete (the picture, download, favourite) or failed (the reason, or Unknown error).
 * The prompt is previewed at 50 characters; the full page has everything. Opening it marks the
 * image as seen.
 */
export function GenerationModal({
  generation,
  onClose,
}: {
  /** The generation to show; null closes the modal. */
  generation: Generation | null;
  onClose: () => void;
}) {
  const open = generation !== null;
  useMarkViewed(generation, open);
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      {generation ? <ModalBody generation={generation} /> : null}
    </Dialog>
  );
}

function ModalBody({ generation }: { generation: Generation }) {
  const view = generationView(generation);
  const { download, downloading } = useDownloadImage();
  const preview = promptPreview(generation.promptText);
  const returnFocus = useReturnFocus();

  return (
    <DialogContent
      className="md:max-w-2xl"
      closeLabel={commonMessages.close}
      {...returnFocus}
      title={generationTitle(generation)}
      description={
        view === 'processing'
          ? text.modal.processingTitle
          : `${statusLabel(view)} · ${formatRelativeOrDate(generation.createdAt)}`
      }
    >
      <div className="overflow-hidden rounded-control">
        <GenerationMedia generation={generation} size="large" className="max-h-[55dvh]" />
      </div>

      {view === 'failed' ? <p className="text-sm text-neutral-600">{text.refunded}</p> : null}

      <div className="flex flex-col gap-2">
        <GenerationBadges generation={generation} />
        {preview ? (
          <p className="text-sm text-neutral-700">
            <span className="font-medium text-neutral-950">{text.detail.prompt}: </span>
            <span data-testid="prompt-preview" title={generation.promptText ?? undefined}>
              {preview}
            </span>
          </p>
        ) : null}
        <p className="text-xs text-neutral-600">
          {text.detail.model}: {generation.userModelName}
        </p>
      </div>

      <DialogFooter className="md:justify-between">
        <ButtonLink
          to={paths.generation(generation.id)}
          icon={ExternalLink}
          variant="ghost"
          size="sm"
        >
          {text.modal.openDetail}
        </ButtonLink>
        <div className="flex flex-col-reverse gap-3 md:flex-row">
          <FavouriteButton generation={generation} size="sm" />
          {view === 'complete' ? (
            <Button size="sm" loading={downloading} onClick={() => void download(generation)}>
              <Download aria-hidden="true" className="size-4" />
              {text.detail.download}
            </Button>
          ) : null}
        </div>
      </DialogFooter>
    </DialogContent>
  );
}

function statusLabel(view: ReturnType<typeof generationView>): string {
  if (view === 'failed') return text.status.failed;
  if (view === 'processing') return text.status.processing;
  return text.status.complete;
}
