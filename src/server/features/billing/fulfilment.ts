import type { FastifyBaseLogger } from 'fastify';
import type { CheckoutStatus } from '../../../common/api/billing.ts';
import { type PlanOrOffer, planByPriceId } from '../../../common/product/plans.ts';
import { training } from '../../../common/product/training.ts';
import {
  type BillingProvider,
  type ProviderInvoice,
  type ProviderSubscription,
  entitledStatuses,
} from '../../adapters/billing/billing-provider.ts';
import { addMonths, monthsElapsed } from '../../adapters/billing/periods.ts';
import type { Database, Executor } from '../../db/client.ts';
import { type CreditLedger, grant, markSubscriptionChanged } from './ledger.ts';
import {
  type CheckoutRow,
  findCheckout,
  findCheckoutByProviderSession,
  findSubscription,
  findUserIdByProviderIds,
  lockSubscription,
  markCheckout,
  unfulfilledPlanCheckouts,
  updateSubscription,
  userExists,
} from './repository.ts';

/**
 * Fulfilment: the one idempotent path from "the provider says it was paid" to credits and plan.
 * Reached from the webhook (Stripe), from the test-mode provider's actions (local) and from the
 * return pages' verification calls. It never trusts what it was told: it re-reads the session,
 * subscription and invoice from the provider, so duplicated and reordered notifications all
 * converge on the provider's current truth. Every grant has a unique (reason, reference), so
 * running any of this twice grants nothing twice.
 *
 * - Plan activation and renewal: each paid invoice (first or renewal) grants the plan's monthly
 *   credits, reference = the invoice id, and resets the monthly free training to 1.
 * - Upgrade within a period: tops the period's plan credits up to the new plan's, once per plan.
 * - Yearly offer: Premium tier; its invoice grants the first 200 credits, and each following month
 *   of the year grants 200 more (reference `{invoice}:m{n}`), also resetting the free training.
 * - Cancellation at period end: stays active until the provider ends the subscription, then
 *   inactive (tier none; credits are kept, they never expire).
 * - Packs: the pack's credits, reference = the provider's checkout session id.
 */

export interface CheckoutOutcome {
  status: CheckoutStatus;
  credits: number;
  alreadyProcessed: boolean;
  balance?: number;
}

/** What the grants of one run know and did (the subscription row's grant pointers, updated as it goes). */
interface GrantState {
  grantInvoiceId: string | null;
  grantPeriodStart: Date | null;
  grantPeriodCredits: number;
  freeTrainingsLeft: number;
  /** A grant was written in this run (not a duplicate). */
  grantedNow: boolean;
}

const recentCheckoutWindowMs = 24 * 60 * 60 * 1000;

