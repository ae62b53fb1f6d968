import type { UserModel } from '../../../common/api/studio.ts';
import { dashboardMessages } from '../../../common/messages/dashboard.ts';
import type { SubscriptionState } from '../../../common/product/credits.ts';
import { dashboardQuery, routes } from '../../../common/product/routes.ts';
import { modelLimit, tierName } from '../../../common/product/tiers.ts';
import { countModelsTowardLimit } from '../../features/studio/create-model-rules.ts';

/** The dashboard's presets tab, where "Generate photos" leads. */
export const presetsTabPath = `${routes.dashboard}?main=${dashboardQuery.defaultMain}&sub=presets`;

export interface NextStepLink {
  label: string;
  to: string;
}

/** Where the user stands, and the plan card's main action and its companions for it. */
export type NextStep =
  | { kind: 'loading' }
  | {
      kind: 'noPlan' | 'noModel' | 'training' | 'hasModel' | 'atLimit';
      primary: NextStepLink;
      secondary: NextStepLink[];
      /** A line under the actions: why there is no "create" (the plan's limit), or what is on. */
      note?: { text: string; link?: NextStepLink };
    };

/**
 * The dashboard's main action, in this order: no active plan → choose one; models unknown →
 * loading; no model → create one; a model training → see it; a trained model → generate, with
 * "create another" only while the plan has room. A plan at its model limit never offers to create
 * a model the server would refuse (the limit counts every model but failed ones, as the server
 * does).
 */
export function dashboardNextStep({
  subscription,
  models,
}: {
  subscription: SubscriptionState | null;
  /** Null while the list loads. */
  models: readonly Pick<UserModel, 'status'>[] | null;
}): NextStep {
  const text = dashboardMessages;
  const buyCredits = { label: text.buyMoreCredits, to: routes.buyCredits };
  const createModel = { label: text.createModel.title, to: routes.createModel };
  const active = subscription?.active === true && subscription.tier !== 'none';
  if (!subscription || !active) {
    return {
      kind: 'noPlan',
      primary: { label: text.choosePlan, to: routes.subscription },
      secondary: [createModel, buyCredits],
    };
  }
  if (models === null) return { kind: 'loading' };
  const generate = { label: text.nextStep.generatePhotos, to: presetsTabPath };
  const counted = countModelsTowardLimit(models);
  if (counted === 0) return { kind: 'noModel', primary: createModel, secondary: [buyCredits] };
  const hasComplete = models.some((model) => model.status === 'complete');
  const limit = modelLimit(subscription.tier);
  const atLimit = counted >= limit;
  if (!hasComplete) {
    return {
      kind: 'training',
      primary: { label: text.nextStep.seeTraining, to: routes.myModels },
      secondary: [{ label: text.browsePresets, to: presetsTabPath }, buyCredits],
      note: { text: text.nextStep.trainingHint },
    };
  }
  if (!atLimit) {
    return {
      kind: 'hasModel',
      primary: generate,
      secondary: [{ label: text.nextStep.createAnother, to: routes.createModel }, buyCredits],
    };
  }
  const topTier = subscription.tier === 'premium' || subscription.tier === 'enterprise';
  return {
    kind: 'atLimit',
    primary: generate,
    secondary: [buyCredits],
    note: {
      text: text.nextStep.atLimit(tierName(subscription.tier), limit),
      ...(topTier ? {} : { link: { label: text.nextStep.upgrade, to: routes.subscription } }),
    },
  };
}
