import type { UserModel } from '../../../common/api/studio.ts';
import { createModelMessages } from '../../../common/messages/studio.ts';
import { costs, type SubscriptionState } from '../../../common/product/credits.ts';
import { routes } from '../../../common/product/routes.ts';
import { modelLimit, type Tier, tierName } from '../../../common/product/tiers.ts';
import { isSafeRedirect } from '../../lib/post-login-redirect.ts';

/** What Continue on /create-model does (spec §4), plus the plan's model limit. */
export type CreateModelDecision =
  /** No active plan: Continue goes to the plans, which come back to `redirect`. */
  | { kind: 'subscribe'; to: string }
  /** The plan's models are used up: no upload for nothing, say so instead. */
  | { kind: 'limitReached'; message: string; canUpgrade: boolean }
  /** No free training left but 50 credits or more: Continue asks first. */
  | { kind: 'confirmCredits'; to: string }
  /** No free training left and under 50 credits: Continue is disabled; Buy Credits instead. */
  | { kind: 'insufficientCredits'; to: string; message: string }
  /** A free training is left: straight on to the example photos. */
  | { kind: 'proceed'; to: string };

export interface CreateModelInput {
  subscription: SubscriptionState | null;
  /**
   * The user's models that count toward the plan's limit; null while unknown (still loading or
   * unreadable: the server enforces the limit anyway).
   */
  modelCount: number | null;
  /** Where the plans page returns to (the page's `redirect` query, already made safe). */
  redirect: string;
}

export function createModelDecision({
  subscription,
  modelCount,
  redirect,
}: CreateModelInput): CreateModelDecision {
  const tier: Tier = subscription?.tier ?? 'none';
  if (!subscription?.active || tier === 'none') {
    return {
      kind: 'subscribe',
      to: `${routes.subscription}?redirect=${encodeURIComponent(redirect)}`,
    };
  }
  const limit = modelLimit(tier);
  if (modelCount !== null && modelCount >= limit) {
    const topTier = tier === 'premium' || tier === 'enterprise';
    return {
      kind: 'limitReached',
      message: topTier
        ? createModelMessages.modelLimitReachedTopTier
        : createModelMessages.modelLimitReached(tierName(tier), limit),
      canUpgrade: !topTier,
    };
  }
  if (subscription.monthlyFreeTrainingsLeft > 0) {
    return { kind: 'proceed', to: routes.examplePhotos };
  }
  if (subscription.credits >= costs.trainingCredits) {
    return { kind: 'confirmCredits', to: routes.examplePhotos };
  }
  return {
    kind: 'insufficientCredits',
    to: routes.buyCredits,
    message: createModelMessages.insufficientCreditsForTraining(subscription.credits),
  };
}

/** The in-dialog action: Continue with enough credits, else Buy Credits (spec §4). */
export function creditsDialogAction(credits: number): { label: string; to: string } {
  return credits >= costs.trainingCredits
    ? { label: createModelMessages.useCreditsConfirm, to: routes.examplePhotos }
    : { label: createModelMessages.buyCredits, to: routes.buyCredits };
}

/** The `redirect` query of /create-model: a path of this site, else the dashboard. */
export function readRedirect(value: string | null): string {
  return value && isSafeRedirect(value) ? value : routes.dashboard;
}

/**
 * Models that use up a slot of the plan: every model except a failed one (a failed training is
 * refunded and leaves nothing to generate with).
 */
export function countModelsTowardLimit(models: readonly Pick<UserModel, 'status'>[]): number {
  return models.filter((model) => model.status !== 'failed').length;
}

/** What the next training will use, for the notes on /create-model and /name-model. */
export type TrainingPayment = 'free-training' | 'credits' | 'insufficient';

export function trainingPayment(subscription: SubscriptionState | null): TrainingPayment {
  if (!subscription) return 'insufficient';
  if (subscription.monthlyFreeTrainingsLeft > 0) return 'free-training';
  return subscription.credits >= costs.trainingCredits ? 'credits' : 'insufficient';
}
