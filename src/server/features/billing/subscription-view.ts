import type { BillingSubscription } from '../../../common/api/billing.ts';
import { planByPriceId } from '../../../common/product/plans.ts';
import { tierName, toTier } from '../../../common/product/tiers.ts';
import type { SubscriptionRow } from './repository.ts';

/** The subscription as the pages and the `subscription.updated` event show it. */
export function toBillingSubscription(row: SubscriptionRow): BillingSubscription {
  const tier = toTier(row.tier);
  const product = planByPriceId(row.priceId);
  return {
    active: row.active,
    tier,
    credits: row.credits,
    monthlyFreeTrainingsLeft: row.monthlyFreeTrainingsLeft,
    status: row.status,
    priceId: row.priceId,
    // An operator-assigned tier has no price: name the tier instead.
    planTitle: product?.title ?? (tier === 'none' ? null : tierName(tier)),
    interval: product?.interval ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canManage: Boolean(row.providerCustomerId),
  };
}
