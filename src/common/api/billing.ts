import { z } from 'zod';
import { subscriptionSchema } from './account.ts';

// Request bodies are strict: an unknown field (an amount, a price, a user id) is refused with
// 400, so nothing the server decides can be suggested by the browser.

/** A path of our own site to come back to, e.g. `/subscription?from=tryon`; never another site. */
export const returnPathSchema = z
  .string()
  .max(300)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'must be a path of this site, starting with /');

/** `POST /api/billing/checkout`: a plan or the yearly offer, by our price id (price_basic, ...). */
export const checkoutRequestSchema = z.strictObject({
  priceId: z.string().min(1).max(100),
  /** Where the plan page was opened from (`custom-prompt`, `tryon`); Basic is refused from custom-prompt. */
  from: z.string().max(50).optional(),
  /** Where the provider's Cancel button returns to; defaults to /subscription (with `from`). */
  returnPath: returnPathSchema.optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** `POST /api/billing/yearly-checkout`: an empty body is fine. */
export const yearlyCheckoutRequestSchema = z.strictObject({
  returnPath: returnPathSchema.optional(),
});
export type YearlyCheckoutRequest = z.infer<typeof yearlyCheckoutRequestSchema>;

/** `POST /api/billing/credit-checkout` */
export const creditCheckoutRequestSchema = z.strictObject({
  packId: z.string().min(1).max(100),
  returnPath: returnPathSchema.optional(),
});
export type CreditCheckoutRequest = z.infer<typeof creditCheckoutRequestSchema>;

/** The answer of every checkout and portal request: the browser navigates to `url`. */
export const redirectResponseSchema = z.object({ url: z.string() });
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/** `POST /api/billing/portal`: where the portal's "return" link leads; defaults to /account. */
export const portalRequestSchema = z.strictObject({ returnPath: returnPathSchema.optional() });
export type PortalRequest = z.infer<typeof portalRequestSchema>;

/** The `session_id` of a return URL: the provider's session id (Stripe) or ours (local). */
export const sessionIdSchema = z.string().min(1).max(255);

/** `POST /api/billing/verify-credit-purchase` */
export const verifyCreditPurchaseRequestSchema = z.strictObject({ sessionId: sessionIdSchema });
export const checkoutStatusSchema = z.enum(['open', 'complete', 'expired', 'cancelled']);
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

export const verifyCreditPurchaseResponseSchema = z.object({
  /** True once the pack's credits are on the balance (now or before). */
  success: z.boolean(),
  /** True when an earlier call or the webhook had already added them. */
  alreadyProcessed: z.boolean(),
  /** The pack's credits. */
  credits: z.number().int(),
  /** `open`: not paid yet, ask again in 2 s; `expired` / `cancelled`: it will never be paid. */
  status: checkoutStatusSchema,
  /** The balance after the purchase (present when success). */
  balance: z.number().int().optional(),
});
export type VerifyCreditPurchaseResponse = z.infer<typeof verifyCreditPurchaseResponseSchema>;

/** `POST /api/billing/check-subscription`: optional `sessionId` of a plan checkout's return URL. */
export const checkSubscriptionRequestSchema = z.strictObject({
  sessionId: sessionIdSchema.optional(),
});
export type CheckSubscriptionRequest = z.infer<typeof checkSubscriptionRequestSchema>;

/**
 * The subscription as the pages need it: the account's `subscription` (active, tier, credits,
 * monthlyFreeTrainingsLeft) plus the billing details. Also the `data` of `subscription.updated`
 * events on `GET /api/events`.
 */
export const billingSubscriptionSchema = subscriptionSchema.extend({
  /** The provider's status: none | active | trialing | past_due | canceled | incomplete | ... */
  status: z.string(),
  /** price_basic | price_pro | price_premium | price_enterprise | price_yearly_premium | null */
  priceId: z.string().nullable(),
  /** 'Basic', ..., 'Premium Yearly'; null without a plan. */
  planTitle: z.string().nullable(),
  interval: z.enum(['month', 'year']).nullable(),
  currentPeriodEnd: z.iso.datetime().nullable(),
  /** Cancelled in the portal: stays active until currentPeriodEnd, then becomes inactive. */
  cancelAtPeriodEnd: z.boolean(),
  /** A provider customer exists, so `POST /api/billing/portal` can open the portal. */
  canManage: z.boolean(),
});
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>;

export const subscriptionUpdatedEvent = 'subscription.updated';

/** `GET /api/billing/ledger?cursor=&limit=`: the user's credit history, newest first. */
export const ledgerQuerySchema = z.object({
  // A ledger row id: digits, and no more of them than an id can have.
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a position from the previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ledgerEntrySchema = z.object({
  id: z.string(),
  /** Credits added (positive) or spent (negative). */
  delta: z.number().int(),
  /** Monthly free trainings used (-1), reset or returned (positive). */
  freeTrainingsDelta: z.number().int(),
  balanceAfter: z.number().int(),
  /** plan_credits | plan_upgrade | yearly_monthly_grant | credit_pack | adjustment | refund | training | generation | ... */
  reason: z.string(),
  /** What it concerns: an invoice or checkout id, a generation or model id, ... */
  reference: z.string(),
  /** An operator's note on an adjustment. */
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export const ledgerResponseSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export type LedgerResponse = z.infer<typeof ledgerResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Test mode (BILLING=local only): the built-in checkout page, portal and test clock
// ---------------------------------------------------------------------------------------------

export const testCheckoutParamsSchema = z.object({ id: sessionIdSchema });

/** `GET /api/billing/test-checkout/{id}`: what the test checkout page shows. */
export const testCheckoutSchema = z.object({
  id: z.string(),
  kind: z.enum(['plan', 'yearly', 'pack']),
  /** 'Pro', 'Premium Yearly', '500 Credits' */
  title: z.string(),
  priceUsd: z.number(),
  /** 'month' | 'year' for plans; null for a one-time pack. */
  interval: z.enum(['month', 'year']).nullable(),
  /** Credits per month for plans (the yearly offer: per month too); the pack's credits. */
  credits: z.number().int(),
  status: checkoutStatusSchema,
  email: z.string(),
});
export type TestCheckout = z.infer<typeof testCheckoutSchema>;

/** `POST /api/billing/test-checkout/{id}/pay` and `/cancel`: where the browser goes next. */
export const testCheckoutResultSchema = z.object({ redirectUrl: z.string() });
export type TestCheckoutResult = z.infer<typeof testCheckoutResultSchema>;

/** `GET /api/billing/test-portal` and the answer of its POSTs. */
export const testPortalSchema = z.object({
  subscription: billingSubscriptionSchema,
  /** The plans one may switch to (the current one flagged). */
  plans: z.array(
    z.object({
      priceId: z.string(),
      title: z.string(),
      priceUsd: z.number(),
      interval: z.enum(['month', 'year']),
      monthlyCredits: z.number().int(),
      current: z.boolean(),
    }),
  ),
  /** The page's "back" link. */
  returnUrl: z.string(),
});
export type TestPortal = z.infer<typeof testPortalSchema>;

export const testPortalSwitchRequestSchema = z.strictObject({ priceId: z.string().min(1) });
export type TestPortalSwitchRequest = z.infer<typeof testPortalSwitchRequestSchema>;
