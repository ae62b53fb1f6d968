import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, Lock } from 'lucide-react';
import { Link, useParams } from 'react-router';
import type { TestCheckout } from '../../../../common/api/billing.ts';
import { accountMessages } from '../../../../common/messages/account.ts';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { commonMessages } from '../../../../common/messages/shell.ts';
import { formatUsd } from '../../../../common/product/money.ts';
import { routes } from '../../../../common/product/routes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  cancelTestCheckout,
  payTestCheckout,
  redirectTo,
  testCheckoutQueryOptions,
} from '../billing-api.ts';
import { TestModePage } from '../components/test-mode-banner.tsx';

const text = billingMessages.testMode;

/**
 * /test-checkout/{id} (BILLING=local): stands in for the payment provider's hosted checkout.
 * Pay and Cancel go wherever the server says next, exactly as the provider would send them.
 */
export function TestCheckoutPage() {
  usePageTitle(text.checkoutTitle);
  const { id = '' } = useParams();
  const query = useQuery(testCheckoutQueryOptions(id));
  const [action, setAction] = useState<'pay' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(kind: 'pay' | 'cancel') {
    if (action) return;
    setAction(kind);
    setError(null);
    try {
      const result = await (kind === 'pay' ? payTestCheckout(id) : cancelTestCheckout(id));
      // Stays busy: the page is being left.
      redirectTo(result.redirectUrl);
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : commonMessages.unexpectedError);
      setAction(null);
    }
  }

  return (
    <TestModePage
      title={text.checkoutTitle}
      badge={
        <span className="inline-flex items-center rounded-full bg-warning-50 px-2.5 py-0.5 text-xs font-medium text-warning-900 ring-1 ring-warning-300 ring-inset">
          {billingMessages.testCheckout.badge}
        </span>
      }
      subtitle={text.checkoutSubtitle}
    >
      {query.isPending ? (
        <CheckoutSkeleton />
      ) : query.isError ? (
        <FormAlert>{text.loadFailed}</FormAlert>
      ) : query.data.status !== 'open' ? (
        <Card className="flex flex-col items-start gap-4 p-6 md:p-8">
          <h2 className="text-lg font-semibold text-neutral-950">{text.closedTitle}</h2>
          <p className="text-sm text-neutral-600">{billingMessages.checkoutClosed}</p>
          <Button asChild variant="outline">
            <Link to={routes.subscription}>{text.backToPlans}</Link>
          </Button>
        </Card>
      ) : (
        <Card className="flex flex-col">
          <OrderSummary checkout={query.data} />
          <div className="flex flex-col gap-4 border-t border-neutral-200 p-6 md:p-8">
            {error ? <FormAlert>{error}</FormAlert> : null}
            <p className="flex items-center gap-2 text-sm text-neutral-600">
              <CreditCard aria-hidden="true" className="size-4 text-neutral-500" />
              {billingMessages.testCheckout.notice}
            </p>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button
                variant="ghost"
                size="lg"
                disabled={action !== null}
                loading={action === 'cancel'}
                onClick={() => void run('cancel')}
              >
                {action === 'cancel' ? text.leaving : billingMessages.testCheckout.cancel}
              </Button>
              <Button
                size="lg"
                disabled={action !== null}
                loading={action === 'pay'}
                onClick={() => void run('pay')}
              >
                {action === 'pay' ? null : <Lock aria-hidden="true" className="size-4" />}
                {action === 'pay'
                  ? text.paying
                  : billingMessages.testCheckout.pay(formatUsd(query.data.priceUsd))}
              </Button>
            </div>
          </div>
        </Card>
      )}
    </TestModePage>
  );
}

function OrderSummary({ checkout }: { checkout: TestCheckout }) {
  const billing =
    checkout.interval === 'year'
      ? text.billedYearly
      : checkout.interval === 'month'
        ? text.billedMonthly
        : text.oneTime;
  const perInterval =
    checkout.interval === 'year'
      ? billingMessages.perYear
      : checkout.interval === 'month'
        ? billingMessages.perMonth
        : null;
  const rows = [
    { label: text.account, value: checkout.email },
    {
      label: accountMessages.credits,
      value:
        checkout.kind === 'pack'
          ? text.creditsAdded(checkout.credits)
          : text.creditsEveryMonth(checkout.credits),
    },
  ];
  return (
    <div className="flex flex-col gap-6 p-6 md:p-8">
      <h2 className="text-sm font-medium tracking-wide text-neutral-500 uppercase">
        {text.orderSummary}
      </h2>
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <p className="text-xl font-semibold text-neutral-950">{checkout.title}</p>
          <p className="text-sm text-neutral-600">{billing}</p>
        </div>
        <p className="text-right whitespace-nowrap">
          <span className="text-2xl font-semibold text-neutral-950 tabular-nums">
            {formatUsd(checkout.priceUsd)}
          </span>
          {perInterval ? (
            <span className="ml-1 text-sm text-neutral-500">{perInterval}</span>
          ) : null}
        </p>
      </div>
      <dl className="flex flex-col gap-3 border-t border-neutral-200 pt-5 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex justify-between gap-4">
            <dt className="text-neutral-500">{row.label}</dt>
            {/* An address breaks anywhere rather than at its hyphens, which reads as two words. */}
            <dd className="min-w-0 text-right font-medium break-all text-neutral-900">
              {row.value}
            </dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-neutral-200 pt-4 text-base">
          <dt className="font-semibold text-neutral-950">{text.totalToday}</dt>
          <dd className="font-semibold text-neutral-950 tabular-nums">
            {formatUsd(checkout.priceUsd)}
          </dd>
        </div>
      </dl>
    </div>
  );
}

function CheckoutSkeleton() {
  return (
    <Card aria-busy="true" className="flex flex-col gap-6 p-6 md:p-8">
      <span className="sr-only" role="status">
        {commonMessages.loadingEllipsis}
      </span>
      <Skeleton className="h-4 w-32" />
      <div className="flex justify-between gap-4">
        <div className="flex flex-col gap-2">
          <Skeleton className="h-7 w-40" />
          <Skeleton className="h-4 w-52" />
        </div>
        <Skeleton className="h-8 w-24" />
      </div>
      <Skeleton className="h-28 w-full" />
      <div className="flex justify-end gap-3">
        <Skeleton shape="pill" className="h-12 w-40" />
        <Skeleton shape="pill" className="h-12 w-32" />
      </div>
    </Card>
  );
}
