import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  BillingSubscription,
  CheckoutStatus,
  LedgerResponse,
  RedirectResponse,
  TestCheckout,
  TestCheckoutResult,
  TestPortal,
  VerifyCreditPurchaseResponse,
} from '../../../common/api/billing.ts';
import { billingMessages } from '../../../common/messages/billing.ts';
import { creditsMessages } from '../../../common/messages/credits.ts';
import { commonMessages } from '../../../common/messages/shell.ts';
import { creditPackById } from '../../../common/product/credit-packs.ts';
import { CURRENCY, usdToCents } from '../../../common/product/money.ts';
import {
  PLANS_ON_SALE,
  type PriceId,
  isPriceId,
  planByPriceId,
  priceIds,
  yearlyOffer,
} from '../../../common/product/plans.ts';
import { routes, subscriptionFrom, withCheckoutCancelled } from '../../../common/product/routes.ts';
import {
  type BillingProvider,
  BillingProviderError,
  type CheckoutKind,
  entitledStatuses,
} from '../../adapters/billing/billing-provider.ts';
import type {
  LocalBillingNews,
  LocalBillingProvider,
} from '../../adapters/billing/local-billing.ts';
import type { StripeBillingProvider } from '../../adapters/billing/stripe-billing.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { SessionUser } from '../auth/authenticate.ts';
import type { AccountDeletionParticipant } from '../account/service.ts';
import type { Fulfilment } from './fulfilment.ts';
import { requireActiveSubscription } from './gates.ts';
import type { CreditLedger } from './ledger.ts';
import { applyBalanceChange } from './ledger-repository.ts';
import {
  type CheckoutRow,
  ensureSubscription,
  findSubscription,
  findUserCheckout,
  insertCheckout,
  markCheckout,
  markEventProcessed,
  recordEvent,
  setProviderSessionId,
} from './repository.ts';
import { toBillingSubscription } from './subscription-view.ts';

/** Stripe fills this in on the success URL; the test-mode provider does the same. */
export const checkoutSessionIdPlaceholder = '{CHECKOUT_SESSION_ID}';

interface CheckoutProduct {
  kind: CheckoutKind;
  productId: string;
  credits: number;
  priceUsd: number;
  title: string;
  interval: 'month' | 'year' | null;
}

export interface BillingServiceDeps {
  db: Database;
  publicUrl: string;
  provider: BillingProvider;
  ledger: CreditLedger;
  fulfilment: Fulfilment;
  logger?: FastifyBaseLogger;
}

