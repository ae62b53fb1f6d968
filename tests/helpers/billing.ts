/**
 * A Basic subscription as the API reads it once its first payment went through, whichever the
 * payment provider (the built-in test mode or Stripe): active, with the plan's 50 credits and
 * its monthly free training.
 */
export const paidBasicSubscription = {
  active: true,
  tier: 'basic',
  credits: 50,
  monthlyFreeTrainingsLeft: 1,
  status: 'active',
  priceId: 'price_basic',
} as const;
