// The words of plans, checkout, the subscription and the page a checkout returns to.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { plural } from './format.ts';
import {
  failedToCreateCheckoutSession,
  subscriptionRequiredDescription,
  subscriptionRequiredTitle,
} from './phrases.ts';
import { planCardMessages } from './plans.ts';

/**
 * `messages.billing`: the plans page, checkout and the subscription, with the test-mode checkout
 * and portal.
 */
export const billingMessages = {
  title: 'Subscription Plans',
  subtitleActive: 'Manage Your Subscription',
  subtitleCustomPrompt: 'Choose Pro or Premium for Custom Prompts',
  subtitleTryOn: 'Choose a plan to access Try-On feature',
  subtitleDefault: 'Choose a plan to start using our AI models',
  currentPlanNotice: (tierName: string) => `You are currently on the ${tierName} plan`,
  // When the tier cannot be named, the specification words it as Premium.
  currentPlanFallbackTier: 'Premium',
  ...planCardMessages,
  currentPlan: 'Current Plan',
  selectPlan: 'Select Plan',
  processing: 'Processing...',
  noCustomPrompts: 'No Custom Prompts',
  noTryOn: 'No Try-On',
  invalidPlan: (plan: string) => `Invalid plan: ${plan}`,
  basicNoCustomPrompts:
    "Basic plan doesn't include custom prompting. Please choose Pro or Premium.",
  failedToCreateCheckoutSession,
  noCheckoutUrl: 'No checkout URL returned',
  failedToStartCheckout: 'Failed to start checkout process',
  noPortalUrl: 'No portal URL returned',
  portalFailed: 'Failed to open subscription management. Please try again.',
  checkSubscriptionFailed: 'Failed to check subscription status. Please try again.',
  subscriptionRequiredTitle,
  subscriptionRequiredDescription,
  subscriptionRequired: `${subscriptionRequiredTitle}: ${subscriptionRequiredDescription}`,
  alreadySubscribed: 'You already have this plan.',
  testCheckout: {
    badge: 'Test mode',
    notice: 'This is a test checkout. No real payment is taken.',
    pay: (amount: string) => `Pay ${amount}`,
    cancel: 'Cancel and return',
    portalTitle: 'Manage subscription (test mode)',
    cancelSubscription: 'Cancel subscription',
    cancelled: 'Your subscription will end at the close of the current period.',
    resumeSubscription: 'Keep my subscription',
    switchPlan: 'Switch to this plan',
    advanceClock: 'Advance to next renewal',
  },
  // Server answers of the billing API (not in the specification).
  checkoutClosed: 'This checkout is no longer open. Please start again from the plans page.',
  noSubscriptionToManage: 'You have no subscription to manage yet. Please choose a plan first.',
  providerUnavailable: 'Payments are temporarily unavailable. Please try again in a moment.',
  // Plan page and subscription card (not in the specification).
  manageSubscription: 'Manage Subscription',
  opening: 'Opening...',
  plansLabel: 'Plans',
  renewsOn: (date: string) => `Renews on ${date}`,
  endsOn: (date: string) => `Ends on ${date}`,
  cancelNotice: (date: string) =>
    `Your plan is cancelled and stays active until ${date}. You can resume it any time before then.`,
  checkoutCancelled: 'Checkout cancelled. You have not been charged.',
  testMode: {
    banner: 'TEST MODE',
    bannerDetail: 'Nothing is charged here. This page stands in for the payment provider.',
    checkoutTitle: 'Checkout',
    checkoutSubtitle: 'Review your order and complete the test payment.',
    orderSummary: 'Order summary',
    account: 'Account',
    billedMonthly: 'Billed monthly until you cancel',
    billedYearly: 'Billed yearly until you cancel',
    oneTime: 'One-time purchase',
    creditsEveryMonth: (n: number) => `${n} credits every month`,
    creditsAdded: (n: number) => `${n} credits added to your balance`,
    totalToday: 'Total due today',
    paying: 'Paying...',
    leaving: 'Returning...',
    closedTitle: 'This checkout is closed',
    loadFailed: "We couldn't load this checkout. It may have expired or belong to another account.",
    backToPlans: 'Back to plans',
    portalSubtitle: 'Switch or cancel your plan. Changes take effect immediately.',
    currentPlanTitle: 'Your plan',
    noPlan: 'You have no active plan.',
    statusLabel: 'Status',
    availablePlans: 'Switch plan',
    switching: 'Switching...',
    cancelling: 'Cancelling...',
    resuming: 'Resuming...',
    backToAccount: 'Back to your account',
    portalLoadFailed: "We couldn't load the subscription portal. Please try again.",
    actionFailed: "That didn't work. Please try again.",
    switched: (plan: string) => `You are now on the ${plan} plan.`,
    resumed: 'Your subscription will continue.',
  },
} as const;

/** `messages.paymentSuccess`: the page a checkout returns to. */
export const paymentSuccessMessages = {
  activating: 'Activating your subscription...',
  activeTitle: 'Payment Successful!',
  active: (tierName: string) =>
    `Your ${tierName} subscription is active. You can start creating right away.`,
  pendingTitle: 'Payment Received',
  pending:
    'Your payment was received. Your subscription is being activated and will appear shortly.',
  unableToConfirm: 'Unable to confirm subscription status. Please check your account page.',
  goToDashboard: 'Go to Dashboard',
  viewAccount: 'View Account',
  // Not in the specification.
  creditsReady: (n: number) => `${plural(n, 'credit')} are ready to use.`,
  continue: 'Continue where you left off',
  startingYearly: 'Taking you to checkout...',
} as const;
