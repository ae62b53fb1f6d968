import { billingMessages } from '../../../common/messages/billing.ts';
import { bulkMessages, generationMessages } from '../../../common/messages/generation.ts';
import { modelsMessages } from '../../../common/messages/models.ts';
import { createModelMessages } from '../../../common/messages/studio.ts';
import { tryonMessages } from '../../../common/messages/tryon.ts';
import { type SubscriptionState, costs } from '../../../common/product/credits.ts';
import {
  TIERS,
  type Tier,
  canUseBulk,
  canUseCustomPrompts,
  canUseTryOn,
  modelLimit,
  tierGates,
  tierName,
  toTier,
} from '../../../common/product/tiers.ts';
import { AppError } from '../../http/app-error.ts';

/**
 * Every feature gate of the plans, in one place. Each takes the user's subscription as read in
 * the caller's transaction and throws an AppError with the specification's message:
 * SUBSCRIPTION_REQUIRED (402), TIER_REQUIRED (403), INSUFFICIENT_CREDITS (402),
 * LIMIT_REACHED (409). The spend itself (ledger.ts) re-checks credits atomically; these gates
 * give the clear message first.
 */

export interface GateSubject {
  active: boolean;
  tier: string;
  credits: number;
  monthlyFreeTrainingsLeft: number;
}

function tierOf(subject: GateSubject): Tier {
  return toTier(subject.tier);
}

export function hasActiveSubscription(subject: GateSubject): boolean {
  return subject.active && tierOf(subject) !== 'none';
}

export function requireActiveSubscription(
  subject: GateSubject,
  message: string = billingMessages.subscriptionRequired,
): void {
  if (!hasActiveSubscription(subject)) throw new AppError('SUBSCRIPTION_REQUIRED', message);
}

/** The features of Pro, Premium and Enterprise, each with the specification's refusal. */
const proFeatures = {
  customPrompt: { allowed: canUseCustomPrompts, message: generationMessages.customPromptsProOnly },
  bulk: { allowed: canUseBulk, message: bulkMessages.proOnly },
  tryOn: { allowed: canUseTryOn, message: tryonMessages.proOnly },
} as const;

export type ProFeature = keyof typeof proFeatures;

/** The tier alone allows the feature (TIER_REQUIRED otherwise); says nothing of being active. */
export function requireTierFor(feature: ProFeature, tier: string): void {
  const { allowed, message } = proFeatures[feature];
  if (!allowed(toTier(tier))) throw new AppError('TIER_REQUIRED', message);
}

/** Custom prompts: Pro, Premium, Enterprise. */
export function requireCustomPrompts(subject: GateSubject): void {
  requireActiveSubscription(subject);
  requireTierFor('customPrompt', subject.tier);
}

/** Bulk generation: Pro, Premium, Enterprise. */
export function requireBulk(subject: GateSubject): void {
  requireActiveSubscription(subject);
  requireTierFor('bulk', subject.tier);
}

/** Virtual try-on in the studio: Pro, Premium, Enterprise. */
export function requireTryOn(subject: GateSubject): void {
  requireActiveSubscription(subject);
  requireTierFor('tryOn', subject.tier);
}

/** One more AI model fits the plan (Basic 1, Pro 5, Premium and Enterprise 20). */
export function requireModelSlot(subject: GateSubject, existingModels: number): void {
  requireActiveSubscription(subject, createModelMessages.subscriptionRequired);
  const tier = tierOf(subject);
  const limit = modelLimit(tier);
  if (existingModels < limit) return;
  const isTopTier = limit >= tierGates.premium.modelLimit;
  throw new AppError(
    'LIMIT_REACHED',
    isTopTier
      ? createModelMessages.modelLimitReachedTopTier
      : createModelMessages.modelLimitReached(tierName(tier), limit),
  );
}

/** At least `amount` credits (generation, try-on: 1 each; bulk: one per image). */
export function requireCredits(subject: GateSubject, amount: number, reason = 'generation'): void {
  if (subject.credits < amount)
    throw new AppError('INSUFFICIENT_CREDITS', insufficientCreditsMessage(reason, subject.credits));
}

/**
 * A training can be paid: a monthly free training is left, or the training's 50 credits.
 * Checks the subscription first (the specification's "Subscription Required" message).
 */
export function requireTrainingAllowance(subject: GateSubject): void {
  requireActiveSubscription(subject, createModelMessages.subscriptionRequired);
  if (subject.monthlyFreeTrainingsLeft > 0) return;
  requireCredits(subject, costs.trainingCredits, 'training');
}

/**
 * The gates other features name (through `credits.ts`) for what they do, in the order and with
 * the messages of the specification's screens:
 * - `generation`: an image of a preset; an active subscription.
 * - `customPrompt`, `bulk`, `tryOn`: the Pro tier first, then an active subscription.
 * - `training`: a free place for one more model, then a free training or its 50 credits.
 * - `chooseModel`: choosing the default model, Pro and above with an active subscription.
 * The credits themselves are checked by the spend (`ledger.ts`), atomically.
 */
export type Gate = 'generation' | ProFeature | 'training' | 'chooseModel';

/** Throws the gate's AppError when `subject` may not pass; `models`: the user's models now. */
export function requireGate(gate: Gate, subject: GateSubject, models = 0): void {
  switch (gate) {
    case 'training':
      requireModelSlot(subject, models);
      requireTrainingAllowance(subject);
      return;
    case 'chooseModel':
      if (!subject.active || !canUseCustomPrompts(tierOf(subject)))
        throw new AppError('TIER_REQUIRED', modelsMessages.selectProOnly);
      return;
    case 'generation':
      break;
    default:
      requireTierFor(gate, subject.tier);
  }
  requireActiveSubscription(subject, generationMessages.needSubscription);
}

/**
 * The tiers that pass a gate with an active and with an inactive subscription, derived from
 * `requireGate` itself: what a statement deciding a charge in SQL (decision 051) compares the
 * row's tier with (`toTier`'s reading of it: trimmed, any casing), so SQL and these rules agree.
 */
export function tiersPassing(gate: Exclude<Gate, 'training'>): {
  active: Tier[];
  inactive: Tier[];
} {
  const passes = (active: boolean, tier: Tier) => {
    try {
      requireGate(gate, {
        active,
        tier,
        credits: Number.MAX_SAFE_INTEGER,
        monthlyFreeTrainingsLeft: 0,
      });
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  };
  return {
    active: TIERS.filter((tier) => passes(true, tier)),
    inactive: TIERS.filter((tier) => passes(false, tier)),
  };
}

/** The message for a spend that the balance cannot cover. */
export function insufficientCreditsMessage(reason: string, balance: number): string {
  if (reason === 'training') return createModelMessages.insufficientCreditsForTraining(balance);
  return generationMessages.needMoreCredits;
}

export type { SubscriptionState };
