import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../common/api/events.ts';
import { billingMessages } from '../../../common/messages/billing.ts';
import { creditsMessages } from '../../../common/messages/credits.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { paidBasicSubscription } from '../../../../tests/helpers/billing.ts';
import { deleteAccount, type SignedInUser, signUp } from '../../../../tests/helpers/users.ts';
import {
  checkoutSessions,
  creditLedger,
  localBillingSubscriptions,
  subscriptions,
} from '../../db/schema/index.ts';
import { spend, spendTraining } from './ledger.ts';
import { ledgerSum } from './ledger-repository.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

type Json = Record<string, unknown>;

async function call(
  user: SignedInUser | undefined,
  method: 'GET' | 'POST',
  url: string,
  body?: Json,
) {
  const response = await app.app!.inject({
    method,
    url,
    headers: {
      origin: app.origin,
      ...(user?.headers ?? {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { payload: body } : {}),
  });
  return { status: response.statusCode, body: response.json() as Json & { error?: Json } };
}

const checkoutIdOf = (url: string) => {
  const match = /\/test-checkout\/([^/?]+)$/.exec(url);
  if (!match) throw new Error(`not a test checkout URL: ${url}`);
  return decodeURIComponent(match[1]!);
};

/** Checkout → the test checkout page's Pay → the URL the browser lands on. */
async function buy(user: SignedInUser, endpoint: string, body?: Json) {
  const started = await call(user, 'POST', endpoint, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = checkoutIdOf(started.body.url as string);
  const paid = await call(user, 'POST', `/api/billing/test-checkout/${id}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { id, redirectUrl: paid.body.redirectUrl as string };
}

async function subscription(user: SignedInUser) {
  return (await call(user, 'GET', '/api/billing/subscription')).body;
}

async function advance(user: SignedInUser) {
  const response = await call(user, 'POST', '/api/billing/test-clock/advance');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('local checkout (BILLING=local)', () => {
  it('subscribes to Basic: active, tier basic, 50 credits, one free training', async () => {
    const user = await signUp(app);
    const received: AppEvent[] = [];
    const stop = app.deps.events.subscribe(user.id, (event) => received.push(event));

    const started = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_basic' });
    expect(started.status).toBe(200);
    expect(started.body.url).toMatch(/^http:\/\/localhost:3000\/test-checkout\/chk_/);
    const id = checkoutIdOf(started.body.url as string);

    const page = await call(user, 'GET', `/api/billing/test-checkout/${id}`);
    expect(page.body).toMatchObject({
      id,
      kind: 'plan',
      title: 'Basic',
      priceUsd: 19,
      interval: 'month',
      credits: 50,
      status: 'open',
      email: user.email,
    });

    const paid = await call(user, 'POST', `/api/billing/test-checkout/${id}/pay`);
    expect(paid.body.redirectUrl).toBe(`http://localhost:3000/payment-success?session_id=${id}`);

    const checked = await call(user, 'POST', '/api/billing/check-subscription', { sessionId: id });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      ...paidBasicSubscription,
      planTitle: 'Basic',
      interval: 'month',
      cancelAtPeriodEnd: false,
      canManage: true,
    });
    expect(checked.body.currentPeriodEnd).toEqual(expect.any(String));
    const me = await call(user, 'GET', '/api/me');
    expect(me.body.subscription).toEqual({
      active: true,
      tier: 'basic',
      credits: 50,
      monthlyFreeTrainingsLeft: 1,
    });

    await expect
      .poll(() => received.some((e) => e.type === 'subscription.updated' && e.data.credits === 50))
      .toBe(true);
    stop();

    // Paying again (a double click) neither fails nor grants twice.
    const again = await call(user, 'POST', `/api/billing/test-checkout/${id}/pay`);
    expect(again.status).toBe(200);
    expect((await subscription(user)).credits).toBe(50);
  });

  it('buys the 200 pack on top (250), verified once, on the spec return URL', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_basic' });
    const { id, redirectUrl } = await buy(user, '/api/billing/credit-checkout', {
      packId: 'pack_200',
    });
    expect(redirectUrl).toBe(
      `http://localhost:3000/buy-credits?credit_success=true&session_id=${id}&credits=200`,
    );
    const verified = await call(user, 'POST', '/api/billing/verify-credit-purchase', {
      sessionId: id,
    });
    expect(verified.body).toEqual({
      success: true,
      alreadyProcessed: true,
      credits: 200,
      status: 'complete',
      balance: 250,
    });
    const twice = await call(user, 'POST', '/api/billing/verify-credit-purchase', {
      sessionId: id,
    });
    expect(twice.body).toMatchObject({ success: true, alreadyProcessed: true, balance: 250 });
    expect((await subscription(user)).credits).toBe(250);
    expect(await ledgerSum(app.deps.database.db, user.id)).toBe(250);
  });

  it('reports an unpaid pack as open and a cancelled one as cancelled', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const started = await call(user, 'POST', '/api/billing/credit-checkout', {
      packId: 'pack_500',
    });
    const id = checkoutIdOf(started.body.url as string);
    const pending = await call(user, 'POST', '/api/billing/verify-credit-purchase', {
      sessionId: id,
    });
    expect(pending.body).toMatchObject({ success: false, status: 'open', credits: 500 });
    const cancelled = await call(user, 'POST', `/api/billing/test-checkout/${id}/cancel`);
    expect(cancelled.body.redirectUrl).toBe('http://localhost:3000/buy-credits?checkout=cancelled');
    const after = await call(user, 'POST', '/api/billing/verify-credit-purchase', {
      sessionId: id,
    });
    expect(after.body).toMatchObject({ success: false, status: 'cancelled' });
    const pay = await call(user, 'POST', `/api/billing/test-checkout/${id}/pay`);
    expect(pay.status).toBe(409);
    expect((await subscription(user)).credits).toBe(500);
  });

  it('cancels in the portal: active until the period ends, inactive after the advance, credits kept', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_basic' });
    await buy(user, '/api/billing/credit-checkout', { packId: 'pack_200' });

    const portal = await call(user, 'POST', '/api/billing/portal');
    expect(portal.body.url).toBe('http://localhost:3000/test-portal?return=%2Faccount');
    const view = await call(user, 'GET', '/api/billing/test-portal?return=/account');
    expect(view.body.returnUrl).toBe('http://localhost:3000/account');
    expect((view.body.plans as Json[]).map((p) => [p.priceId, p.current])).toEqual([
      ['price_basic', true],
      ['price_pro', false],
      ['price_premium', false],
    ]);

    const cancelled = await call(user, 'POST', '/api/billing/test-portal/cancel');
    expect(cancelled.body.subscription).toMatchObject({
      active: true,
      tier: 'basic',
      cancelAtPeriodEnd: true,
    });
    const resumed = await call(user, 'POST', '/api/billing/test-portal/resume');
    expect((resumed.body.subscription as Json).cancelAtPeriodEnd).toBe(false);
    await call(user, 'POST', '/api/billing/test-portal/cancel');

    const ended = await advance(user);
    expect(ended).toMatchObject({
      active: false,
      tier: 'none',
      status: 'canceled',
      credits: 250,
      cancelAtPeriodEnd: true,
    });
    // Nothing more to advance or manage in the test portal, but credits stay.
    expect((await call(user, 'POST', '/api/billing/test-clock/advance')).status).toBe(402);
    const refused = await call(user, 'POST', '/api/billing/credit-checkout', {
      packId: 'pack_200',
    });
    expect(refused.status).toBe(402);
  });

  it('renews: the plan credits again and the monthly free training back to 1', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const db = app.deps.database.db;
    await db.transaction(async (tx) => {
      await spendTraining(tx, user.id, `model:renewal:${user.id}`);
      await spend(tx, user.id, 30, 'generation', `gen:renewal:${user.id}`);
    });
    expect(await subscription(user)).toMatchObject({ credits: 470, monthlyFreeTrainingsLeft: 0 });

    const renewed = await advance(user);
    expect(renewed).toMatchObject({
      active: true,
      tier: 'pro',
      credits: 970,
      monthlyFreeTrainingsLeft: 1,
    });
    const second = await advance(user);
    expect(second).toMatchObject({ credits: 1470, monthlyFreeTrainingsLeft: 1 });
    const grants = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(grants.filter((g) => g.reason === 'plan_credits')).toHaveLength(3);
    expect(await ledgerSum(db, user.id)).toBe(1470);
  });

  it('sells the yearly offer: Premium, 200 credits now and 200 every month, renewal after a year', async () => {
    const user = await signUp(app);
    // The signup and offer pages post no body at all.
    const { id, redirectUrl } = await buy(user, '/api/billing/yearly-checkout');
    expect(redirectUrl).toBe(`http://localhost:3000/payment-success?session_id=${id}&offer=yearly`);
    expect(await subscription(user)).toMatchObject({
      active: true,
      tier: 'premium',
      credits: 200,
      priceId: 'price_yearly_premium',
      planTitle: 'Premium Yearly',
      interval: 'year',
    });
    await db().transaction((tx) => spendTraining(tx, user.id, `model:yearly:${user.id}`));
    expect(await advance(user)).toMatchObject({ credits: 400, monthlyFreeTrainingsLeft: 1 });
    for (let month = 2; month < 12; month += 1) await advance(user);
    expect((await subscription(user)).credits).toBe(2400);
    // The thirteenth month is the yearly renewal: a new year, its first 200.
    expect(await advance(user)).toMatchObject({ credits: 2600, active: true, tier: 'premium' });
    expect(await ledgerSum(db(), user.id)).toBe(2600);
  });

  it("schedules the yearly offer's next monthly grant as a job a month ahead", async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/yearly-checkout');
    const result = await db().execute(
      sql`select start_after from pgboss.job where name = 'billing.monthly-grant' and data->>'userId' = ${user.id}`,
    );
    const rows = (result as unknown as { rows: { start_after: string | Date }[] }).rows;
    expect(rows).toHaveLength(1);
    const days = (new Date(rows[0]!.start_after).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    // When it runs (here: by hand, at once), nothing is due yet and nothing is granted twice.
    await app.deps.billing.fulfilment.resyncUser(user.id);
    expect((await subscription(user)).credits).toBe(200);
  });

  it('also sells the yearly offer through /checkout with its price id (the offer page)', async () => {
    const user = await signUp(app);
    const { redirectUrl } = await buy(user, '/api/billing/checkout', {
      priceId: 'price_yearly_premium',
    });
    expect(redirectUrl).toContain('&offer=yearly');
    expect(await subscription(user)).toMatchObject({ tier: 'premium', credits: 200 });
  });

  it('switches plan in the portal: an upgrade tops the month up to the new plan, once', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_basic' });
    const up = await call(user, 'POST', '/api/billing/test-portal/switch', {
      priceId: 'price_pro',
    });
    expect(up.body.subscription).toMatchObject({ tier: 'pro', credits: 500 });
    const down = await call(user, 'POST', '/api/billing/test-portal/switch', {
      priceId: 'price_basic',
    });
    expect(down.body.subscription).toMatchObject({ tier: 'basic', credits: 500 });
    const upAgain = await call(user, 'POST', '/api/billing/test-portal/switch', {
      priceId: 'price_pro',
    });
    expect(upAgain.body.subscription).toMatchObject({ tier: 'pro', credits: 500 });
    const premium = await call(user, 'POST', '/api/billing/test-portal/switch', {
      priceId: 'price_premium',
    });
    expect(premium.body.subscription).toMatchObject({ tier: 'premium', credits: 2500 });
    // The next renewal is the Premium plan's.
    expect(await advance(user)).toMatchObject({ credits: 5000 });
    const unknown = await call(user, 'POST', '/api/billing/test-portal/switch', {
      priceId: 'price_enterprise',
    });
    expect(unknown.status).toBe(400);
  });

  it('sends a subscriber to the portal for another plan and refuses the same plan', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_pro' });
    const same = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_pro' });
    expect(same.status).toBe(409);
    expect(same.body.error).toEqual({
      code: 'CONFLICT',
      message: billingMessages.alreadySubscribed,
    });
    const other = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_premium' });
    expect(other.status).toBe(200);
    expect(other.body.url).toMatch(/\/test-portal\?return=/);
  });

  it('lists the credit history newest first, page by page', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_basic' });
    await buy(user, '/api/billing/credit-checkout', { packId: 'pack_200' });
    await db().transaction((tx) => spend(tx, user.id, 2, 'generation', `history:${user.id}`));
    const first = await call(user, 'GET', '/api/billing/ledger?limit=2');
    expect(first.status).toBe(200);
    const entries = first.body.entries as Json[];
    expect(entries.map((e) => [e.reason, e.delta, e.balanceAfter])).toEqual([
      ['generation', -2, 248],
      ['credit_pack', 200, 250],
    ]);
    const second = await call(
      user,
      'GET',
      `/api/billing/ledger?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect((second.body.entries as Json[]).map((e) => e.reason)).toEqual(['plan_credits']);
    expect(second.body.nextCursor).toBeNull();
    const stranger = await signUp(app);
    expect(
      ((await call(stranger, 'GET', '/api/billing/ledger')).body.entries as Json[]).length,
    ).toBe(0);
  });
});

describe('what the browser may not decide', () => {
  it("answers 'Invalid plan: {plan}' for a price id not in the list", async () => {
    const user = await signUp(app);
    const response = await call(user, 'POST', '/api/billing/checkout', { priceId: 'price_gold' });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: billingMessages.invalidPlan('price_gold'),
    });
    expect(response.body.error!.message).toBe('Invalid plan: price_gold');
  });

  it('does not sell Enterprise, a tier only an operator assigns', async () => {
    const user = await signUp(app);
    const response = await call(user, 'POST', '/api/billing/checkout', {
      priceId: 'price_enterprise',
    });
    expect(response.status).toBe(400);
    expect(response.body.error!.message).toBe('Invalid plan: price_enterprise');
    expect(await subscription(user)).toMatchObject({ tier: 'none', active: false });
  });

  it('refuses Basic when coming from custom prompting, with the specification message', async () => {
    const user = await signUp(app);
    const response = await call(user, 'POST', '/api/billing/checkout', {
      priceId: 'price_basic',
      from: 'custom-prompt',
    });
    expect(response.status).toBe(400);
    expect(response.body.error!.message).toBe(
      "Basic plan doesn't include custom prompting. Please choose Pro or Premium.",
    );
    const pro = await call(user, 'POST', '/api/billing/checkout', {
      priceId: 'price_pro',
      from: 'custom-prompt',
    });
    expect(pro.status).toBe(200);
  });

  it('refuses amounts, prices, credits and user ids in the body, and never uses them', async () => {
    const user = await signUp(app);
    const victim = await signUp(app);
    for (const [url, body] of [
      ['/api/billing/checkout', { priceId: 'price_basic', amount: 1 }],
      ['/api/billing/checkout', { priceId: 'price_basic', userId: victim.id }],
      ['/api/billing/checkout', { priceId: 'price_basic', price: 'price_1Stripe' }],
      ['/api/billing/credit-checkout', { packId: 'pack_200', credits: 100000 }],
      ['/api/billing/yearly-checkout', { priceUsd: 0 }],
      ['/api/billing/verify-credit-purchase', { sessionId: 'x', userId: victim.id }],
    ] as const) {
      const response = await call(user, 'POST', url, body);
      expect(response.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.body.error!.code).toBe('VALIDATION_ERROR');
    }
    const rows = await app.deps.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.userId, victim.id));
    expect(rows).toHaveLength(0);
    // What is bought and its price come from the product list, whatever the page shows.
    const { id } = await buy(user, '/api/billing/checkout', { priceId: 'price_premium' });
    const [row] = await app.deps.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, id));
    expect(row).toMatchObject({ userId: user.id, amountCents: 7900, credits: 2500 });
  });

  it('needs a subscription before a pack, and a known pack', async () => {
    const user = await signUp(app);
    const refused = await call(user, 'POST', '/api/billing/credit-checkout', {
      packId: 'pack_200',
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toEqual({
      code: 'SUBSCRIPTION_REQUIRED',
      message: 'Please subscribe to a plan first before purchasing additional credits.',
    });
    const unknown = await call(user, 'POST', '/api/billing/credit-checkout', { packId: 'pack_1' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error!.message).toBe(creditsMessages.invalidPack('pack_1'));
  });

  it("verifies only the user's own sessions (a foreign id is 404) and needs a session", async () => {
    const owner = await signUp(app);
    await buy(owner, '/api/billing/checkout', { priceId: 'price_basic' });
    const { id } = await buy(owner, '/api/billing/credit-checkout', { packId: 'pack_200' });
    const thief = await signUp(app);
    for (const [url, body] of [
      ['/api/billing/verify-credit-purchase', { sessionId: id }],
      ['/api/billing/check-subscription', { sessionId: id }],
    ] as const) {
      expect((await call(thief, 'POST', url, body)).status).toBe(404);
    }
    expect((await call(thief, 'GET', `/api/billing/test-checkout/${id}`)).status).toBe(404);
    expect((await call(thief, 'POST', `/api/billing/test-checkout/${id}/pay`)).status).toBe(404);
    expect((await subscription(thief)).credits).toBe(0);
    expect(
      (await call(undefined, 'POST', '/api/billing/checkout', { priceId: 'price_basic' })).status,
    ).toBe(401);
    expect((await call(undefined, 'GET', '/api/billing/ledger')).status).toBe(401);
  });

  it('has no Stripe webhook in local mode, and refuses writes from another site', async () => {
    const user = await signUp(app);
    expect((await call(user, 'POST', '/api/billing/webhook', {})).status).toBe(404);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: {
        ...user.headers,
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      payload: { priceId: 'price_basic' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('account deletion keeps the books', () => {
  it('ends the subscription, writes off the credits and keeps ledger and checkout rows', async () => {
    const user = await signUp(app);
    await buy(user, '/api/billing/checkout', { priceId: 'price_basic' });
    const response = await deleteAccount(app, user);
    expect(response.statusCode).toBe(204);
    const database = app.deps.database.db;
    expect(
      await database.select().from(subscriptions).where(eq(subscriptions.userId, user.id)),
    ).toHaveLength(0);
    const rows = await database.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(rows.map((r) => [r.reason, r.delta])).toEqual(
      expect.arrayContaining([
        ['plan_credits', 50],
        ['account_deleted', -50],
      ]),
    );
    expect(await ledgerSum(database, user.id)).toBe(0);
    expect(
      await database.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id)),
    ).toHaveLength(1);
    const [providerSide] = await database
      .select()
      .from(localBillingSubscriptions)
      .where(eq(localBillingSubscriptions.userId, user.id));
    expect(providerSide?.status).toBe('canceled');
  });
});

function db() {
  return app.deps.database.db;
}
