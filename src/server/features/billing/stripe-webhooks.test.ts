import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingMessages } from '../../../common/messages/billing.ts';
import {
  type FakeStripe,
  type FakeStripeEvent,
  startFakeStripe,
} from '../../../../tests/fakes/stripe-api.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { paidBasicSubscription } from '../../../../tests/helpers/billing.ts';
import { deleteAccount, type SignedInUser, signUp } from '../../../../tests/helpers/users.ts';
import { billingEvents, creditLedger } from '../../db/schema/index.ts';
import { ledgerSum } from './ledger-repository.ts';

// Stripe's own price ids differ from ours; configuration maps one to the other.
const stripePrices = {
  STRIPE_PRICE_BASIC: { id: 'price_1Basic', unitAmount: 1900, interval: 'month' },
  STRIPE_PRICE_PRO: { id: 'price_1Pro', unitAmount: 4900, interval: 'month' },
  STRIPE_PRICE_PREMIUM: { id: 'price_1Premium', unitAmount: 7900, interval: 'month' },
  STRIPE_PRICE_ENTERPRISE: { id: 'price_1Enterprise', unitAmount: 6900, interval: 'month' },
  STRIPE_PRICE_YEARLY_PREMIUM: { id: 'price_1Yearly', unitAmount: 5900, interval: 'year' },
  STRIPE_PRICE_PACK_200: { id: 'price_1Pack200', unitAmount: 1900 },
  STRIPE_PRICE_PACK_500: { id: 'price_1Pack500', unitAmount: 3900 },
  STRIPE_PRICE_PACK_1500: { id: 'price_1Pack1500', unitAmount: 8900 },
  STRIPE_PRICE_PACK_3000: { id: 'price_1Pack3000', unitAmount: 16900 },
} as const;

let fake: FakeStripe;
let app: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe({ prices: Object.values(stripePrices) });
  app = await createTestApp({
    listen: true,
    env: {
      ...fake.env,
      ...Object.fromEntries(Object.entries(stripePrices).map(([name, price]) => [name, price.id])),
    },
  });
  fake.setWebhookUrl(`${app.url}/api/billing/webhook`);
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

type Json = Record<string, unknown>;

async function call(user: SignedInUser, method: 'GET' | 'POST', url: string, body?: Json) {
  const response = await app.app!.inject({
    method,
    url,
    headers: { ...user.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: body } : {}),
  });
  return { status: response.statusCode, body: response.json() as Json & { error?: Json } };
}

async function subscription(user: SignedInUser) {
  return (await call(user, 'GET', '/api/billing/subscription')).body;
}

