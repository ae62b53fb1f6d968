import { messages } from '../../../../common/messages.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';

/**
 * Shown while the user's AI model trains (profile.trainingInProgress). A status region, so the
 * news is announced without taking focus; the estimate is the specification's fixed 10 minutes.
 */
export function TrainingBanner({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div
      role="status"
      className="flex items-center gap-4 rounded-card border border-accent-200 bg-accent-50 px-5 py-4"
    >
      <Spinner size="md" className="text-accent-600" />
      <div className="flex flex-col gap-0.5">
        <p className="font-semibold text-neutral-950">{messages.training.bannerTitle}</p>
        <p className="text-sm text-neutral-700">{messages.training.bannerEstimate}</p>
      </div>
    </div>
  );
}
