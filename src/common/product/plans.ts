// Plans and the yearly offer: what each price id buys.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

import { isPaidTier, tierGates, tierNames, type PaidTier, type Tier } from './tiers.ts';

export const priceIds = {
  basic: 'price_basic',
  pro: 'price_pro',
  premium: 'price_premium',
  enterprise: 'price_enterprise',
  yearlyPremium: 'price_yearly_premium',
} as const;

export const PRICE_IDS = [
  priceIds.basic,
  priceIds.pro,
  priceIds.premium,
  priceIds.enterprise,
  priceIds.yearlyPremium,
] as const;
export type PriceId = (typeof PRICE_IDS)[number];

export function isPriceId(value: unknown): value is PriceId {
  return typeof value === 'string' && (PRICE_IDS as readonly string[]).includes(value);
}

export type BillingInterval = 'month' | 'year';

/** What a price id buys: the fields billing needs, shared by the monthly plans and the yearly offer. */
export interface SubscriptionProduct {
  readonly id: string;
  readonly tier: PaidTier;
  readonly title: string;
  readonly priceId: PriceId;
  readonly priceUsd: number;
  readonly interval: BillingInterval;
  /** Credits granted at each monthly grant (the yearly offer grants monthly too). */
  readonly monthlyCredits: number;
}

export interface Plan extends SubscriptionProduct {
  readonly id: PaidTier;
  readonly interval: 'month';
  readonly description: string;
  readonly features: readonly string[];
  readonly popular: boolean;
  /** Enterprise is a valid tier but is never sold on the plan page. */
  readonly onSale: boolean;
}

const monthlyCredits = { basic: 50, pro: 500, premium: 2500 } as const;

function modelsFeature(tier: PaidTier): string {
  const n = tierGates[tier].modelLimit;
  return n === 1 ? '1 AI model' : `Up to ${n} AI models`;
}

const proFeatures = [
  'HD images',
  'All style presets',
  modelsFeature('pro'),
  'Custom prompts',
  'Bulk generation',
  'AI Virtual Try-On',
] as const;

const premiumFeatures = [
  'HD images',
  'All style presets',
  modelsFeature('premium'),
  'Custom prompts',
  'Bulk generation',
  'AI Virtual Try-On',
  'Extended history',
  'Priority support',
] as const;

export const plans = {
  basic: {
    id: 'basic',
    tier: 'basic',
    title: tierNames.basic,
    priceId: priceIds.basic,
    priceUsd: 19,
    interval: 'month',
    monthlyCredits: monthlyCredits.basic,
    description: 'Get started with your own AI photos from our style presets.',
    features: ['HD images', 'All style presets', modelsFeature('basic'), 'One photo at a time'],
    popular: false,
    onSale: true,
  },
  pro: {
    id: 'pro',
    tier: 'pro',
    title: tierNames.pro,
    priceId: priceIds.pro,
    priceUsd: 49,
    interval: 'month',
    monthlyCredits: monthlyCredits.pro,
    description: 'For creators: custom prompts, bulk generation and virtual try-on.',
    features: proFeatures,
    popular: true,
    onSale: true,
  },
  premium: {
    id: 'premium',
    tier: 'premium',
    title: tierNames.premium,
    priceId: priceIds.premium,
    priceUsd: 79,
    interval: 'month',
    monthlyCredits: monthlyCredits.premium,
    description: 'For professionals creating at scale, with priority support.',
    features: premiumFeatures,
    popular: false,
    onSale: true,
  },
  // Only the studio checkout reading names an Enterprise amount (its conversion value); the tier
  // is assigned by an operator and its credits follow Premium.
  enterprise: {
    id: 'enterprise',
    tier: 'enterprise',
    title: tierNames.enterprise,
    priceId: priceIds.enterprise,
    priceUsd: 69,
    interval: 'month',
    monthlyCredits: monthlyCredits.premium,
    description: 'For teams and businesses, arranged with our team.',
    features: premiumFeatures,
    popular: false,
    onSale: false,
  },
} as const satisfies Record<PaidTier, Plan>;

/** The three cards of the plan page, landing pricing and account page, in display order. */
export const PLANS_ON_SALE = [plans.basic, plans.pro, plans.premium] as const;

/** The value reported for a completed studio checkout (analytics), per the studio reading. */
export const checkoutConversionValuesUsd = {
  basic: 19,
  premium: 39,
  enterprise: 69,
} as const;

export const yearlyOffer = {
  id: 'premium_yearly',
  tier: 'premium',
  title: 'Premium Yearly',
  priceId: priceIds.yearlyPremium,
  priceUsd: 59,
  interval: 'year',
  monthlyCredits: 200,
  creditsPerYear: 2400,
  monthlyEquivalentUsd: 4.92,
  strikethroughYearlyUsd: 468,
  regularMonthlyUsd: 39,
  savingsPercent: 87,
  savingsUsd: 409,
  signupSavingsPercent: 67,
  features: [
    '2400 AI detection credits per year',
    'Priority email support',
    'Extended detection history',
    'Priority access to new features',
    'Advanced detection algorithms',
  ],
} as const satisfies SubscriptionProduct & Record<string, unknown>;

export type PlanOrOffer = (typeof plans)[PaidTier] | typeof yearlyOffer;

export function planByPriceId(priceId: string | null | undefined): PlanOrOffer | undefined {
  if (priceId === yearlyOffer.priceId) return yearlyOffer;
  return Object.values(plans).find((plan) => plan.priceId === priceId);
}

export function planByTier(tier: Tier | null | undefined): (typeof plans)[PaidTier] | undefined {
  return isPaidTier(tier) ? plans[tier] : undefined;
}
