import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the billing pages need not download.
import type {
  BillingSubscription,
  CheckoutRequest,
  LedgerResponse,
  RedirectResponse,
  TestCheckout,
  TestCheckoutResult,
  TestPortal,
  VerifyCreditPurchaseResponse,
} from '../../../common/api/billing.ts';
import { api } from '../../lib/api-client.ts';
import { registerEventHandler } from '../../lib/event-stream.ts';
import { sessionQueryKey } from '../../lib/session.ts';

/** Every billing query starts with this key, so one invalidation refreshes them all. */
export const billingQueryKey = ['billing'] as const;
export const billingSubscriptionQueryKey = [...billingQueryKey, 'subscription'] as const;
export const ledgerQueryKey = [...billingQueryKey, 'ledger'] as const;

const ledgerPageSize = 20;

export function billingSubscriptionQueryOptions() {
  return queryOptions({
    queryKey: billingSubscriptionQueryKey,
    queryFn: ({ signal }) => api.get<BillingSubscription>('/api/billing/subscription', { signal }),
  });
}

export function ledgerQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ledgerQueryKey,
    queryFn: ({ signal, pageParam }) =>
      api.get<LedgerResponse>('/api/billing/ledger', {
        signal,
        query: { cursor: pageParam, limit: ledgerPageSize },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function testCheckoutQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...billingQueryKey, 'test-checkout', id],
    queryFn: ({ signal }) =>
      api.get<TestCheckout>(`/api/billing/test-checkout/${encodeURIComponent(id)}`, { signal }),
    staleTime: 0,
  });
}

export const testPortalQueryKey = [...billingQueryKey, 'test-portal'] as const;

export function testPortalQueryOptions(returnPath: string | null) {
  return queryOptions({
    queryKey: [...testPortalQueryKey, returnPath],
    queryFn: ({ signal }) =>
      api.get<TestPortal>('/api/billing/test-portal', {
        signal,
        query: { return: returnPath },
      }),
    staleTime: 0,
  });
}

export function startCheckout(body: CheckoutRequest): Promise<RedirectResponse> {
  return api.post<RedirectResponse>('/api/billing/checkout', body);
}

export function startYearlyCheckout(): Promise<RedirectResponse> {
  return api.post<RedirectResponse>('/api/billing/yearly-checkout', {});
}

export function startCreditCheckout(packId: string): Promise<RedirectResponse> {
  return api.post<RedirectResponse>('/api/billing/credit-checkout', { packId });
}

export function openPortal(returnPath?: string): Promise<RedirectResponse> {
  return api.post<RedirectResponse>('/api/billing/portal', returnPath ? { returnPath } : {});
}

export function verifyCreditPurchase(sessionId: string): Promise<VerifyCreditPurchaseResponse> {
  return api.post<VerifyCreditPurchaseResponse>('/api/billing/verify-credit-purchase', {
    sessionId,
  });
}

export function checkSubscription(sessionId?: string): Promise<BillingSubscription> {
  return api.post<BillingSubscription>(
    '/api/billing/check-subscription',
    sessionId ? { sessionId } : {},
  );
}

export function payTestCheckout(id: string): Promise<TestCheckoutResult> {
  return api.post<TestCheckoutResult>(`/api/billing/test-checkout/${encodeURIComponent(id)}/pay`);
}

export function cancelTestCheckout(id: string): Promise<TestCheckoutResult> {
  return api.post<TestCheckoutResult>(
    `/api/billing/test-checkout/${encodeURIComponent(id)}/cancel`,
  );
}

export function switchTestPortalPlan(priceId: string): Promise<TestPortal> {
  return api.post<TestPortal>('/api/billing/test-portal/switch', { priceId });
}

export function setTestPortalCancellation(cancel: boolean): Promise<TestPortal> {
  return api.post<TestPortal>(`/api/billing/test-portal/${cancel ? 'cancel' : 'resume'}`);
}

/**
 * Stores a fresh subscription answer (from check-subscription) where the pages read it: the
 * billing view directly, and the session (whose credits the header shows) by refetching.
 */
export async function applySubscription(
  queryClient: QueryClient,
  subscription: BillingSubscription,
): Promise<void> {
  queryClient.setQueryData(billingSubscriptionQueryKey, subscription);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/**
 * After a failed subscription check, the specification's direct re-read: the stored plan and
 * balance are fetched again, whatever the check could not confirm.
 */
export async function rereadSubscription(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: billingSubscriptionQueryKey }),
    queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  ]);
}

/**
 * The server publishes `subscription.updated` after every change of credits or plan (from this
 * tab, another tab or a webhook); every billing view is then out of date. Registered once.
 */
export function registerBillingEventHandlers(): () => void {
  return registerEventHandler('subscription.updated', (_event, queryClient) => {
    void queryClient.invalidateQueries({ queryKey: billingQueryKey });
  });
}

/**
 * Leaves the app for a checkout or portal URL answered by the server. A full page load on
 * purpose: the provider's page is another site (or, in test mode, a page that must start fresh).
 */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
