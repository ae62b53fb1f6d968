import type { PriceId } from '../../../common/product/plans.ts';
import type { Executor } from '../../db/client.ts';

/**
 * A payment provider as billing needs it: start checkouts for prices we name, open the portal,
 * and answer what is true now (sessions, subscriptions, invoices). Fulfilment always re-reads
 * that truth instead of trusting a webhook's payload or its order.
 *
 * Implementations: `local` (a built-in test-mode provider keeping its state in our database)
 * and `stripe`. Both speak in our ids (price_basic, pack_200, ...) at this boundary.
 */
export interface BillingProvider {
  readonly kind: 'local' | 'stripe';
  createCheckout(input: CreateCheckoutInput): Promise<{ providerSessionId: string; url: string }>;
  getCheckout(providerSessionId: string): Promise<ProviderCheckout | undefined>;
  getSubscription(subscriptionId: string): Promise<ProviderSubscription | undefined>;
  /** The customer's subscriptions, newest first (to re-sync a user whose webhooks were lost). */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  getInvoice(invoiceId: string): Promise<ProviderInvoice | undefined>;
  createPortal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /**
   * Ends a subscription now, without refund (account deletion). `within` is the caller's open
   * transaction: the test-mode provider, whose state is in our database, writes through it.
   */
  cancelNow(subscriptionId: string, within?: Executor): Promise<void>;
}

export type CheckoutKind = 'plan' | 'yearly' | 'pack';

export interface CreateCheckoutInput {
  /** Our checkout id, carried in the provider session's metadata. */
  checkoutId: string;
  userId: string;
  email: string;
  kind: CheckoutKind;
  /** Our price id (plan, yearly) or pack id. */
  productId: string;
  /** The provider customer we already know for this user, if any. */
  customerId: string | undefined;
  /** Contains the literal `{CHECKOUT_SESSION_ID}`, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderCheckout {
  id: string;
  status: 'open' | 'complete' | 'expired';
  /** Money arrived (or none was needed): only then is anything fulfilled. */
  paid: boolean;
  /** Our checkout id from the metadata, and our user id (client_reference_id). */
  checkoutId: string | undefined;
  userId: string | undefined;
  customerId: string | undefined;
  subscriptionId: string | undefined;
  /** The first invoice of a subscription checkout. */
  invoiceId: string | undefined;
}

/** Statuses in which the subscriber keeps the plan (past_due: the provider is still retrying). */
export const entitledStatuses: readonly string[] = ['active', 'trialing', 'past_due'];

export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Our user id, from the subscription's metadata (set at checkout). */
  userId: string | undefined;
  /** Our price id, or undefined when the provider's price maps to none of ours. */
  priceId: PriceId | undefined;
  /** active | trialing | past_due | canceled | incomplete | incomplete_expired | unpaid | paused */
  status: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  latestInvoiceId: string | undefined;
  /** The provider's notion of now for this subscription (a test clock), if not the real time. */
  clock: Date | undefined;
}

export interface ProviderInvoice {
  id: string;
  subscriptionId: string | undefined;
  paid: boolean;
  /** create: first invoice; cycle: a renewal; other: prorations, manual invoices, ... */
  billingReason: 'create' | 'cycle' | 'other';
  /** Start of the service period the invoice paid for. */
  periodStart: Date | undefined;
  /** Our price id of the plan the invoice paid for. */
  priceId: PriceId | undefined;
}

/** The provider could not be reached or refused: the user may try again. */
export class BillingProviderError extends Error {}
