import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the parts of Stripe's API that billing uses, over real HTTP and keeping
 * its contract (reference/provider-contracts.md §5): Bearer auth, form-encoded bodies with
 * bracket notation, JSON answers with a Request-Id, Stripe's error shape and statuses,
 * Idempotency-Key replay, a hosted checkout page that completes the session and redirects with
 * {CHECKOUT_SESSION_ID} filled in, and signed webhook events.
 *
 * It speaks one API version, `2026-10-28.endive` (stripe-node 23.1.0's, read 2026-11-27), and
 * only its shapes: an invoice names its subscription under `parent.subscription_details` and has
 * no `subscription`; a subscription has no `current_period_start/end`, its items do; Checkout
 * refuses `customer` together with `customer_email`. A request that asks for another version
 * (`Stripe-Version`) is refused with 400, as this fake could not answer in its shapes; Stripe
 * itself would answer in that version's.
 *
 * State changes (paying, renewing, cancelling) return the events Stripe would send; tests deliver
 * them (in any order, any number of times) with `deliver`, or the hosted page sends them itself.
 */

export interface FakePrice {
  id: string;
  unitAmount: number;
  /** Recurring prices have an interval; one-time prices none. */
  interval?: 'month' | 'year';
}

type StripeObject = Record<string, unknown> & { id: string };

export interface FakeStripeEvent {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: StripeObject };
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** The STRIPE_* variables pointing the app at this fake (webhook target set separately). */
  env: Record<string, string>;
  requests: RecordedRequest[];
  /** Where `deliver` and the hosted page send events. */
  setWebhookUrl(url: string): void;
  session(id: string): StripeObject | undefined;
  subscription(id: string): StripeObject | undefined;
  /** The customer pays: completes the session, creates customer, subscription and invoice. */
  pay(sessionId: string): FakeStripeEvent[];
  expire(sessionId: string): FakeStripeEvent[];
  /** The next period starts and its invoice is paid. */
  renew(subscriptionId: string): FakeStripeEvent[];
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): FakeStripeEvent[];
  /** The period ended after a cancellation (or the subscription was cancelled at once). */
  end(subscriptionId: string): FakeStripeEvent[];
  switchPrice(subscriptionId: string, priceId: string): FakeStripeEvent[];
  /** POSTs the event to the webhook URL, signed (or with the given signature header). */
  deliver(event: FakeStripeEvent, options?: { signature?: string }): Promise<Response>;
  /** The next `count` API requests answer 500 (Stripe's SDK retries those). */
  failNext(count: number): void;
  close(): Promise<void>;
}

/** The one version this fake speaks (see above); written out, not taken from the SDK. */
export const fakeStripeApiVersion = '2026-10-28.endive';
const apiVersion = fakeStripeApiVersion;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=1` → { a: { b: [ { c: '1' } ] } }, as Stripe reads form bodies. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (index === parts.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  return arraysFromIndexedObjects(root) as Record<string, unknown>;
}

function arraysFromIndexedObjects(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, inner]) => [key, arraysFromIndexedObjects(inner)] as const,
  );
  if (entries.length > 0 && entries.every(([key], index) => key === String(index)))
    return entries.map(([, inner]) => inner);
  return Object.fromEntries(entries);
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (what: string, id: string, param?: string) =>
  new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${what}: '${id}'`,
    'resource_missing',
    param,
  );

