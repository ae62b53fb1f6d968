import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingSubscriptionSchema,
  checkSubscriptionRequestSchema,
  checkoutRequestSchema,
  creditCheckoutRequestSchema,
  ledgerQuerySchema,
  ledgerResponseSchema,
  portalRequestSchema,
  redirectResponseSchema,
  returnPathSchema,
  testCheckoutParamsSchema,
  testCheckoutResultSchema,
  testCheckoutSchema,
  testPortalSchema,
  testPortalSwitchRequestSchema,
  verifyCreditPurchaseRequestSchema,
  verifyCreditPurchaseResponseSchema,
  yearlyCheckoutRequestSchema,
} from '../../../common/api/billing.ts';
import { WebhookSignatureError } from '../../adapters/billing/stripe-billing.ts';
import { AppError } from '../../http/app-error.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { BillingService } from './service.ts';

export interface BillingRoutesOptions {
  billing: BillingService;
  authenticator: Authenticator;
  provider: 'local' | 'stripe';
  /** Test clock endpoint: BILLING=local outside production only. */
  testClock: boolean;
}

const tags = ['billing'];
const noStore = (reply: { header(name: string, value: string): unknown }) =>
  reply.header('cache-control', 'no-store');
const testPortalQuerySchema = z.object({ return: returnPathSchema.optional() });

