// The words of credits: the balance in the header, buying credits, the credit history. Apart from
// billing's other words because every signed-in page shows the balance.
// The server and the web app import them from here, so a page downloads only the words it uses.

import { costs } from '../product/credits.ts';
import { plural } from './format.ts';

/** `messages.credits`: buying credits and the credit history. */
export const creditsMessages = {
  title: 'Buy Credits',
  subtitle: 'Top up your balance. Credits never expire.',
  balance: (n: number) => `You have ${plural(n, 'credit')}`,
  packCredits: (n: number) => `${n} Credits`,
  discount: (percent: number) => `Save ${percent}%`,
  mostPopular: 'MOST POPULAR',
  buy: 'Buy Now',
  processing: 'Processing...',
  subscribeFirst: 'Please subscribe to a plan first before purchasing additional credits.',
  verifyingTitle: 'Processing your purchase',
  verifyingDescription: 'Confirming your payment. This can take up to 30 seconds.',
  verificationFailed:
    'Credit verification failed. Please contact support if credits were not added.',
  added: (n: number) => `${n} credits have been added to your account!`,
  alreadyAdded: 'These credits were already added to your account.',
  invalidPack: (packId: string) => `Invalid credit pack: ${packId}`,
  // Labels of the credit history (GET /api/billing/ledger `reason`), for the account page.
  historyReasons: {
    plan_credits: 'Plan credits',
    plan_upgrade: 'Plan upgrade',
    yearly_monthly_grant: 'Monthly credits',
    credit_pack: 'Credit pack',
    adjustment: 'Adjustment',
    refund: 'Refund',
    training: 'AI model training',
    generation: 'Image generation',
    bulk_generation: 'Bulk generation',
    tryon: 'Virtual try-on',
    account_deleted: 'Account deleted',
  } as Record<string, string>,
  historyOther: 'Credits',
  perImage: `${plural(costs.creditsPerImage, 'credit')} per image`,
  // Buy credits page and credit history (not in the specification).
  needPlanTitle: 'Choose a plan first',
  viewPlans: 'View plans',
  originalPrice: (price: string) => `Regular price ${price}`,
  currentBalance: 'Current balance',
  successTitle: 'Credits added',
  newBalance: (n: number) => `Your new balance is ${plural(n, 'credit')}.`,
  failedTitle: "We couldn't confirm your purchase",
  done: 'Done',
  headerBalance: (n: number) => plural(n, 'credit'),
  headerBalanceLabel: (n: number) => `Credit balance: ${plural(n, 'credit')}`,
  historyTitle: 'Credit history',
  historyDescription: 'Every credit added to or taken from your balance, newest first.',
  historyEmpty: 'No credit activity yet',
  historyEmptyHint: 'Credits from your plan and credit packs will appear here.',
  historyLoadFailed: "We couldn't load your credit history.",
  historyColumns: { date: 'Date', activity: 'Activity', change: 'Change', balance: 'Balance' },
  freeTrainingChange: (n: number) =>
    `${n > 0 ? '+' : '\u2212'}${plural(Math.abs(n), 'free training')}`,
  loadMore: 'Load more',
  loadingMore: 'Loading...',
} as const;