export async function startFakeStripe(options: { prices: FakePrice[] }): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const prices = new Map(options.prices.map((price) => [price.id, price]));
  const sessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const invoices = new Map<string, StripeObject>();
  const customers = new Map<string, StripeObject>();
  const idempotency = new Map<string, { params: string; status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  let webhookUrl: string | undefined;
  let failures = 0;
  let baseUrl = '';

  const clone = <T>(value: T): T => structuredClone(value);

  function event(type: string, object: StripeObject): FakeStripeEvent {
    return {
      id: newId('evt'),
      object: 'event',
      type,
      api_version: apiVersion,
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      // A snapshot: delivered late, it shows the object as it was, not as it is.
      data: { object: clone(object) },
    };
  }

  function priceObject(price: FakePrice) {
    return {
      id: price.id,
      object: 'price',
      active: true,
      currency: 'usd',
      unit_amount: price.unitAmount,
      type: price.interval ? 'recurring' : 'one_time',
      recurring: price.interval ? { interval: price.interval, interval_count: 1 } : null,
      product: `prod_${price.id}`,
    };
  }

  function addInterval(seconds: number, interval: 'month' | 'year'): number {
    const date = new Date(seconds * 1000);
    date.setUTCMonth(date.getUTCMonth() + (interval === 'year' ? 12 : 1));
    return Math.floor(date.getTime() / 1000);
  }

  function itemOf(subscription: StripeObject) {
    return (subscription.items as { data: Record<string, unknown>[] }).data[0]!;
  }

  function issueInvoice(subscription: StripeObject, reason: string): StripeObject {
    const item = itemOf(subscription);
    const price = item.price as { id: string; unit_amount: number };
    const invoice: StripeObject = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'paid',
      billing_reason: reason,
      amount_due: price.unit_amount,
      amount_paid: price.unit_amount,
      currency: 'usd',
      created: nowSeconds(),
      livemode: false,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          subscription: subscription.id,
          metadata: clone(subscription.metadata),
        },
      },
      lines: {
        object: 'list',
        has_more: false,
        url: '/v1/invoices/lines',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount: price.unit_amount,
            currency: 'usd',
            period: { start: item.current_period_start, end: item.current_period_end },
            pricing: {
              type: 'price_details',
              price_details: { price: price.id, product: `prod_${price.id}` },
              unit_amount_decimal: String(price.unit_amount),
            },
            quantity: 1,
          },
        ],
      },
    };
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  function createCheckoutSession(params: Record<string, unknown>): StripeObject {
    const mode = params.mode as string | undefined;
    if (!mode || !['payment', 'subscription', 'setup'].includes(mode))
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Missing required param: mode.',
        'parameter_missing',
        'mode',
      );
    const lineItems = params.line_items as { price?: string; quantity?: string }[] | undefined;
    if (!lineItems?.length)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Missing required param: line_items.',
        'parameter_missing',
        'line_items',
      );
    const chosen = lineItems.map((line, index) => {
      if (!line.price || !prices.has(line.price))
        throw missing('price', String(line.price), `line_items[${index}][price]`);
      return prices.get(line.price)!;
    });
    if (mode === 'subscription' && !chosen.some((price) => price.interval))
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You must provide at least one recurring price in `subscription` mode when using prices.',
      );
    if (mode === 'payment' && chosen.some((price) => price.interval))
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
      );
    if (!params.success_url)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Missing required param: success_url.',
        'parameter_missing',
        'success_url',
      );
    if (params.customer && params.customer_email)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You may only specify one of these parameters: customer, customer_email.',
      );
    if (params.customer && !customers.has(params.customer as string))
      throw missing('customer', params.customer as string, 'customer');
    if (params.customer_creation && mode !== 'payment' && mode !== 'setup')
      throw new StripeApiError(
        400,
        'invalid_request_error',
        '`customer_creation` can only be used in `payment` and `setup` mode.',
      );
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${baseUrl}/c/pay/${id}`,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      customer: params.customer ?? null,
      customer_email: params.customer_email ?? null,
      customer_creation: params.customer_creation ?? null,
      subscription: null,
      invoice: null,
      payment_intent: null,
      amount_total: chosen.reduce((sum, price) => sum + price.unitAmount, 0),
      currency: 'usd',
      created: nowSeconds(),
      expires_at: nowSeconds() + 24 * 3600,
      livemode: false,
      line_items_prices: chosen.map((price) => price.id),
      subscription_data: params.subscription_data ?? null,
      payment_intent_data: params.payment_intent_data ?? null,
    };
    sessions.set(id, session);
    return session;
  }

  function publicSession(session: StripeObject) {
    const {
      line_items_prices: _prices,
      subscription_data: _s,
      payment_intent_data: _p,
      ...rest
    } = session;
    return rest;
  }

  function ensureCustomer(session: StripeObject): string {
    if (session.customer) return session.customer as string;
    const customer = { id: newId('cus'), object: 'customer', email: session.customer_email };
    customers.set(customer.id, customer);
    session.customer = customer.id;
    return customer.id;
  }

  const controls = {
    pay(sessionId: string): FakeStripeEvent[] {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      if (session.status !== 'open') return [];
      const events: FakeStripeEvent[] = [];
      if (session.mode === 'subscription') {
        const customer = ensureCustomer(session);
        const price = prices.get((session.line_items_prices as string[])[0]!)!;
        const start = nowSeconds();
        const subscription: StripeObject = {
          id: newId('sub'),
          object: 'subscription',
          customer,
          status: 'active',
          cancel_at_period_end: false,
          cancel_at: null,
          canceled_at: null,
          ended_at: null,
          created: start,
          livemode: false,
          metadata: clone(
            ((session.subscription_data as { metadata?: object } | null)?.metadata ?? {}) as object,
          ),
          items: {
            object: 'list',
            has_more: false,
            url: '/v1/subscription_items',
            data: [
              {
                id: newId('si'),
                object: 'subscription_item',
                price: priceObject(price),
                quantity: 1,
                current_period_start: start,
                current_period_end: addInterval(start, price.interval!),
              },
            ],
          },
          latest_invoice: null,
        };
        subscriptions.set(subscription.id, subscription);
        const invoice = issueInvoice(subscription, 'subscription_create');
        Object.assign(session, {
          status: 'complete',
          payment_status: 'paid',
          subscription: subscription.id,
          invoice: invoice.id,
        });
        events.push(
          event('customer.subscription.created', subscription),
          event('invoice.paid', invoice),
          event('checkout.session.completed', publicSession(session) as StripeObject),
        );
      } else {
        if (session.customer_creation === 'always') ensureCustomer(session);
        Object.assign(session, {
          status: 'complete',
          payment_status: 'paid',
          payment_intent: newId('pi'),
        });
        events.push(event('checkout.session.completed', publicSession(session) as StripeObject));
      }
      return events;
    },

    expire(sessionId: string): FakeStripeEvent[] {
      const session = sessions.get(sessionId)!;
      session.status = 'expired';
      return [event('checkout.session.expired', publicSession(session) as StripeObject)];
    },

    renew(subscriptionId: string): FakeStripeEvent[] {
      const subscription = subscriptions.get(subscriptionId)!;
      const item = itemOf(subscription);
      const price = item.price as { recurring: { interval: 'month' | 'year' } };
      item.current_period_start = item.current_period_end;
      item.current_period_end = addInterval(
        item.current_period_end as number,
        price.recurring.interval,
      );
      const invoice = issueInvoice(subscription, 'subscription_cycle');
      return [event('customer.subscription.updated', subscription), event('invoice.paid', invoice)];
    },

    setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): FakeStripeEvent[] {
      const subscription = subscriptions.get(subscriptionId)!;
      subscription.cancel_at_period_end = cancel;
      subscription.canceled_at = cancel ? nowSeconds() : null;
      return [event('customer.subscription.updated', subscription)];
    },

    end(subscriptionId: string): FakeStripeEvent[] {
      const subscription = subscriptions.get(subscriptionId)!;
      Object.assign(subscription, { status: 'canceled', ended_at: nowSeconds() });
      return [event('customer.subscription.deleted', subscription)];
    },

    switchPrice(subscriptionId: string, priceId: string): FakeStripeEvent[] {
      const subscription = subscriptions.get(subscriptionId)!;
      itemOf(subscription).price = priceObject(prices.get(priceId)!);
      return [event('customer.subscription.updated', subscription)];
    },
  };

  async function deliver(event: FakeStripeEvent, deliverOptions: { signature?: string } = {}) {
    if (!webhookUrl) throw new Error('no webhook URL set');
    const payload = JSON.stringify(event);
    const signature =
      deliverOptions.signature ??
      Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    return fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    });
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(
    response: ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ) {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': newId('req'),
      'stripe-version': apiVersion,
      ...extra,
    });
    response.end(JSON.stringify(body));
  }

  function route(method: string, path: string, params: Record<string, unknown>): unknown {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions')
      return publicSession(createCheckoutSession(params));
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) throw missing('checkout.session', match[1]!, 'session');
      return publicSession(session);
    }
    if (method === 'GET' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) throw missing('subscription', match[1]!, 'id');
      return subscription;
    }
    if (method === 'DELETE' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) throw missing('subscription', match[1]!, 'id');
      Object.assign(subscription, {
        status: 'canceled',
        ended_at: nowSeconds(),
        canceled_at: nowSeconds(),
      });
      return subscription;
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const data = [...subscriptions.values()]
        .filter((subscription) => !params.customer || subscription.customer === params.customer)
        .sort((a, b) => (b.created as number) - (a.created as number));
      return { object: 'list', data, has_more: false, url: '/v1/subscriptions' };
    }
    if (method === 'GET' && (match = /^\/v1\/invoices\/([^/]+)$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      if (!invoice) throw missing('invoice', match[1]!, 'invoice');
      return invoice;
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!params.customer)
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'Missing required param: customer.',
          'parameter_missing',
          'customer',
        );
      if (!customers.has(params.customer as string))
        throw missing('customer', params.customer as string, 'customer');
      const id = newId('bps');
      return {
        id,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url ?? null,
        url: `${baseUrl}/p/session/${id}`,
        configuration: 'bpc_default',
        created: nowSeconds(),
        livemode: false,
        locale: null,
        flow: null,
      };
    }
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}).`,
    );
  }

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://fake');
      // The hosted checkout page: visiting it pays, sends the events, and returns to the app.
      const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && page) {
        const session = sessions.get(page[1]!);
        if (!session) return send(response, 404, { error: 'no such session' });
        for (const item of controls.pay(session.id)) await deliver(item);
        const target = (session.success_url as string).replace('{CHECKOUT_SESSION_ID}', session.id);
        response.writeHead(303, { location: target });
        return response.end();
      }

      const auth = request.headers.authorization ?? '';
      if (auth !== `Bearer ${secretKey}`)
        throw new StripeApiError(
          401,
          'invalid_request_error',
          `Invalid API Key provided: ${auth.slice(7, 15)}****`,
        );
      const body = await readBody(request);
      const params =
        request.method === 'GET' || request.method === 'DELETE'
          ? parseStripeForm(url.search.slice(1))
          : parseStripeForm(body);
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        params,
        headers: request.headers,
      });
      const version = request.headers['stripe-version'];
      if (version !== undefined && version !== apiVersion)
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `This fake speaks only API version ${apiVersion}; the request asked for ${String(version)}.`,
        );
      if (failures > 0) {
        failures -= 1;
        throw new StripeApiError(500, 'api_error', 'An unknown error occurred');
      }
      const key = request.headers['idempotency-key'];
      if (request.method === 'POST' && typeof key === 'string') {
        const earlier = idempotency.get(key);
        if (earlier) {
          if (earlier.params !== body)
            throw new StripeApiError(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            );
          return send(response, earlier.status, earlier.body, { 'idempotent-replayed': 'true' });
        }
        const answer = route(request.method, url.pathname, params);
        idempotency.set(key, { params: body, status: 200, body: answer });
        return send(response, 200, answer);
      }
      return send(response, 200, route(request.method ?? 'GET', url.pathname, params));
    } catch (error) {
      if (error instanceof StripeApiError)
        return send(response, error.status, {
          error: {
            type: error.type,
            message: error.message,
            ...(error.code ? { code: error.code } : {}),
            ...(error.param ? { param: error.param } : {}),
          },
        });
      return send(response, 500, { error: { type: 'api_error', message: String(error) } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const env: Record<string, string> = {
    BILLING: 'stripe',
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: baseUrl,
  };

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    env,
    requests,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    session: (id) =>
      sessions.has(id) ? (publicSession(sessions.get(id)!) as StripeObject) : undefined,
    subscription: (id) => subscriptions.get(id),
    ...controls,
    deliver,
    failNext: (count) => {
      failures = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
