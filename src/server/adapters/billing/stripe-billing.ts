import Stripe from 'stripe';
import { type PriceId, isPriceId } from '../../../common/product/plans.ts';
import type { StripeConfig } from '../../config.ts';
import {
  type BillingProvider,
  BillingProviderError,
  type CreateCheckoutInput,
  type ProviderCheckout,
  type ProviderInvoice,
  type ProviderSubscription,
} from './billing-provider.ts';

/** A verified webhook event: only its id, type and the id of the object it is about. */
export interface ProviderEvent {
  id: string;
  type: string;
  objectId: string | undefined;
}

export class WebhookSignatureError extends Error {}

export interface StripeBillingProvider extends BillingProvider {
  readonly kind: 'stripe';
  /** Verifies the signature over the raw body (throws WebhookSignatureError) and reads the event. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

/**
 * The API version every request and every webhook endpoint speaks (read 2026-11-27, stripe-node
 * 23.1.0; docs/providers.md). Payload shapes differ between versions, so it is written out rather
 * than taken from whatever SDK is installed: the SDK types it as its own pinned version, so an
 * SDK upgrade that moves the version fails the type check here instead of silently changing the
 * shapes below. Since 2025-03-31.basil an invoice names its subscription under
 * `parent.subscription_details` and a subscription's period lives on its items.
 */
export const stripeApiVersion = '2026-10-28.endive' as const;

export function createStripeBillingProvider(config: StripeConfig): StripeBillingProvider {
  const stripe = new Stripe(config.secretKey, {
    apiVersion: stripeApiVersion,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(config.api
      ? { host: config.api.host, port: config.api.port, protocol: config.api.protocol }
      : {}),
  });
  const ourPriceByStripePrice = new Map<string, PriceId>(
    Object.entries(config.prices).map(([ours, theirs]) => [theirs, ours as PriceId]),
  );

  const idOf = (value: string | { id: string } | null | undefined) =>
    typeof value === 'string' ? value : (value?.id ?? undefined);

  function toSubscription(subscription: Stripe.Subscription): ProviderSubscription {
    // The pinned version has no period on the subscription: each item carries its own, and
    // ours have one item (one price).
    const item = subscription.items.data[0];
    const periodStart = item?.current_period_start ?? 0;
    const periodEnd = item?.current_period_end ?? 0;
    const stripePrice = item?.price.id;
    const priceId = stripePrice ? ourPriceByStripePrice.get(stripePrice) : undefined;
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer) ?? '',
      userId: subscription.metadata?.userId || undefined,
      priceId: isPriceId(priceId) ? priceId : undefined,
      status: subscription.status,
      currentPeriodStart: new Date(periodStart * 1000),
      currentPeriodEnd: new Date(periodEnd * 1000),
      // The portal may cancel with `cancel_at` (at the period end) instead of the flag.
      cancelAtPeriodEnd: subscription.cancel_at_period_end || Boolean(subscription.cancel_at),
      latestInvoiceId: idOf(subscription.latest_invoice),
      clock: undefined,
    };
  }

  /** Provider failures become BillingProviderError; "no such object" becomes undefined. */
  async function call<T>(work: () => Promise<T>): Promise<T>;
  async function call<T>(work: () => Promise<T>, missingIsUndefined: true): Promise<T | undefined>;
  async function call<T>(work: () => Promise<T>, missingIsUndefined = false) {
    try {
      return await work();
    } catch (error) {
      if (
        missingIsUndefined &&
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        (error.statusCode === 404 || error.code === 'resource_missing')
      )
        return undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new BillingProviderError(`Stripe: ${message}`, { cause: error });
    }
  }

  return {
    kind: 'stripe',

    async createCheckout(input: CreateCheckoutInput) {
      const isPack = input.kind === 'pack';
      const price = isPack
        ? config.packs[input.productId as keyof StripeConfig['packs']]
        : config.prices[input.productId as PriceId];
      if (!price) throw new Error(`no Stripe price for ${input.productId}`);
      const metadata = { checkoutId: input.checkoutId, kind: input.kind, userId: input.userId };
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: isPack ? 'payment' : 'subscription',
            line_items: [{ price, quantity: 1 }],
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            client_reference_id: input.userId,
            metadata,
            // One or the other: Stripe refuses both ("You may only specify one of these
            // parameters: customer, customer_email"); a known customer brings its own email.
            ...(input.customerId
              ? { customer: input.customerId }
              : { customer_email: input.email }),
            ...(isPack
              ? {
                  payment_intent_data: { metadata },
                  // A customer for the portal later, even for a one-time purchase.
                  ...(input.customerId ? {} : { customer_creation: 'always' as const }),
                }
              : // Metadata on the session is not copied to the subscription: set it there too,
                // so every subscription event can be traced to our user.
                { subscription_data: { metadata } }),
          },
          { idempotencyKey: `checkout-${input.checkoutId}` },
        ),
      );
      if (!session.url) throw new BillingProviderError('Stripe returned no checkout URL');
      return { providerSessionId: session.id, url: session.url };
    },

    async getCheckout(providerSessionId): Promise<ProviderCheckout | undefined> {
      const session = await call(() => stripe.checkout.sessions.retrieve(providerSessionId), true);
      if (!session) return undefined;
      return {
        id: session.id,
        status:
          session.status === 'complete'
            ? 'complete'
            : session.status === 'expired'
              ? 'expired'
              : 'open',
        paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
        checkoutId: session.metadata?.checkoutId || undefined,
        userId: session.client_reference_id ?? undefined,
        customerId: idOf(session.customer as string | { id: string } | null),
        subscriptionId: idOf(session.subscription),
        invoiceId: idOf(session.invoice),
      };
    },

    async getSubscription(subscriptionId) {
      const subscription = await call(() => stripe.subscriptions.retrieve(subscriptionId), true);
      return subscription ? toSubscription(subscription) : undefined;
    },

    async listSubscriptions(customerId) {
      const list = await call(() =>
        stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 10 }),
      );
      return list.data.sort((a, b) => b.created - a.created).map(toSubscription);
    },

    async getInvoice(invoiceId): Promise<ProviderInvoice | undefined> {
      const invoice = await call(() => stripe.invoices.retrieve(invoiceId), true);
      if (!invoice?.id) return undefined;
      // The pinned version has no `invoice.subscription`: a subscription's invoice names it
      // under `parent` (other invoices have another parent, or none).
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      const line = invoice.lines?.data?.[0];
      const stripePrice = idOf(
        line?.pricing?.price_details?.price as string | { id: string } | undefined,
      );
      const priceId = stripePrice ? ourPriceByStripePrice.get(stripePrice) : undefined;
      return {
        id: invoice.id,
        subscriptionId,
        paid: invoice.status === 'paid',
        billingReason:
          invoice.billing_reason === 'subscription_create'
            ? 'create'
            : invoice.billing_reason === 'subscription_cycle'
              ? 'cycle'
              : 'other',
        periodStart: line?.period?.start ? new Date(line.period.start * 1000) : undefined,
        priceId,
      };
    },

    async createPortal(customerId, returnUrl) {
      const session = await call(() =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async cancelNow(subscriptionId) {
      await call(() => stripe.subscriptions.cancel(subscriptionId), true);
    },

    parseWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', config.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
      }
      const object = event.data?.object as { id?: unknown } | undefined;
      return {
        id: event.id,
        type: event.type,
        objectId: typeof object?.id === 'string' ? object.id : undefined,
      };
    },
  };
}
