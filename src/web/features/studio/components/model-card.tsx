import { Check, Sparkles, Trash2 } from 'lucide-react';
import type { UserModel } from '../../../../common/api/studio.ts';
import { modelsMessages, trainingMessages } from '../../../../common/messages/models.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import emptyFrameUrl from '../../../assets/illustrations/empty-frame.svg';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Image } from '../../../components/image.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDate } from '../../../lib/dates.ts';
import { generateWithModelPath, modelStatusView } from '../model-status.ts';

const text = modelsMessages;

/**
 * One of the user's AI models: its picture (a placeholder until trained), name, status badge
 * and what can be done with it. A training model is greyed and cannot be chosen; only a complete
 * one generates or can be chosen for generation (Pro and above).
 */
export function ModelCard({
  model,
  selected,
  canChoose,
  choosing,
  onChoose,
  onDelete,
}: {
  model: UserModel;
  selected: boolean;
  /** The plan allows choosing a model (Pro and above). */
  canChoose: boolean;
  choosing: boolean;
  onChoose: () => void;
  onDelete: () => void;
}) {
  const status = modelStatusView(model.status);
  return (
    <article
      aria-label={model.name}
      data-status={status.kind}
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-card border bg-white shadow-card',
        selected ? 'border-accent-600 ring-2 ring-accent-600/30' : 'border-neutral-200/80',
        status.busy && 'opacity-70 grayscale',
      )}
    >
      <div className="relative">
        {model.featuredImageUrl ? (
          <Image
            src={model.featuredImageUrl}
            alt={text.featuredAlt(model.name)}
            aspectRatio="4 / 5"
            className="w-full"
          />
        ) : (
          <Image
            src={emptyFrameUrl}
            alt={text.placeholderAlt}
            aspectRatio="4 / 5"
            fit="contain"
            className="w-full bg-neutral-100 p-6"
          />
        )}
        <Badge variant={status.variant} size="md" className="absolute top-3 left-3">
          {status.busy ? <Spinner size="sm" /> : null}
          {status.label}
        </Badge>
        {selected ? (
          <Badge variant="solid" size="md" className="absolute top-3 right-3">
            <Check aria-hidden="true" />
            {text.selected}
          </Badge>
        ) : null}
      </div>

      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex flex-col gap-0.5">
          <h2 className="truncate text-base font-semibold text-neutral-950" title={model.name}>
            {model.name}
          </h2>
          <p className="text-xs text-neutral-600">{text.createdOn(formatDate(model.createdAt))}</p>
        </div>
        {status.kind === 'training' && model.progress !== null ? (
          <Progress value={model.progress} label={trainingMessages.bannerProgressLabel} showValue />
        ) : null}
        {status.kind === 'failed' ? (
          <p className="text-sm text-danger-700">
            {model.failureReason ?? commonMessages.unknownError}
          </p>
        ) : null}

        <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
          {status.usable ? (
            <ButtonLink to={generateWithModelPath} icon={Sparkles} size="sm">
              {text.generate}
            </ButtonLink>
          ) : null}
          {status.usable && !selected ? (
            <Button
              size="sm"
              variant="outline"
              disabled={!canChoose}
              loading={choosing}
              onClick={onChoose}
            >
              {text.select}
            </Button>
          ) : null}
          <Button
            size="icon"
            variant="ghost"
            className="ml-auto size-9"
            aria-label={text.deleteLabel(model.name)}
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
    </article>
  );
}
