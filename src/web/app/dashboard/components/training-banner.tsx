import type { ReactNode } from 'react';
import { trainingMessages } from '../../../../common/messages/models.ts';
import { Progress } from '../../../components/ui/progress.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

/**
 * Shown while the user's AI model trains. A status region, so the news is announced without
 * taking focus. With the engine's progress it shows a bar; without, the specification's fixed
 * estimate of 10 minutes. `children`: what is shown under the news (the training previews).
 */
export function TrainingBanner({
  show,
  progress,
  children,
}: {
  show: boolean;
  progress?: number | null;
  children?: ReactNode;
}) {
  if (!show) return null;
  const hasProgress = typeof progress === 'number';
  return (
    <div
      data-testid="training-banner"
      className="flex flex-col gap-4 rounded-card border border-accent-200 bg-accent-50 px-5 py-4"
    >
      <div role="status" className="flex items-center gap-4">
        <Spinner size="md" className="text-accent-600" />
        <div className="flex flex-1 flex-col gap-1.5">
          <p className="font-semibold text-neutral-950">{trainingMessages.bannerTitle}</p>
          {hasProgress ? (
            <>
              <p className="text-sm text-neutral-700">
                {trainingMessages.bannerProgress(progress)}
              </p>
              <Progress value={progress} label={trainingMessages.bannerProgressLabel} />
            </>
          ) : (
            <p className="text-sm text-neutral-700">{trainingMessages.bannerEstimate}</p>
          )}
        </div>
      </div>
      {children}
    </div>
  );
}
