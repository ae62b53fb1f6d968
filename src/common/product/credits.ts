// What paid actions cost, and the subscription record every user starts with.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

import type { Tier } from './tiers.ts';

export const costs = {
  creditsPerImage: 1,
  /** Bulk costs one image per selected model. */
  creditsPerBulkImage: 1,
  creditsPerTryOn: 1,
  trainingCredits: 50,
} as const;

export interface SubscriptionState {
  readonly active: boolean;
  readonly tier: Tier;
  readonly credits: number;
  readonly monthlyFreeTrainingsLeft: number;
}

/** The record created on a user's first subscription read. */
export const defaultSubscription = {
  active: false,
  tier: 'none',
  credits: 0,
  monthlyFreeTrainingsLeft: 1,
} as const satisfies SubscriptionState;

/** What the browser assumes when the subscription cannot be read. */
export const unreadableSubscription = {
  active: false,
  tier: 'none',
  credits: 0,
  monthlyFreeTrainingsLeft: 0,
} as const satisfies SubscriptionState;
