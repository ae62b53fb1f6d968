import { routes } from '../../../common/product/routes.ts';
import type { SessionState } from '../../lib/session.ts';

/** The preset page's Generate button, in the specification's order of checks. */
export type PresetGenerateState =
  | { kind: 'loading' }
  /** `returnTo`: the page to come back to after signing in. */
  | { kind: 'login'; to: string; returnTo: string }
  | { kind: 'createModelFirst'; to: string }
  | { kind: 'getSubscription'; to: string }
  | { kind: 'buyCredits'; to: string }
  | { kind: 'generate' };

export interface PresetGenerateInput {
  sessionStatus: SessionState['status'];
  subscription: SessionState['subscription'];
  /** Whether the user has at least one complete (trained) AI model. */
  hasCompleteModel: boolean;
  /** Where the user is now, to come back after sign-in or checkout. */
  returnTo: string;
}

/**
 * Loading while the session loads, then: signed out → Login to Generate; no complete user model →
 * Create an AI Model First; no active plan → Get Subscription to Generate; no credit → Buy More
 * Credits; else Generate Now. Kept pure so the order is testable without a page.
 */
export function presetGenerateState({
  sessionStatus,
  subscription,
  hasCompleteModel,
  returnTo,
}: PresetGenerateInput): PresetGenerateState {
  if (sessionStatus === 'loading') return { kind: 'loading' };
  if (sessionStatus !== 'signed-in') return { kind: 'login', to: routes.login, returnTo };
  if (!hasCompleteModel) {
    return {
      kind: 'createModelFirst',
      to: `${routes.createModel}?redirect=${encodeURIComponent(returnTo)}`,
    };
  }
  const active = subscription?.active === true && subscription.tier !== 'none';
  if (!active) {
    return {
      kind: 'getSubscription',
      to: `${routes.subscription}?redirect=${encodeURIComponent(returnTo)}`,
    };
  }
  if ((subscription?.credits ?? 0) < 1) return { kind: 'buyCredits', to: routes.buyCredits };
  return { kind: 'generate' };
}