/** Starts a checkout and answers the Stripe session it created. */
async function startCheckout(user: SignedInUser, endpoint: string, body: Json) {
  const started = await call(user, 'POST', endpoint, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(started.body.url as string)?.[1];
  expect(sessionId).toBeDefined();
  return sessionId!;
}

async function deliverAll(events: FakeStripeEvent[]) {
  for (const event of events) {
    const response = await fake.deliver(event);
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

/** A Basic subscriber, paid through Stripe with every webhook delivered once. */
async function basicSubscriber() {
  const user = await signUp(app);
  const sessionId = await startCheckout(user, '/api/billing/checkout', { priceId: 'price_basic' });
  await deliverAll(fake.pay(sessionId));
  const subscriptionId = fake.session(sessionId)!.subscription as string;
  return { user, sessionId, subscriptionId };
}

describe('Stripe checkout', () => {
  it('creates a session for the mapped price only, tied to the user, with the literal placeholder', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const request = fake.requests.findLast(
      (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions',
    )!;
    expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    // The version whose shapes the adapter reads, written out (not the SDK's default).
    expect(request.headers['stripe-version']).toBe('2026-10-28.endive');
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.headers['idempotency-key']).toMatch(/^checkout-chk_/);
    expect(request.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_1Pro', quantity: '1' }],
      success_url: `${app.config.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.config.publicUrl}/subscription?checkout=cancelled`,
      client_reference_id: user.id,
      customer_email: user.email,
      metadata: { kind: 'plan', userId: user.id },
      subscription_data: { metadata: { userId: user.id } },
    });
    // No amount is ever sent: Stripe prices the session from its own price.
    expect(JSON.stringify(request.params)).not.toMatch(/amount|unit_amount/);
    expect(fake.session(sessionId)!.amount_total).toBe(4900);
  });

  it('activates through the hosted page and its webhooks: Basic, 50 credits, active', async () => {
    const user = await signUp(app);
    const started = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_basic' });
    const page = await fetch(started.body.url as string, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const sessionId = /cs_test_[0-9a-f]+/.exec(started.body.url as string)![0];
    expect(page.headers.get('location')).toBe(
      `${app.config.publicUrl}/payment-success?session_id=${sessionId}`,
    );
    expect(await subscription(user)).toMatchObject({
      ...paidBasicSubscription,
      canManage: true,
    });
    // The return page's check finds it done and changes nothing.
    const checked = await call(user, 'POST', '/api/billing/check-subscription', { sessionId });
    expect(checked.body).toMatchObject({ active: true, tier: 'basic', credits: 50 });
  });

  it('answers 503 with a retryable message when Stripe fails', async () => {
    const user = await signUp(app);
    fake.failNext(3);
    const response = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_basic' });
    expect(response.status).toBe(503);
    expect(response.body.error).toEqual({
      code: 'UNAVAILABLE',
      message: billingMessages.providerUnavailable,
    });
  });
});

describe('Stripe webhooks', () => {
  it('grants once when the same event is delivered 10 times (in turn and at once)', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const events = fake.pay(sessionId);
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    for (let i = 0; i < 5; i += 1) expect((await fake.deliver(paid)).status).toBe(200);
    const parallel = await Promise.all(Array.from({ length: 5 }, () => fake.deliver(paid)));
    expect(parallel.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await subscription(user)).toMatchObject({ active: true, tier: 'pro', credits: 500 });
    const grants = await app.deps.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.id));
    expect(grants).toHaveLength(1);
    const [record] = await app.deps.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, paid.id));
    expect(record).toMatchObject({ type: 'invoice.paid', attempts: 10 });
    expect(record!.processedAt).not.toBeNull();
    // The other events of the same payment add nothing either.
    await deliverAll(events);
    expect((await subscription(user)).credits).toBe(500);
  });

  it('reaches the right state from events delivered out of order (newest first)', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/checkout', {
      priceId: 'price_basic',
    });
    const paid = fake.pay(sessionId);
    const subscriptionId = fake.session(sessionId)!.subscription as string;
    const cancelled = fake.setCancelAtPeriodEnd(subscriptionId, true);
    // cancellation first, then completion, invoice, creation: each re-reads Stripe.
    await deliverAll([...cancelled, ...paid].reverse());
    expect(await subscription(user)).toMatchObject({
      active: true,
      tier: 'basic',
      credits: 50,
      cancelAtPeriodEnd: true,
    });

    // The period ends; a stale "updated" (active) snapshot arrives after the deletion.
    const staleUpdate = fake.setCancelAtPeriodEnd(subscriptionId, true);
    const ended = fake.end(subscriptionId);
    await deliverAll([...ended, ...staleUpdate]);
    expect(await subscription(user)).toMatchObject({
      active: false,
      tier: 'none',
      status: 'canceled',
      credits: 50,
    });
  });

  it('switches plans from the portal and ignores a stale snapshot of the old price', async () => {
    const { user, subscriptionId } = await basicSubscriber();
    const oldSnapshot = fake.setCancelAtPeriodEnd(subscriptionId, false);
    const upgraded = fake.switchPrice(subscriptionId, 'price_1Premium');
    await deliverAll([...upgraded, ...oldSnapshot]);
    expect(await subscription(user)).toMatchObject({
      tier: 'premium',
      priceId: 'price_premium',
      credits: 2500,
    });
  });

  it('renews on invoice.paid: plan credits again and the free training back to 1', async () => {
    const { user, subscriptionId } = await basicSubscriber();
    await app.deps.database.db.transaction(async (tx) => {
      const { spendTraining } = await import('./ledger.ts');
      await spendTraining(tx, user.id, `model:stripe:${user.id}`);
    });
    expect(await subscription(user)).toMatchObject({ credits: 50, monthlyFreeTrainingsLeft: 0 });
    const renewal = fake.renew(subscriptionId);
    await deliverAll(renewal);
    await deliverAll(renewal);
    expect(await subscription(user)).toMatchObject({
      active: true,
      credits: 100,
      monthlyFreeTrainingsLeft: 1,
    });
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/checkout', {
      priceId: 'price_basic',
    });
    const events = fake.pay(sessionId);
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    const { default: Stripe } = await import('stripe');
    const payload = JSON.stringify(paid);
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_wrong',
    });
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: fake.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    for (const signature of ['t=1,v1=deadbeef', '', 'garbage', wrongSecret, stale]) {
      const response = await fake.deliver(paid, { signature });
      expect(response.status, signature).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'BAD_REQUEST',
      );
    }
    // A valid signature over other bytes (a tampered body) is refused too.
    const tampered = await fetch(`${app.url}/api/billing/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: fake.webhookSecret,
        }),
      },
      body: payload.replace('"paid"', '"open"'),
    });
    expect(tampered.status).toBe(400);
    expect(await subscription(user)).toMatchObject({ active: false, credits: 0 });
    const recorded = await app.deps.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, paid.id));
    expect(recorded).toHaveLength(0);
    // The genuine delivery still works afterwards.
    await deliverAll(events);
    expect(await subscription(user)).toMatchObject({ active: true, credits: 50 });
  });

  it('acknowledges event types it does not handle', async () => {
    const { user, subscriptionId } = await basicSubscriber();
    const [updated] = fake.setCancelAtPeriodEnd(subscriptionId, false);
    const response = await fake.deliver({ ...updated!, type: 'customer.created' });
    expect(response.status).toBe(200);
    expect((await subscription(user)).credits).toBe(50);
  });
});

describe('Stripe API version 2026-10-28.endive', () => {
  type Invoice = {
    subscription?: unknown;
    parent: { subscription_details: { subscription: string } };
  };
  type Subscription = {
    current_period_end?: unknown;
    items: { data: { current_period_start: number; current_period_end: number }[] };
  };

  it('grants once from invoices that name their subscription under parent, periods on items', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const events = fake.pay(sessionId);
    const subscriptionId = fake.session(sessionId)!.subscription as string;
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    const invoice = paid.data.object as unknown as Invoice;
    expect(invoice).not.toHaveProperty('subscription');
    expect(invoice.parent.subscription_details.subscription).toBe(subscriptionId);
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    const stripeSubscription = created.data.object as unknown as Subscription;
    expect(stripeSubscription).not.toHaveProperty('current_period_end');
    const [item] = stripeSubscription.items.data;

    // Every event twice, newest first, then at once, and the return page's check between.
    await deliverAll([...events].reverse());
    await call(user, 'POST', '/api/billing/check-subscription', { sessionId });
    await Promise.all(events.map((event) => fake.deliver(event)));
    const view = await subscription(user);
    expect(view).toMatchObject({ active: true, tier: 'pro', credits: 500, status: 'active' });
    // The period end comes from the item: the user sees when the plan renews.
    expect(view.currentPeriodEnd).toBe(new Date(item!.current_period_end * 1000).toISOString());
    const grants = () =>
      app.deps.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(await grants()).toHaveLength(1);

    // A renewal: one more grant, the new period read from the item again.
    const renewal = fake.renew(subscriptionId);
    await deliverAll(renewal);
    await deliverAll(renewal);
    const renewed = await subscription(user);
    expect(renewed.credits).toBe(1000);
    const period = (fake.subscription(subscriptionId) as unknown as Subscription).items.data[0]!;
    expect(renewed.currentPeriodEnd).toBe(new Date(period.current_period_end * 1000).toISOString());
    expect(await grants()).toHaveLength(2);
  });

  it('is refused by Stripe with customer and customer_email together; checkout sends one', async () => {
    const both = await fetch(`${fake.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fake.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        mode: 'payment',
        'line_items[0][price]': 'price_1Pack200',
        'line_items[0][quantity]': '1',
        success_url: 'https://example.test/ok',
        customer: 'cus_unknown',
        customer_email: 'someone@example.test',
      }),
    });
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        message: 'You may only specify one of these parameters: customer, customer_email.',
      },
    });

    // A subscriber (a known customer) buying a pack: Stripe accepts what we send.
    const { user } = await basicSubscriber();
    const response = await call(user, 'POST', '/api/billing/credit-checkout', {
      packId: 'pack_200',
    });
    expect(response.status).toBe(200);
    const sent = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.params;
    expect(sent.customer).toMatch(/^cus_/);
    expect(sent).not.toHaveProperty('customer_email');
  });
});