/** Plans, packs, verification, portal and credit history: `/api/billing/*`. */
export const billingRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, options) => {
  const { billing, authenticator } = options;

  app.get(
    '/api/billing/subscription',
    {
      schema: {
        tags,
        summary: 'The subscription as stored (no provider call)',
        response: { 200: billingSubscriptionSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return billing.subscription(await authenticator.requireUser(request));
    },
  );

  app.post(
    '/api/billing/checkout',
    {
      schema: {
        tags,
        summary: 'Start a checkout for a plan or the yearly offer; answers the URL to go to',
        body: checkoutRequestSchema,
        response: { 200: redirectResponseSchema },
      },
    },
    async (request) => billing.checkout(await authenticator.requireUser(request), request.body),
  );

  app.post(
    '/api/billing/yearly-checkout',
    {
      schema: {
        tags,
        summary: 'Start a checkout for the yearly offer (Premium Yearly)',
        body: yearlyCheckoutRequestSchema.nullish(),
        response: { 200: redirectResponseSchema },
      },
    },
    async (request) =>
      billing.yearlyCheckout(await authenticator.requireUser(request), request.body ?? {}),
  );

  app.post(
    '/api/billing/credit-checkout',
    {
      schema: {
        tags,
        summary: 'Start a checkout for a credit pack (subscribers only)',
        body: creditCheckoutRequestSchema,
        response: { 200: redirectResponseSchema },
      },
    },
    async (request) =>
      billing.creditCheckout(await authenticator.requireUser(request), request.body),
  );

  app.post(
    '/api/billing/verify-credit-purchase',
    {
      schema: {
        tags,
        summary: "Add a paid pack's credits (once) and say whether they are there",
        body: verifyCreditPurchaseRequestSchema,
        response: { 200: verifyCreditPurchaseResponseSchema },
      },
    },
    async (request) =>
      billing.verifyCreditPurchase(
        await authenticator.requireUser(request),
        request.body.sessionId,
      ),
  );

  app.post(
    '/api/billing/check-subscription',
    {
      schema: {
        tags,
        summary: 'Re-sync the subscription from the payment provider and answer it',
        body: checkSubscriptionRequestSchema.nullish(),
        response: { 200: billingSubscriptionSchema },
      },
    },
    async (request) =>
      billing.checkSubscription(await authenticator.requireUser(request), request.body?.sessionId),
  );

  app.post(
    '/api/billing/portal',
    {
      schema: {
        tags,
        summary: 'Open the billing portal (manage, switch or cancel the subscription)',
        body: portalRequestSchema.nullish(),
        response: { 200: redirectResponseSchema },
      },
    },
    async (request) =>
      billing.portal(await authenticator.requireUser(request), request.body?.returnPath),
  );

  app.get(
    '/api/billing/ledger',
    {
      schema: {
        tags,
        summary: 'The credit history, newest first',
        querystring: ledgerQuerySchema,
        response: { 200: ledgerResponseSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return billing.history(
        await authenticator.requireUser(request),
        request.query.cursor,
        request.query.limit,
      );
    },
  );

  if (options.provider === 'stripe') await app.register(stripeWebhookRoute, { billing });
  if (options.provider === 'local') await app.register(testModeRoutes, options);
};

/**
 * Stripe signs the exact bytes it sent, so this encapsulated scope keeps the body raw (a Buffer)
 * instead of parsing JSON. Browsers never call it; the signature is the proof of origin.
 */
const stripeWebhookRoute: FastifyPluginAsync<{ billing: BillingService }> = async (
  app,
  { billing },
) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
    '/api/billing/webhook',
    { config: { skipOriginCheck: true }, schema: { tags, summary: 'Stripe webhook' } },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('BAD_REQUEST', 'A webhook body is required.');
      const signature = request.headers['stripe-signature'];
      try {
        await billing.handleWebhook(body, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          request.log.warn({ err: error }, 'webhook signature refused');
          throw new AppError('BAD_REQUEST', 'The webhook signature is not valid.');
        }
        throw error;
      }
      return reply.send({ received: true });
    },
  );
};

/** BILLING=local: the test checkout page's, the test portal's and the test clock's API. */
const testModeRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, options) => {
  const { billing, authenticator } = options;
  const testTags = ['billing (test mode)'];

  app.get(
    '/api/billing/test-checkout/:id',
    {
      schema: {
        tags: testTags,
        summary: 'What the test checkout sells',
        params: testCheckoutParamsSchema,
        response: { 200: testCheckoutSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return billing.testCheckout(await authenticator.requireUser(request), request.params.id);
    },
  );

  // Paying and leaving: the two ways out of the test checkout page.
  const checkoutEndings = [
    {
      ending: 'pay',
      summary: 'Pay the test checkout; answers the success URL',
      end: billing.payTestCheckout,
    },
    {
      ending: 'cancel',
      summary: 'Leave the test checkout; answers the cancel URL',
      end: billing.cancelTestCheckout,
    },
  ];
  for (const { ending, summary, end } of checkoutEndings)
    app.post(
      `/api/billing/test-checkout/:id/${ending}`,
      {
        schema: {
          tags: testTags,
          summary,
          params: testCheckoutParamsSchema,
          response: { 200: testCheckoutResultSchema },
        },
      },
      async (request) => end(await authenticator.requireUser(request), request.params.id),
    );

  app.get(
    '/api/billing/test-portal',
    {
      schema: {
        tags: testTags,
        summary: 'The test portal: current subscription and the plans to switch to',
        querystring: testPortalQuerySchema,
        response: { 200: testPortalSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return billing.testPortal(await authenticator.requireUser(request), request.query.return);
    },
  );

  app.post(
    '/api/billing/test-portal/switch',
    {
      schema: {
        tags: testTags,
        summary: 'Switch plan now',
        body: testPortalSwitchRequestSchema,
        response: { 200: testPortalSchema },
      },
    },
    async (request) =>
      billing.testPortalSwitch(await authenticator.requireUser(request), request.body.priceId),
  );

  // Cancelling at the period's end, and taking it back.
  const cancellations = [
    { action: 'cancel', summary: 'Cancel at the end of the period', cancel: true },
    { action: 'resume', summary: 'Undo the cancellation', cancel: false },
  ];
  for (const { action, summary, cancel } of cancellations)
    app.post(
      `/api/billing/test-portal/${action}`,
      { schema: { tags: testTags, summary, response: { 200: testPortalSchema } } },
      async (request) => billing.testPortalCancel(await authenticator.requireUser(request), cancel),
    );

  if (options.testClock) {
    app.post(
      '/api/billing/test-clock/advance',
      {
        schema: {
          tags: testTags,
          summary: "Advance the user's subscription to its next renewal (or monthly grant, or end)",
          response: { 200: billingSubscriptionSchema },
        },
      },
      async (request) => billing.advanceTestClock(await authenticator.requireUser(request)),
    );
  }
};
