import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RefreshCw, Settings } from 'lucide-react';
import { accountMessages } from '../../../../common/messages/account.ts';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { dashboardMessages } from '../../../../common/messages/dashboard.ts';
import { tierName } from '../../../../common/product/tiers.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { formatDate } from '../../../lib/dates.ts';
import type { SessionSubscription } from '../../../lib/session.ts';
import {
  applySubscription,
  billingSubscriptionQueryOptions,
  checkSubscription,
  rereadSubscription,
} from '../billing-api.ts';
import { usePortal } from '../use-portal.ts';

const text = accountMessages;

/**
 * The account page's subscription status: active or not, the plan, credits and free trainings,
 * with Refresh (re-reads it from the payment provider) and Manage Subscription.
 */
export function SubscriptionStatusCard({
  subscription,
}: {
  subscription: SessionSubscription | null;
}) {
  const queryClient = useQueryClient();
  // The billing view adds the plan's name and period; the session's figures show meanwhile.
  const billing = useQuery(billingSubscriptionQueryOptions());
  const portal = usePortal();
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<string | null>(null);

  async function refresh() {
    if (refreshing) return;
    setRefreshing(true);
    setRefreshError(null);
    try {
      await applySubscription(queryClient, await checkSubscription());
      notify.success(text.refreshed);
    } catch (error) {
      console.warn('Subscription check failed', error);
      setRefreshError(billingMessages.checkSubscriptionFailed);
      void rereadSubscription(queryClient);
    } finally {
      setRefreshing(false);
    }
  }

  const active = subscription?.active === true;
  const details = billing.data;
  const periodEnd = details?.currentPeriodEnd ? formatDate(details.currentPeriodEnd) : null;
  const planLabel = active ? (details?.planTitle ?? tierName(subscription?.tier)) : text.noPlan;
  const stats = [
    { label: text.credits, value: subscription?.credits ?? 0 },
    { label: text.freeTrainingsLeft, value: subscription?.monthlyFreeTrainingsLeft ?? 0 },
  ];

  return (
    <section aria-labelledby="subscription-status-title">
      <Card>
        <CardContent className="flex flex-col gap-6">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="flex flex-col gap-2">
              <h2 id="subscription-status-title" className="text-lg font-semibold text-neutral-950">
                {text.subscriptionStatus}
              </h2>
              <div className="flex flex-wrap items-center gap-3">
                <p className="text-2xl font-semibold text-neutral-950">
                  <span className="sr-only">{text.plan}: </span>
                  {planLabel}
                </p>
                <Badge variant={active ? 'success' : 'neutral'} size="md">
                  {active ? text.active : text.inactive}
                </Badge>
              </div>
              {/* The period line's room is kept while the billing view loads. */}
              <div className="min-h-5 text-sm text-neutral-600">
                {active && billing.isPending ? (
                  <Skeleton className="h-4 w-40" />
                ) : active && periodEnd ? (
                  details?.cancelAtPeriodEnd ? (
                    billingMessages.cancelNotice(periodEnd)
                  ) : (
                    billingMessages.renewsOn(periodEnd)
                  )
                ) : active ? null : (
                  dashboardMessages.noPlanHint
                )}
              </div>
            </div>
            <div className="flex flex-col gap-2 sm:flex-row-reverse sm:gap-3">
              {active ? (
                <Button
                  variant="outline"
                  className="w-full sm:w-auto"
                  loading={portal.opening}
                  onClick={() => void portal.open()}
                >
                  {portal.opening ? null : <Settings aria-hidden="true" className="size-4" />}
                  {portal.opening ? billingMessages.opening : text.manageSubscription}
                </Button>
              ) : null}
              <Button
                variant="ghost"
                className="w-full sm:w-auto"
                loading={refreshing}
                onClick={() => void refresh()}
                aria-label={refreshing ? text.refreshing : text.refresh}
              >
                {refreshing ? null : <RefreshCw aria-hidden="true" className="size-4" />}
                {refreshing ? text.refreshing : text.refresh}
              </Button>
            </div>
          </div>
          {refreshError ? <FormAlert>{refreshError}</FormAlert> : null}
          {portal.error ? <FormAlert>{portal.error}</FormAlert> : null}
          <dl className="grid grid-cols-2 gap-6 border-t border-neutral-200 pt-6">
            {stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse justify-end gap-1">
                <dt className="text-sm text-neutral-500">{stat.label}</dt>
                <dd className="text-3xl font-semibold text-neutral-950 tabular-nums">
                  {stat.value}
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </section>
  );
}
