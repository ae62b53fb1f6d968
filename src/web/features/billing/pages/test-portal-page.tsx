import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { TestPortal } from '../../../../common/api/billing.ts';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { formatUsd } from '../../../../common/product/money.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton, SkeletonGroup } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/dates.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { isSafeRedirect } from '../../../lib/post-login-redirect.ts';
import {
  billingQueryKey,
  redirectTo,
  setTestPortalCancellation,
  switchTestPortalPlan,
  testPortalQueryOptions,
} from '../billing-api.ts';
import { TestModePage } from '../components/test-mode-banner.tsx';

const text = billingMessages.testMode;
type Busy = { kind: 'switch'; priceId: string } | { kind: 'cancel' } | { kind: 'resume' } | null;

/**
 * /test-portal?return=/path (BILLING=local): stands in for the provider's customer portal, where
 * a subscriber switches plan or cancels at the end of the period (and changes their mind).
 */
export function TestPortalPage() {
  usePageTitle(billingMessages.testCheckout.portalTitle);
  const [searchParams] = useSearchParams();
  const returnParam = searchParams.get('return');
  const returnPath = returnParam && isSafeRedirect(returnParam) ? returnParam : null;
  const queryKeyOptions = testPortalQueryOptions(returnPath);
  const query = useQuery(queryKeyOptions);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(next: NonNullable<Busy>) {
    if (busy) return;
    setBusy(next);
    setError(null);
    try {
      const answer =
        next.kind === 'switch'
          ? await switchTestPortalPlan(next.priceId)
          : await setTestPortalCancellation(next.kind === 'cancel');
      // The answer's return URL is the default one; this page keeps the one it was opened with.
      queryClient.setQueryData(queryKeyOptions.queryKey, {
        ...answer,
        returnUrl: query.data?.returnUrl ?? answer.returnUrl,
      });
      void queryClient.invalidateQueries({ queryKey: billingQueryKey, exact: false });
      if (next.kind === 'switch')
        notify.success(text.switched(answer.subscription.planTitle ?? ''));
      else if (next.kind === 'resume') notify.success(text.resumed);
      else notify.success(billingMessages.testCheckout.cancelled);
    } catch (failure) {
      setError(isApiError(failure) && failure.status > 0 ? failure.message : text.actionFailed);
    } finally {
      setBusy(null);
    }
  }

  return (
    <TestModePage title={billingMessages.testCheckout.portalTitle} subtitle={text.portalSubtitle}>
      {error ? <FormAlert>{error}</FormAlert> : null}
      {query.isPending ? (
        <SkeletonGroup className="flex flex-col gap-6">
          <Skeleton shape="card" className="h-44 w-full" />
          <Skeleton shape="card" className="h-64 w-full" />
        </SkeletonGroup>
      ) : query.isError ? (
        <FormAlert>{text.portalLoadFailed}</FormAlert>
      ) : (
        <PortalBody portal={query.data} busy={busy} onAct={(next) => void act(next)} />
      )}
      <div>
        <Button
          variant="outline"
          disabled={!query.data}
          onClick={() => query.data && redirectTo(query.data.returnUrl)}
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {text.backToAccount}
        </Button>
      </div>
    </TestModePage>
  );
}

function PortalBody({
  portal,
  busy,
  onAct,
}: {
  portal: TestPortal;
  busy: Busy;
  onAct: (next: NonNullable<Busy>) => void;
}) {
  const { subscription } = portal;
  const periodEnd = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : '';
  return (
    <>
      <Card className="flex flex-col gap-5 p-6 md:p-8">
        <h2 className="text-sm font-medium tracking-wide text-neutral-500 uppercase">
          {text.currentPlanTitle}
        </h2>
        {subscription.active ? (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-2xl font-semibold text-neutral-950">{subscription.planTitle}</p>
              <Badge variant={subscription.cancelAtPeriodEnd ? 'neutral' : 'success'} size="md">
                {subscription.cancelAtPeriodEnd
                  ? billingMessages.endsOn(periodEnd)
                  : billingMessages.renewsOn(periodEnd)}
              </Badge>
            </div>
            {subscription.cancelAtPeriodEnd ? (
              <p className="text-sm text-neutral-600">{billingMessages.cancelNotice(periodEnd)}</p>
            ) : null}
            <div>
              {subscription.cancelAtPeriodEnd ? (
                <Button
                  disabled={busy !== null}
                  loading={busy?.kind === 'resume'}
                  onClick={() => onAct({ kind: 'resume' })}
                >
                  {busy?.kind === 'resume'
                    ? text.resuming
                    : billingMessages.testCheckout.resumeSubscription}
                </Button>
              ) : (
                <Button
                  variant="destructive-outline"
                  disabled={busy !== null}
                  loading={busy?.kind === 'cancel'}
                  onClick={() => onAct({ kind: 'cancel' })}
                >
                  {busy?.kind === 'cancel'
                    ? text.cancelling
                    : billingMessages.testCheckout.cancelSubscription}
                </Button>
              )}
            </div>
          </>
        ) : (
          <p className="text-neutral-600">{text.noPlan}</p>
        )}
      </Card>

      {subscription.active ? (
        <section aria-labelledby="portal-plans-title" className="flex flex-col gap-4">
          <h2 id="portal-plans-title" className="text-lg font-semibold text-neutral-950">
            {text.availablePlans}
          </h2>
          <ul className="flex flex-col gap-3">
            {portal.plans.map((plan) => (
              <li key={plan.priceId}>
                <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
                  <div className="flex flex-col gap-0.5">
                    <p className="font-semibold text-neutral-950">{plan.title}</p>
                    <p className="text-sm text-neutral-600">
                      {formatUsd(plan.priceUsd)} {billingMessages.perMonth} ·{' '}
                      {billingMessages.creditsPerMonth(plan.monthlyCredits)}
                    </p>
                  </div>
                  {plan.current ? (
                    <Badge variant="success" size="md">
                      {billingMessages.currentPlan}
                    </Badge>
                  ) : (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={busy !== null}
                      loading={busy?.kind === 'switch' && busy.priceId === plan.priceId}
                      onClick={() => onAct({ kind: 'switch', priceId: plan.priceId })}
                      aria-label={`${billingMessages.testCheckout.switchPlan}: ${plan.title}`}
                    >
                      {billingMessages.testCheckout.switchPlan}
                    </Button>
                  )}
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
