import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { type PriceId, isPriceId, planByPriceId } from '../../../common/product/plans.ts';
import type { Database, Executor } from '../../db/client.ts';
import {
  checkoutSessions,
  localBillingInvoices,
  localBillingSubscriptions,
} from '../../db/schema/index.ts';
import type {
  BillingProvider,
  CreateCheckoutInput,
  ProviderCheckout,
  ProviderInvoice,
  ProviderSubscription,
} from './billing-provider.ts';
import { addInterval, addMonths } from './periods.ts';

/**
 * What happened at the provider after a test-mode action: the same news a Stripe webhook would
 * bring, which the billing service then fulfils through the one fulfilment path.
 */
export type LocalBillingNews =
  | { type: 'invoice.paid'; invoiceId: string }
  | { type: 'subscription.updated'; subscriptionId: string };

/** The test-mode provider's controls, standing in for Stripe's hosted pages and test clocks. */
export interface LocalBillingControls {
  /** The test checkout page's Pay button: the session completes and, for plans, a subscription starts. */
  pay(checkoutId: string): Promise<LocalBillingNews[]>;
  /** The test checkout page's Cancel link. */
  cancel(checkoutId: string): Promise<void>;
  switchPrice(subscriptionId: string, priceId: PriceId): Promise<LocalBillingNews[]>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<LocalBillingNews[]>;
  /**
   * Moves the subscription's clock to its next event: the end of the period (renewal, or the end
   * of a subscription cancelled at period end) or, on the yearly offer, the next monthly grant.
   */
  advance(subscriptionId: string): Promise<LocalBillingNews[]>;
}

