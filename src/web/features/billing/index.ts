// What billing offers the other features, and the only file of it they import (decision 045):
// the rest of this folder may change without them. src/web/app composes features and may import
// any of their files.

// The plans and the subscription's state, on the account and try-on pages.
export { CreditHistory } from './components/credit-history.tsx';
export { PlanCard } from './components/plan-card.tsx';
export { PlanGrid } from './components/plan-grid.tsx';
export { SubscriptionStatusCard } from './components/subscription-status-card.tsx';
// Checkouts started elsewhere (the sign-up's and the quiz's yearly offer), and the billing views
// to refresh after a paid action.
export { billingQueryKey, redirectTo, startYearlyCheckout } from './billing-api.ts';