export function createFulfilment(deps: {
  db: Database;
  provider: BillingProvider;
  ledger: CreditLedger;
  logger?: FastifyBaseLogger;
  /** Asks for `resyncUser(userId)` to run at `at` (the yearly offer's next monthly grant). */
  scheduleMonthlyGrant?: (userId: string, at: Date) => Promise<void>;
  now?: () => Date;
}) {
  const { db, provider, ledger, logger } = deps;
  const now = deps.now ?? (() => new Date());

  async function resolveUser(subscription: ProviderSubscription): Promise<string | undefined> {
    if (subscription.userId && (await userExists(db, subscription.userId)))
      return subscription.userId;
    return findUserIdByProviderIds(db, subscription.id, subscription.customerId || undefined);
  }

  /**
   * Brings the user's subscription row to the provider's truth and grants what the paid invoices
   * (given ones and the subscription's latest) and the passing months are owed.
   */
  async function applySubscription(
    userId: string,
    subscription: ProviderSubscription,
    options: { invoiceIds?: (string | undefined)[]; checkoutId?: string } = {},
  ): Promise<void> {
    const invoiceIds = [...new Set([...(options.invoiceIds ?? []), subscription.latestInvoiceId])];
    const invoices: ProviderInvoice[] = [];
    for (const invoiceId of invoiceIds) {
      if (!invoiceId) continue;
      const invoice = await provider.getInvoice(invoiceId);
      if (invoice?.paid && invoice.subscriptionId === subscription.id) invoices.push(invoice);
    }
    // Oldest period first, so the newest paid period ends up as the one counted from.
    invoices.sort((a, b) => (a.periodStart?.getTime() ?? 0) - (b.periodStart?.getTime() ?? 0));
    const asOf = new Date(Math.max(now().getTime(), subscription.clock?.getTime() ?? 0));
    const product = planByPriceId(subscription.priceId);

    let nextGrantAt: Date | undefined;
    const state: GrantState = {
      grantInvoiceId: null,
      grantPeriodStart: null,
      grantPeriodCredits: 0,
      freeTrainingsLeft: 0,
      grantedNow: false,
    };
    await ledger.transaction(async (tx) => {
      const row = await lockSubscription(tx, userId);
      const entitled = entitledStatuses.includes(subscription.status) && Boolean(product);
      if (!product && entitledStatuses.includes(subscription.status))
        logger?.error(
          { subscriptionId: subscription.id },
          'subscription price maps to none of ours; not activating',
        );

      // News of an older subscription must not undo a newer one (a user who resubscribed).
      const other = row.providerSubscriptionId && row.providerSubscriptionId !== subscription.id;
      const olderThanCurrent =
        row.currentPeriodStart !== null && subscription.currentPeriodStart < row.currentPeriodStart;
      if (other && row.active && (!entitled || olderThanCurrent)) {
        if (options.checkoutId) await markFulfilled(tx, options.checkoutId);
        return;
      }
      if (other && row.active && entitled)
        logger?.warn(
          { userId, previous: row.providerSubscriptionId, current: subscription.id },
          'user has two live subscriptions; following the newer one (cancel the other one)',
        );

      await updateSubscription(tx, userId, {
        active: entitled,
        tier: entitled && product ? product.tier : 'none',
        priceId: subscription.priceId ?? null,
        status: subscription.status,
        providerSubscriptionId: subscription.id,
        providerCustomerId: subscription.customerId || row.providerCustomerId,
        currentPeriodStart: subscription.currentPeriodStart,
        currentPeriodEnd: subscription.currentPeriodEnd,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      });
      markSubscriptionChanged(tx, userId);

      if (entitled && product) {
        Object.assign(state, {
          grantInvoiceId: row.grantInvoiceId,
          grantPeriodStart: row.grantPeriodStart,
          grantPeriodCredits: row.grantPeriodCredits,
          freeTrainingsLeft: row.monthlyFreeTrainingsLeft,
        });
        for (const invoice of invoices)
          await grantInvoice(tx, userId, invoice, subscription, state);
        await topUpUpgrade(tx, userId, product, subscription, state);
        nextGrantAt = await grantPassedMonths(tx, userId, product, subscription, asOf, state);
      }
      if (options.checkoutId) await markFulfilled(tx, options.checkoutId);
    });
    // Only a run that granted something schedules the next month: one chain of jobs, however
    // often this runs (webhooks, return pages, the job itself).
    if (nextGrantAt && state.grantedNow && deps.scheduleMonthlyGrant) {
      await deps.scheduleMonthlyGrant(userId, nextGrantAt).catch((error: unknown) => {
        logger?.error({ err: error, userId }, 'next monthly grant could not be scheduled');
      });
    }
  }

  /** A paid first or renewal invoice: the plan's credits for its period, once. */
  async function grantInvoice(
    tx: Executor,
    userId: string,
    invoice: ProviderInvoice,
    subscription: ProviderSubscription,
    state: GrantState,
  ): Promise<void> {
    if (invoice.billingReason === 'other') return;
    const paidFor = planByPriceId(invoice.priceId ?? subscription.priceId);
    if (!paidFor) return;
    const periodStart = invoice.periodStart ?? subscription.currentPeriodStart;
    const isLatest = !state.grantPeriodStart || periodStart >= state.grantPeriodStart;
    const result = await grant(tx, userId, paidFor.monthlyCredits, 'plan_credits', invoice.id, {
      // Each paid renewal brings the monthly free training back (only the newest period's does).
      freeTrainingsDelta: isLatest ? training.freeTrainingsPerRenewal - state.freeTrainingsLeft : 0,
    });
    state.freeTrainingsLeft = result.freeTrainingsLeft;
    if (!result.duplicate) state.grantedNow = true;
    if (result.duplicate || !isLatest) return;
    Object.assign(state, {
      grantInvoiceId: invoice.id,
      grantPeriodStart: periodStart,
      grantPeriodCredits: paidFor.monthlyCredits,
    });
    await updateSubscription(tx, userId, {
      grantInvoiceId: invoice.id,
      grantPeriodStart: periodStart,
      grantPeriodCredits: paidFor.monthlyCredits,
    });
  }

  /** Moving up to a bigger monthly plan mid-period tops the period's credits up to the new plan's. */
  async function topUpUpgrade(
    tx: Executor,
    userId: string,
    product: PlanOrOffer,
    subscription: ProviderSubscription,
    state: GrantState,
  ): Promise<void> {
    if (product.interval !== 'month' || !state.grantInvoiceId || !state.grantPeriodStart) return;
    if (state.grantPeriodStart.getTime() !== subscription.currentPeriodStart.getTime()) return;
    const missing = product.monthlyCredits - state.grantPeriodCredits;
    if (missing <= 0) return;
    await grant(tx, userId, missing, 'plan_upgrade', `${state.grantInvoiceId}:${product.priceId}`);
    state.grantPeriodCredits = product.monthlyCredits;
    await updateSubscription(tx, userId, { grantPeriodCredits: product.monthlyCredits });
  }

  /**
   * The yearly offer's monthly grants for every month of the paid year that has begun by `asOf`
   * (month 0 came with the invoice). Answers when the next one is due.
   */
  async function grantPassedMonths(
    tx: Executor,
    userId: string,
    product: PlanOrOffer,
    subscription: ProviderSubscription,
    asOf: Date,
    state: GrantState,
  ): Promise<Date | undefined> {
    if (product.interval !== 'year' || !state.grantInvoiceId || !state.grantPeriodStart) return;
    const start = state.grantPeriodStart;
    // Count only from a paid year of this subscription: the current one, or the one that just
    // ended while its renewal is not paid yet (not from a monthly plan's invoice before a switch).
    const current = subscription.currentPeriodStart.getTime();
    if (start.getTime() !== current && addMonths(start, 12).getTime() !== current) return;
    const months = Math.min(monthsElapsed(start, asOf), 11);
    for (let month = 1; month <= months; month += 1) {
      const result = await grant(
        tx,
        userId,
        product.monthlyCredits,
        'yearly_monthly_grant',
        `${state.grantInvoiceId}:m${month}`,
        { freeTrainingsDelta: training.freeTrainingsPerRenewal - state.freeTrainingsLeft },
      );
      if (!result.duplicate) {
        state.freeTrainingsLeft = result.freeTrainingsLeft;
        state.grantedNow = true;
      }
    }
    return months < 11 ? addMonths(start, months + 1) : undefined;
  }

  async function markFulfilled(tx: Executor, checkoutId: string): Promise<void> {
    const at = now();
    const row = await findCheckout(tx, checkoutId);
    if (!row || row.fulfilledAt) return;
    await markCheckout(tx, checkoutId, {
      status: 'complete',
      completedAt: row.completedAt ?? at,
      fulfilledAt: at,
    });
  }

  async function balance(userId: string): Promise<number | undefined> {
    return (await findSubscription(db, userId))?.credits;
  }

  /** Fulfils one of our checkouts if the provider says it is paid; safe to call any number of times. */
  async function fulfilCheckout(checkout: CheckoutRow): Promise<CheckoutOutcome> {
    const outcome = (status: CheckoutStatus, alreadyProcessed = false) => ({
      status,
      credits: checkout.credits,
      alreadyProcessed,
    });
    if (checkout.status === 'cancelled') return outcome('cancelled');
    if (checkout.fulfilledAt)
      return { ...outcome('complete', true), balance: await balance(checkout.userId) };
    if (!checkout.providerSessionId) return outcome('open');
    const session = await provider.getCheckout(checkout.providerSessionId);
    if (!session) return outcome('open');
    if (session.status === 'expired') {
      if (checkout.status === 'open') await markCheckout(db, checkout.id, { status: 'expired' });
      return outcome('expired');
    }
    if (session.status !== 'complete' || !session.paid) return outcome('open');
    if (session.checkoutId !== checkout.id || session.userId !== checkout.userId) {
      logger?.error(
        { checkoutId: checkout.id, providerSessionId: session.id },
        'provider session does not match our checkout; not fulfilling',
      );
      return outcome('open');
    }

    if (checkout.kind === 'pack') {
      const result = await ledger.transaction(async (tx) => {
        await lockSubscription(tx, checkout.userId);
        const granted = await grant(
          tx,
          checkout.userId,
          checkout.credits,
          'credit_pack',
          session.id,
        );
        if (session.customerId) {
          const row = await findSubscription(tx, checkout.userId);
          if (row && !row.providerCustomerId)
            await updateSubscription(tx, checkout.userId, {
              providerCustomerId: session.customerId,
            });
        }
        await markFulfilled(tx, checkout.id);
        return granted;
      });
      return { ...outcome('complete', result.duplicate), balance: result.balance };
    }

    if (!session.subscriptionId) return outcome('open');
    const subscription = await provider.getSubscription(session.subscriptionId);
    if (!subscription) return outcome('open');
    await applySubscription(checkout.userId, subscription, {
      invoiceIds: [session.invoiceId],
      checkoutId: checkout.id,
    });
    return { ...outcome('complete'), balance: await balance(checkout.userId) };
  }

  async function subscriptionChanged(subscriptionId: string, invoiceIds: string[] = []) {
    const subscription = await provider.getSubscription(subscriptionId);
    if (!subscription) return;
    const userId = await resolveUser(subscription);
    if (!userId) {
      logger?.warn({ subscriptionId }, 'subscription belongs to no user of ours; ignored');
      return;
    }
    await applySubscription(userId, subscription, { invoiceIds });
  }

  return {
    fulfilCheckout,

    /** checkout.session.completed (and expired): our checkout behind the provider's session. */
    async checkoutSessionChanged(providerSessionId: string): Promise<void> {
      let checkout = await findCheckoutByProviderSession(db, providerSessionId);
      if (!checkout) {
        const session = await provider.getCheckout(providerSessionId);
        if (session?.checkoutId) checkout = await findCheckout(db, session.checkoutId);
      }
      if (!checkout) {
        logger?.warn({ providerSessionId }, 'checkout session is not one of ours; ignored');
        return;
      }
      await fulfilCheckout(checkout);
    },

    /** invoice.paid: a first payment or a renewal. */
    async invoicePaid(invoiceId: string): Promise<void> {
      const invoice = await provider.getInvoice(invoiceId);
      if (!invoice?.paid || !invoice.subscriptionId) return;
      await subscriptionChanged(invoice.subscriptionId, [invoice.id]);
    },

    /** customer.subscription.created / updated / deleted, or any news about a subscription. */
    subscriptionChanged,

    /**
     * Re-reads everything the provider knows about the user: recent plan checkouts (a webhook may
     * be late or lost), then the current subscription and its latest invoice. Also grants the
     * yearly offer's months that have begun.
     */
    async resyncUser(userId: string): Promise<void> {
      for (const checkout of await unfulfilledPlanCheckouts(
        db,
        userId,
        new Date(now().getTime() - recentCheckoutWindowMs),
      )) {
        await fulfilCheckout(checkout);
      }
      const row = await findSubscription(db, userId);
      if (!row) return;
      let subscription = row.providerSubscriptionId
        ? await provider.getSubscription(row.providerSubscriptionId)
        : undefined;
      if (!subscription && row.providerCustomerId) {
        const candidates = await provider.listSubscriptions(row.providerCustomerId);
        subscription =
          candidates.find((candidate) => entitledStatuses.includes(candidate.status)) ??
          candidates[0];
      }
      if (subscription) await applySubscription(userId, subscription);
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
