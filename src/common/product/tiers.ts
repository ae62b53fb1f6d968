// Tiers and their gates: what each plan may do.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const TIERS = ['none', 'basic', 'pro', 'premium', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const PAID_TIERS = ['basic', 'pro', 'premium', 'enterprise'] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

export const tierNames = {
  none: 'No plan',
  basic: 'Basic',
  pro: 'Pro',
  premium: 'Premium',
  enterprise: 'Enterprise',
} as const satisfies Record<Tier, string>;

export interface TierGate {
  readonly customPrompts: boolean;
  readonly bulk: boolean;
  readonly tryOn: boolean;
  readonly modelLimit: number;
  readonly extendedHistory: boolean;
  readonly prioritySupport: boolean;
}

const premiumGate = {
  customPrompts: true,
  bulk: true,
  tryOn: true,
  modelLimit: 20,
  extendedHistory: true,
  prioritySupport: true,
} as const;

// Enterprise is assigned by an operator and gates exactly as Premium: the same gate.
export const tierGates = {
  none: {
    customPrompts: false,
    bulk: false,
    tryOn: false,
    modelLimit: 0,
    extendedHistory: false,
    prioritySupport: false,
  },
  basic: {
    customPrompts: false,
    bulk: false,
    tryOn: false,
    modelLimit: 1,
    extendedHistory: false,
    prioritySupport: false,
  },
  pro: {
    customPrompts: true,
    bulk: true,
    tryOn: true,
    modelLimit: 5,
    extendedHistory: false,
    prioritySupport: false,
  },
  premium: premiumGate,
  enterprise: premiumGate,
} as const satisfies Record<Tier, TierGate>;

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function isPaidTier(value: unknown): value is PaidTier {
  return typeof value === 'string' && (PAID_TIERS as readonly string[]).includes(value);
}

/** Accepts any casing ('Premium', 'PRO'); anything unknown, empty or missing is 'none'. */
export function toTier(value: string | null | undefined): Tier {
  const lower = (value ?? '').trim().toLowerCase();
  return isTier(lower) ? lower : 'none';
}

function gateOf(tier: Tier | null | undefined): TierGate {
  return tierGates[tier ?? 'none'] ?? tierGates.none;
}

export function canUseCustomPrompts(tier: Tier | null | undefined): boolean {
  return gateOf(tier).customPrompts;
}

export function canUseBulk(tier: Tier | null | undefined): boolean {
  return gateOf(tier).bulk;
}

export function canUseTryOn(tier: Tier | null | undefined): boolean {
  return gateOf(tier).tryOn;
}

export function modelLimit(tier: Tier | null | undefined): number {
  return gateOf(tier).modelLimit;
}

export function tierName(tier: Tier | null | undefined): string {
  return tierNames[tier ?? 'none'] ?? tierNames.none;
}
