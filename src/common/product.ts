// Every product number of the specification, written once, in src/common/product/ (one file a
// topic). Where the two specification documents disagree, the resolutions in spec/README.md are
// what is written there. The web app imports the topic files directly (so each page's chunk holds
// only the numbers it uses, decision 047); the server still imports this file, which names every
// topic's exports, until it moves over too.

export { brand, contact } from './product/brand.ts';
export {
  TIERS,
  type Tier,
  PAID_TIERS,
  type PaidTier,
  tierNames,
  type TierGate,
  tierGates,
  isTier,
  isPaidTier,
  toTier,
  canUseCustomPrompts,
  canUseBulk,
  canUseTryOn,
  modelLimit,
  tierName,
} from './product/tiers.ts';
export { CURRENCY, usdToCents, formatUsd } from './product/money.ts';
export {
  priceIds,
  PRICE_IDS,
  type PriceId,
  isPriceId,
  type BillingInterval,
  type SubscriptionProduct,
  type Plan,
  plans,
  PLANS_ON_SALE,
  checkoutConversionValuesUsd,
  yearlyOffer,
  type PlanOrOffer,
  planByPriceId,
  planByTier,
} from './product/plans.ts';
export {
  type CreditPack,
  creditPacks,
  type CreditPackId,
  CREDIT_PACK_IDS,
  creditPackById,
} from './product/credit-packs.ts';
export {
  costs,
  type SubscriptionState,
  defaultSubscription,
  unreadableSubscription,
} from './product/credits.ts';
export { training, genders, type Gender } from './product/training.ts';
export { photos } from './product/photos.ts';
export { identity, likenessPercent } from './product/identity.ts';
export { tryOn } from './product/tryon.ts';
export { passwordMinLength, passwordMaxLength, auth } from './product/auth.ts';
export { prompt, modelName, lists, storage, rateLimits } from './product/limits.ts';
export { catalog } from './product/catalog.ts';
export {
  quiz,
  type QuizFeedbackLevel,
  quizPercentage,
  quizFeedbackLevel,
  offer,
} from './product/quiz.ts';
export { landingCarouselCategories, landing } from './product/landing.ts';
export { timings, paymentPollDelayMs, network, layout } from './product/timings.ts';
export {
  routes,
  paths,
  protectedRoutes,
  isProtectedPath,
  defaultRedirectAfterHowItWorks,
  dashboardQuery,
  checkoutCancelled,
  withCheckoutCancelled,
  subscriptionFrom,
  signupOffer,
} from './product/routes.ts';