export interface LocalBillingProvider extends BillingProvider {
  readonly kind: 'local';
  readonly controls: LocalBillingControls;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const customerIdOf = (userId: string) => `cus_local_${userId}`;
const liveStatuses = ['active', 'trialing', 'past_due'];

export function createLocalBillingProvider(options: {
  db: Database;
  publicUrl: string;
  now?: () => Date;
}): LocalBillingProvider {
  const { db, publicUrl } = options;
  const now = options.now ?? (() => new Date());

  async function subscriptionRow(tx: Executor, subscriptionId: string) {
    const [row] = await tx
      .select()
      .from(localBillingSubscriptions)
      .where(eq(localBillingSubscriptions.id, subscriptionId));
    return row;
  }

  function toSubscription(
    row: typeof localBillingSubscriptions.$inferSelect,
  ): ProviderSubscription {
    return {
      id: row.id,
      customerId: row.customerId,
      userId: row.userId,
      priceId: isPriceId(row.priceId) ? row.priceId : undefined,
      status: row.status,
      currentPeriodStart: row.currentPeriodStart,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      latestInvoiceId: row.latestInvoiceId ?? undefined,
      clock: row.clockAt,
    };
  }

  async function issueInvoice(
    tx: Executor,
    subscriptionId: string,
    priceId: string,
    reason: 'subscription_create' | 'subscription_cycle',
    periodStart: Date,
    periodEnd: Date,
  ): Promise<string> {
    const invoiceId = id('in_local');
    await tx.insert(localBillingInvoices).values({
      id: invoiceId,
      subscriptionId,
      priceId,
      billingReason: reason,
      periodStart,
      periodEnd,
      paidAt: now(),
    });
    return invoiceId;
  }

  /** Changes a subscription that is still live; news of each one changed. */
  async function updateLive(
    subscriptionId: string,
    change: Partial<typeof localBillingSubscriptions.$inferInsert>,
  ): Promise<LocalBillingNews[]> {
    const updated = await db
      .update(localBillingSubscriptions)
      .set(change)
      .where(
        and(
          eq(localBillingSubscriptions.id, subscriptionId),
          inArray(localBillingSubscriptions.status, liveStatuses),
        ),
      )
      .returning({ id: localBillingSubscriptions.id });
    return updated.map((row) => ({ type: 'subscription.updated', subscriptionId: row.id }));
  }

  const controls: LocalBillingControls = {
    async pay(checkoutId) {
      return db.transaction(async (tx) => {
        const [checkout] = await tx
          .select()
          .from(checkoutSessions)
          .where(eq(checkoutSessions.id, checkoutId))
          .for('update');
        if (!checkout || checkout.status !== 'open') return [];
        await tx
          .update(checkoutSessions)
          .set({ status: 'complete', completedAt: now() })
          .where(eq(checkoutSessions.id, checkoutId));
        if (checkout.kind === 'pack') return [];
        const product = planByPriceId(checkout.productId);
        if (!product) throw new Error(`checkout ${checkoutId} sells unknown ${checkout.productId}`);
        // One live subscription per customer: a second paid checkout replaces the first.
        const customerId = customerIdOf(checkout.userId);
        const replaced = await tx
          .update(localBillingSubscriptions)
          .set({ status: 'canceled', endedAt: now() })
          .where(
            and(
              eq(localBillingSubscriptions.customerId, customerId),
              inArray(localBillingSubscriptions.status, liveStatuses),
            ),
          )
          .returning({ id: localBillingSubscriptions.id });
        const subscriptionId = `sub_local_${checkoutId}`;
        const start = now();
        const end = addInterval(start, product.interval);
        await tx.insert(localBillingSubscriptions).values({
          id: subscriptionId,
          userId: checkout.userId,
          customerId,
          priceId: product.priceId,
          status: 'active',
          currentPeriodStart: start,
          currentPeriodEnd: end,
          clockAt: start,
        });
        const invoiceId = await issueInvoice(
          tx,
          subscriptionId,
          product.priceId,
          'subscription_create',
          start,
          end,
        );
        await tx
          .update(localBillingSubscriptions)
          .set({ latestInvoiceId: invoiceId })
          .where(eq(localBillingSubscriptions.id, subscriptionId));
        return [
          ...replaced.map((row) => ({
            type: 'subscription.updated' as const,
            subscriptionId: row.id,
          })),
          { type: 'invoice.paid' as const, invoiceId },
        ];
      });
    },

    async cancel(checkoutId) {
      await db
        .update(checkoutSessions)
        .set({ status: 'cancelled' })
        .where(and(eq(checkoutSessions.id, checkoutId), eq(checkoutSessions.status, 'open')));
    },

    switchPrice: (subscriptionId, priceId) => updateLive(subscriptionId, { priceId }),

    setCancelAtPeriodEnd: (subscriptionId, cancel) =>
      updateLive(subscriptionId, { cancelAtPeriodEnd: cancel }),

    async advance(subscriptionId) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(localBillingSubscriptions)
          .where(eq(localBillingSubscriptions.id, subscriptionId))
          .for('update');
        if (!row || !liveStatuses.includes(row.status)) return [];
        const product = planByPriceId(row.priceId);
        // The yearly offer grants monthly: its clock stops at each month within the year.
        if (product?.interval === 'year') {
          for (let month = 1; month < 12; month += 1) {
            const boundary = addMonths(row.currentPeriodStart, month);
            if (boundary > row.clockAt) {
              await tx
                .update(localBillingSubscriptions)
                .set({ clockAt: boundary })
                .where(eq(localBillingSubscriptions.id, subscriptionId));
              return [{ type: 'subscription.updated', subscriptionId } as const];
            }
          }
        }
        const periodEnd = row.currentPeriodEnd;
        if (row.cancelAtPeriodEnd) {
          await tx
            .update(localBillingSubscriptions)
            .set({ status: 'canceled', clockAt: periodEnd, endedAt: periodEnd })
            .where(eq(localBillingSubscriptions.id, subscriptionId));
          return [{ type: 'subscription.updated', subscriptionId } as const];
        }
        const nextEnd = addInterval(periodEnd, product?.interval ?? 'month');
        const invoiceId = await issueInvoice(
          tx,
          subscriptionId,
          row.priceId,
          'subscription_cycle',
          periodEnd,
          nextEnd,
        );
        await tx
          .update(localBillingSubscriptions)
          .set({
            currentPeriodStart: periodEnd,
            currentPeriodEnd: nextEnd,
            clockAt: periodEnd,
            latestInvoiceId: invoiceId,
          })
          .where(eq(localBillingSubscriptions.id, subscriptionId));
        return [{ type: 'invoice.paid', invoiceId } as const];
      });
    },
  };

  return {
    kind: 'local',
    controls,

    async createCheckout(input: CreateCheckoutInput) {
      // The checkout row the billing service wrote is this provider's session too.
      return {
        providerSessionId: input.checkoutId,
        url: `${publicUrl}/test-checkout/${encodeURIComponent(input.checkoutId)}`,
      };
    },

    async getCheckout(providerSessionId): Promise<ProviderCheckout | undefined> {
      const [row] = await db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, providerSessionId));
      if (!row) return undefined;
      const subscription =
        row.kind === 'pack' ? undefined : await subscriptionRow(db, `sub_local_${row.id}`);
      return {
        id: row.id,
        status: row.status === 'complete' ? 'complete' : row.status === 'open' ? 'open' : 'expired',
        paid: row.status === 'complete',
        checkoutId: row.id,
        userId: row.userId,
        customerId: row.status === 'complete' ? customerIdOf(row.userId) : undefined,
        subscriptionId: subscription?.id,
        invoiceId: subscription
          ? (
              await db
                .select({ id: localBillingInvoices.id })
                .from(localBillingInvoices)
                .where(
                  and(
                    eq(localBillingInvoices.subscriptionId, subscription.id),
                    eq(localBillingInvoices.billingReason, 'subscription_create'),
                  ),
                )
            )[0]?.id
          : undefined,
      };
    },

    async getSubscription(subscriptionId) {
      const row = await subscriptionRow(db, subscriptionId);
      return row ? toSubscription(row) : undefined;
    },

    async listSubscriptions(customerId) {
      const rows = await db
        .select()
        .from(localBillingSubscriptions)
        .where(eq(localBillingSubscriptions.customerId, customerId))
        .orderBy(desc(localBillingSubscriptions.createdAt));
      return rows.map(toSubscription);
    },

    async getInvoice(invoiceId): Promise<ProviderInvoice | undefined> {
      const [row] = await db
        .select()
        .from(localBillingInvoices)
        .where(eq(localBillingInvoices.id, invoiceId));
      if (!row) return undefined;
      return {
        id: row.id,
        subscriptionId: row.subscriptionId,
        paid: true,
        billingReason: row.billingReason === 'subscription_create' ? 'create' : 'cycle',
        periodStart: row.periodStart,
        priceId: isPriceId(row.priceId) ? row.priceId : undefined,
      };
    },

    async createPortal(_customerId, returnUrl) {
      // The test portal is a page of this site: it carries the way back as a path.
      const back = new URL(returnUrl);
      const path = `${back.pathname}${back.search}`;
      return { url: `${publicUrl}/test-portal?return=${encodeURIComponent(path)}` };
    },

    async cancelNow(subscriptionId, within) {
      await (within ?? db)
        .update(localBillingSubscriptions)
        .set({ status: 'canceled', endedAt: now(), cancelAtPeriodEnd: false })
        .where(eq(localBillingSubscriptions.id, subscriptionId));
    },
  };
}