/** The billing rules behind the routes: what may be bought, by whom, and where they go next. */
export function createBillingService(deps: BillingServiceDeps) {
  const { db, publicUrl, provider, ledger, fulfilment, logger } = deps;

  const url = (path: string) => `${publicUrl}${path}`;

  async function subscriptionRow(userId: string) {
    await ensureSubscription(db, userId);
    const row = await findSubscription(db, userId);
    if (!row) throw new Error(`subscription of ${userId} vanished`);
    return row;
  }

  /** Provider failures become a 503 the user can retry; our own bugs stay 500s. */
  async function withProvider<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof BillingProviderError) {
        logger?.error({ err: error }, 'payment provider call failed');
        throw new AppError('UNAVAILABLE', billingMessages.providerUnavailable);
      }
      throw error;
    }
  }

  function planProduct(priceId: PriceId): CheckoutProduct {
    const plan = planByPriceId(priceId)!;
    return {
      kind: priceId === priceIds.yearlyPremium ? 'yearly' : 'plan',
      productId: priceId,
      credits: plan.monthlyCredits,
      priceUsd: plan.priceUsd,
      title: plan.title,
      interval: plan.interval,
    };
  }

  async function startCheckout(
    user: SessionUser,
    product: CheckoutProduct,
    successUrl: string,
    cancelPath: string,
  ): Promise<RedirectResponse> {
    const checkoutId = `chk_${randomBytes(16).toString('base64url')}`;
    // The page Cancel returns to says that the checkout was left (and nothing charged).
    const cancelUrl = url(withCheckoutCancelled(cancelPath));
    const row = await subscriptionRow(user.id);
    await insertCheckout(db, {
      id: checkoutId,
      userId: user.id,
      provider: provider.kind,
      kind: product.kind,
      productId: product.productId,
      credits: product.credits,
      amountCents: usdToCents(product.priceUsd),
      currency: CURRENCY,
      successUrl,
      cancelUrl,
    });
    try {
      const created = await withProvider(() =>
        provider.createCheckout({
          checkoutId,
          userId: user.id,
          email: user.email,
          kind: product.kind,
          productId: product.productId,
          customerId: row.providerCustomerId ?? undefined,
          successUrl,
          cancelUrl,
        }),
      );
      await setProviderSessionId(db, checkoutId, created.providerSessionId);
      return { url: created.url };
    } catch (error) {
      await markCheckout(db, checkoutId, { status: 'cancelled' });
      throw error;
    }
  }

  /**
   * A subscriber does not get a second subscription: the same plan is refused, another plan
   * (or resuming a cancelled one) is changed in the portal, where the provider prorates it.
   */
  async function portalInsteadOfCheckout(
    user: SessionUser,
    priceId: PriceId,
    returnPath: string,
  ): Promise<RedirectResponse | undefined> {
    const row = await subscriptionRow(user.id);
    if (!row.active || !row.providerSubscriptionId || !row.providerCustomerId) return undefined;
    if (row.priceId === priceId && !row.cancelAtPeriodEnd)
      throw new AppError('CONFLICT', billingMessages.alreadySubscribed);
    return withProvider(() => provider.createPortal(row.providerCustomerId!, url(returnPath)));
  }

  function ownCheckout(user: SessionUser, sessionId: string): Promise<CheckoutRow | undefined> {
    return findUserCheckout(db, user.id, sessionId);
  }

  function localControls() {
    if (provider.kind !== 'local') throw notFound(commonMessages.notFoundResource);
    return (provider as LocalBillingProvider).controls;
  }

  /** Test mode: hands the provider's news to fulfilment, as Stripe's webhooks would. */
  async function deliverNews(news: LocalBillingNews[]): Promise<void> {
    for (const item of news) {
      if (item.type === 'invoice.paid') await fulfilment.invoicePaid(item.invoiceId);
      else await fulfilment.subscriptionChanged(item.subscriptionId);
    }
  }

  async function localCheckout(user: SessionUser, id: string): Promise<CheckoutRow> {
    localControls();
    const row = await ownCheckout(user, id);
    if (!row || row.provider !== 'local') throw notFound(commonMessages.notFoundResource);
    return row;
  }

  async function view(userId: string): Promise<BillingSubscription> {
    return toBillingSubscription(await subscriptionRow(userId));
  }

  async function currentLocalSubscription(userId: string): Promise<string> {
    localControls();
    const row = await subscriptionRow(userId);
    if (!row.providerSubscriptionId || !entitledStatuses.includes(row.status))
      throw new AppError('SUBSCRIPTION_REQUIRED', billingMessages.noSubscriptionToManage);
    return row.providerSubscriptionId;
  }

  async function testPortalView(userId: string, returnPath: string): Promise<TestPortal> {
    const subscription = await view(userId);
    return {
      subscription,
      plans: PLANS_ON_SALE.map((plan) => ({
        priceId: plan.priceId,
        title: plan.title,
        priceUsd: plan.priceUsd,
        interval: plan.interval,
        monthlyCredits: plan.monthlyCredits,
        current: subscription.active && subscription.priceId === plan.priceId,
      })),
      returnUrl: url(returnPath),
    };
  }

  return {
    async subscription(user: SessionUser): Promise<BillingSubscription> {
      return view(user.id);
    },

    /** A plan (or the yearly offer) by our price id; the success page verifies it on return. */
    async checkout(
      user: SessionUser,
      body: { priceId: string; from?: string | undefined; returnPath?: string | undefined },
    ): Promise<RedirectResponse> {
      // Enterprise is a tier an operator assigns, never bought (specification README).
      if (!isPriceId(body.priceId) || body.priceId === priceIds.enterprise)
        throw new AppError('BAD_REQUEST', billingMessages.invalidPlan(body.priceId));
      if (body.priceId === priceIds.basic && body.from === subscriptionFrom.customPrompt)
        throw new AppError('BAD_REQUEST', billingMessages.basicNoCustomPrompts);
      const product = planProduct(body.priceId);
      const cancelPath =
        body.returnPath ??
        (body.from
          ? `${routes.subscription}?from=${encodeURIComponent(body.from)}`
          : routes.subscription);
      const portal = await portalInsteadOfCheckout(user, body.priceId, cancelPath);
      if (portal) return portal;
      const offer = product.kind === 'yearly' ? '&offer=yearly' : '';
      return startCheckout(
        user,
        product,
        url(`${routes.paymentSuccess}?session_id=${checkoutSessionIdPlaceholder}${offer}`),
        cancelPath,
      );
    },

    /** The yearly offer (signup with offer=yearly, the quiz's offer page). */
    async yearlyCheckout(
      user: SessionUser,
      body: { returnPath?: string | undefined } = {},
    ): Promise<RedirectResponse> {
      const cancelPath = body.returnPath ?? routes.subscription;
      const portal = await portalInsteadOfCheckout(user, yearlyOffer.priceId, cancelPath);
      if (portal) return portal;
      return startCheckout(
        user,
        planProduct(yearlyOffer.priceId),
        url(`${routes.paymentSuccess}?session_id=${checkoutSessionIdPlaceholder}&offer=yearly`),
        cancelPath,
      );
    },

    /** A credit pack; subscribers only. */
    async creditCheckout(
      user: SessionUser,
      body: { packId: string; returnPath?: string | undefined },
    ): Promise<RedirectResponse> {
      const pack = creditPackById(body.packId);
      if (!pack) throw new AppError('BAD_REQUEST', creditsMessages.invalidPack(body.packId));
      requireActiveSubscription(await subscriptionRow(user.id), creditsMessages.subscribeFirst);
      return startCheckout(
        user,
        {
          kind: 'pack',
          productId: pack.id,
          credits: pack.credits,
          priceUsd: pack.priceUsd,
          title: creditsMessages.packCredits(pack.credits),
          interval: null,
        },
        url(
          `${routes.buyCredits}?credit_success=true&session_id=${checkoutSessionIdPlaceholder}&credits=${pack.credits}`,
        ),
        body.returnPath ?? routes.buyCredits,
      );
    },

    /** The credit purchase return page: adds the pack's credits if paid (once). */
    async verifyCreditPurchase(
      user: SessionUser,
      sessionId: string,
    ): Promise<VerifyCreditPurchaseResponse> {
      const checkout = await ownCheckout(user, sessionId);
      if (!checkout || checkout.kind !== 'pack') throw notFound(commonMessages.notFoundResource);
      const outcome = await withProvider(() => fulfilment.fulfilCheckout(checkout));
      return {
        success: outcome.status === 'complete',
        alreadyProcessed: outcome.alreadyProcessed,
        credits: outcome.credits,
        status: outcome.status,
        ...(outcome.balance === undefined ? {} : { balance: outcome.balance }),
      };
    },

    /** Re-reads the subscription from the provider (and fulfils a returned checkout), then answers it. */
    async checkSubscription(
      user: SessionUser,
      sessionId: string | undefined,
    ): Promise<BillingSubscription> {
      if (sessionId) {
        const checkout = await ownCheckout(user, sessionId);
        if (!checkout) throw notFound(commonMessages.notFoundResource);
        await withProvider(() => fulfilment.fulfilCheckout(checkout));
      }
      await withProvider(() => fulfilment.resyncUser(user.id));
      return view(user.id);
    },

    async portal(user: SessionUser, returnPath: string | undefined): Promise<RedirectResponse> {
      const row = await subscriptionRow(user.id);
      if (!row.providerCustomerId)
        throw new AppError('SUBSCRIPTION_REQUIRED', billingMessages.noSubscriptionToManage);
      return withProvider(() =>
        provider.createPortal(row.providerCustomerId!, url(returnPath ?? routes.account)),
      );
    },

    async history(
      user: SessionUser,
      cursor: string | undefined,
      limit: number,
    ): Promise<LedgerResponse> {
      const page = await ledger.history(user.id, cursor ? Number(cursor) : undefined, limit);
      return {
        entries: page.entries.map((entry) => ({
          id: String(entry.id),
          delta: entry.delta,
          freeTrainingsDelta: entry.freeTrainingsDelta,
          balanceAfter: entry.balanceAfter,
          reason: entry.reason,
          reference: entry.reference,
          note: entry.note,
          createdAt: entry.createdAt.toISOString(),
        })),
        nextCursor: page.hasMore ? String(page.entries.at(-1)!.id) : null,
      };
    },

    /** Stripe's webhook: verified, recorded by event id, processed once. */
    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
      if (provider.kind !== 'stripe') throw notFound();
      const event = (provider as StripeBillingProvider).parseWebhook(rawBody, signature);
      const objectId = event.objectId;
      const fresh = await recordEvent(db, {
        id: event.id,
        provider: 'stripe',
        type: event.type,
        objectId,
      });
      if (!fresh) return;
      if (objectId) {
        switch (event.type) {
          case 'checkout.session.completed':
          case 'checkout.session.async_payment_succeeded':
          case 'checkout.session.expired':
            await fulfilment.checkoutSessionChanged(objectId);
            break;
          case 'invoice.paid':
            await fulfilment.invoicePaid(objectId);
            break;
          case 'customer.subscription.created':
          case 'customer.subscription.updated':
          case 'customer.subscription.deleted':
            await fulfilment.subscriptionChanged(objectId);
            break;
          default:
            break;
        }
      }
      await markEventProcessed(db, event.id);
    },

    // -------------------------------------------------------------------------------------------
    // Test mode (BILLING=local): the built-in checkout page, portal and test clock
    // -------------------------------------------------------------------------------------------

    async testCheckout(user: SessionUser, id: string): Promise<TestCheckout> {
      const row = await localCheckout(user, id);
      const plan = planByPriceId(row.productId);
      return {
        id: row.id,
        kind: row.kind as CheckoutKind,
        title: plan?.title ?? creditsMessages.packCredits(row.credits),
        priceUsd: row.amountCents / 100,
        interval: plan?.interval ?? null,
        credits: row.credits,
        status: row.status as CheckoutStatus,
        email: user.email,
      };
    },

    /** The Pay button: the provider completes the session, then fulfilment runs as a webhook would. */
    async payTestCheckout(user: SessionUser, id: string): Promise<TestCheckoutResult> {
      const row = await localCheckout(user, id);
      if (row.status !== 'open' && row.status !== 'complete')
        throw new AppError('CONFLICT', billingMessages.checkoutClosed);
      await deliverNews(await localControls().pay(row.id));
      const fresh = await ownCheckout(user, row.id);
      if (fresh) await fulfilment.fulfilCheckout(fresh);
      return {
        redirectUrl: row.successUrl.replace(
          checkoutSessionIdPlaceholder,
          encodeURIComponent(row.providerSessionId ?? row.id),
        ),
      };
    },

    async cancelTestCheckout(user: SessionUser, id: string): Promise<TestCheckoutResult> {
      const row = await localCheckout(user, id);
      if (row.status === 'complete') throw new AppError('CONFLICT', billingMessages.checkoutClosed);
      await localControls().cancel(row.id);
      return { redirectUrl: row.cancelUrl };
    },

    async testPortal(user: SessionUser, returnPath: string | undefined): Promise<TestPortal> {
      localControls();
      return testPortalView(user.id, returnPath ?? routes.account);
    },

    async testPortalSwitch(user: SessionUser, priceId: string): Promise<TestPortal> {
      const plan = PLANS_ON_SALE.find((candidate) => candidate.priceId === priceId);
      if (!plan) throw new AppError('BAD_REQUEST', billingMessages.invalidPlan(priceId));
      const subscriptionId = await currentLocalSubscription(user.id);
      await deliverNews(await localControls().switchPrice(subscriptionId, plan.priceId));
      return testPortalView(user.id, routes.account);
    },

    async testPortalCancel(user: SessionUser, cancel: boolean): Promise<TestPortal> {
      const subscriptionId = await currentLocalSubscription(user.id);
      await deliverNews(await localControls().setCancelAtPeriodEnd(subscriptionId, cancel));
      return testPortalView(user.id, routes.account);
    },

    /** Test clock: runs the subscription's next renewal (or its end) exactly as invoice.paid would. */
    async advanceTestClock(user: SessionUser): Promise<BillingSubscription> {
      const subscriptionId = await currentLocalSubscription(user.id);
      await deliverNews(await localControls().advance(subscriptionId));
      return view(user.id);
    },

    /**
     * Account deletion: the provider subscription ends now (nobody is charged for an account
     * that no longer exists) and the unused credits are written off with one closing ledger
     * row, so the kept books still add up. Ledger, checkout and event rows stay (bookkeeping
     * law), keyed by the opaque user id only; photos and everything personal go with the account.
     */
    deletionParticipant: {
      name: 'billing',
      async beforeDelete(tx: Executor, userId: string) {
        const row = await findSubscription(tx, userId);
        if (!row) return;
        if (row.providerSubscriptionId && entitledStatuses.includes(row.status))
          await withProvider(() => provider.cancelNow(row.providerSubscriptionId!, tx));
        if (row.credits > 0 || row.monthlyFreeTrainingsLeft > 0)
          await applyBalanceChange(tx, {
            userId,
            delta: -row.credits,
            freeTrainingsDelta: -row.monthlyFreeTrainingsLeft,
            reason: 'account_deleted',
            reference: `account:${userId}`,
          });
      },
    } satisfies AccountDeletionParticipant,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
