import type { BadgeVariant } from '../../components/ui/badge.tsx';
import { modelsMessages } from '../../../common/messages/models.ts';
import { dashboardQuery, routes } from '../../../common/product/routes.ts';
import { canUseCustomPrompts, type Tier } from '../../../common/product/tiers.ts';

const statusText = modelsMessages.status;

/** How a model card shows a status (spec §4). Anything the app does not know reads Unknown. */
export interface ModelStatusView {
  kind: 'pending' | 'training' | 'complete' | 'failed' | 'unknown';
  label: string;
  variant: BadgeVariant;
  /** Training: a spinner on the badge and the card greyed out. */
  busy: boolean;
  /** Only a complete model generates or can be chosen for generation. */
  usable: boolean;
}

export function modelStatusView(status: string): ModelStatusView {
  switch (status) {
    case 'pending':
      return {
        kind: 'pending',
        label: statusText.pending,
        variant: 'neutral',
        busy: false,
        usable: false,
      };
    // TRAINING_IN_PROGRESS is the specification's spelling of the same state.
    case 'training':
    case 'TRAINING_IN_PROGRESS':
      return {
        kind: 'training',
        label: statusText.training,
        variant: 'accent',
        busy: true,
        usable: false,
      };
    case 'complete':
      return {
        kind: 'complete',
        label: statusText.complete,
        variant: 'success',
        busy: false,
        usable: true,
      };
    case 'failed':
      return {
        kind: 'failed',
        label: statusText.failed,
        variant: 'danger',
        busy: false,
        usable: false,
      };
    default:
      return {
        kind: 'unknown',
        label: statusText.unknown,
        variant: 'outline',
        busy: false,
        usable: false,
      };
  }
}

/** Choosing the model generations use is a Pro, Premium and Enterprise feature (spec §6). */
export function canChooseModel(tier: Tier | null | undefined, active: boolean): boolean {
  return active && canUseCustomPrompts(tier);
}

/** A complete model's Generate button: the dashboard's presets. */
export const generateWithModelPath = `${routes.dashboard}?main=${dashboardQuery.defaultMain}&sub=${dashboardQuery.defaultSub}`;

/** What the dashboard banner shows: training news from the models list, else the profile flag. */
export function trainingBannerState(
  models:
    | { trainingInProgress: boolean; models: { status: string; progress: number | null }[] }
    | undefined,
  profileTrainingInProgress: boolean,
): { show: boolean; progress: number | null } {
  const show = models ? models.trainingInProgress : profileTrainingInProgress;
  if (!show || !models) return { show, progress: null };
  const training = models.models.find(
    (model) => modelStatusView(model.status).kind === 'training' && model.progress !== null,
  );
  return { show, progress: training?.progress ?? null };
}