describe('Stripe packs, verification and portal', () => {
  it('adds a pack once, whether the return page or the webhook comes first', async () => {
    const { user } = await basicSubscriber();
    const sessionId = await startCheckout(user, '/api/billing/credit-checkout', {
      packId: 'pack_500',
    });
    const request = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.params).toMatchObject({
      mode: 'payment',
      line_items: [{ price: 'price_1Pack500', quantity: '1' }],
      success_url: `${app.config.publicUrl}/buy-credits?credit_success=true&session_id={CHECKOUT_SESSION_ID}&credits=500`,
      cancel_url: `${app.config.publicUrl}/buy-credits?checkout=cancelled`,
    });
    // A known customer is reused (the portal then shows every purchase), without the email
    // Stripe refuses beside it.
    expect(request.params.customer).toMatch(/^cus_/);
    expect(request.params).not.toHaveProperty('customer_email');

    const early = await call(user, 'POST', '/api/billing/verify-credit-purchase', { sessionId });
    expect(early.body).toMatchObject({ success: false, status: 'open', credits: 500 });

    const events = fake.pay(sessionId);
    const verified = await call(user, 'POST', '/api/billing/verify-credit-purchase', { sessionId });
    expect(verified.body).toEqual({
      success: true,
      alreadyProcessed: false,
      credits: 500,
      status: 'complete',
      balance: 550,
    });
    await deliverAll(events);
    await deliverAll(events);
    const again = await call(user, 'POST', '/api/billing/verify-credit-purchase', { sessionId });
    expect(again.body).toMatchObject({ success: true, alreadyProcessed: true, balance: 550 });
    expect(await ledgerSum(app.deps.database.db, user.id)).toBe(550);
  });

  it('re-syncs from Stripe when the webhooks never came (check-subscription)', async () => {
    const user = await signUp(app);
    const sessionId = await startCheckout(user, '/api/billing/yearly-checkout', {});
    const request = fake.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_1Yearly', quantity: '1' }],
      success_url: `${app.config.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}&offer=yearly`,
    });
    fake.pay(sessionId); // events lost
    expect(await subscription(user)).toMatchObject({ active: false });
    const checked = await call(user, 'POST', '/api/billing/check-subscription');
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      active: true,
      tier: 'premium',
      priceId: 'price_yearly_premium',
      credits: 200,
    });
    const foreign = await call(await signUp(app), 'POST', '/api/billing/check-subscription', {
      sessionId,
    });
    expect(foreign.status).toBe(404);
  });

  it('opens the Billing Portal for the customer, returning to the account page', async () => {
    const { user } = await basicSubscriber();
    const response = await call(user, 'POST', '/api/billing/portal');
    expect(response.status).toBe(200);
    expect(response.body.url).toMatch(/\/p\/session\/bps_/);
    const request = fake.requests.findLast((r) => r.path === '/v1/billing_portal/sessions')!;
    expect(request.params).toMatchObject({ return_url: `${app.config.publicUrl}/account` });
    const nobody = await call(await signUp(app), 'POST', '/api/billing/portal');
    expect(nobody.status).toBe(402);
  });

  it('has no test-mode endpoints with Stripe', async () => {
    const user = await signUp(app);
    expect((await call(user, 'POST', '/api/billing/test-clock/advance')).status).toBe(404);
    expect((await call(user, 'GET', '/api/billing/test-portal')).status).toBe(404);
  });

  it('cancels the Stripe subscription when the account is deleted', async () => {
    const { user, subscriptionId } = await basicSubscriber();
    const response = await deleteAccount(app, user);
    expect(response.statusCode).toBe(204);
    expect(fake.subscription(subscriptionId)!.status).toBe('canceled');
    expect(await ledgerSum(app.deps.database.db, user.id)).toBe(0);
  });
});
