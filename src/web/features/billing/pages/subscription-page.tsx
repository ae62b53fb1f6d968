import { ArrowLeft, Settings } from 'lucide-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes, subscriptionFrom } from '../../../../common/product/routes.ts';
import { tierName } from '../../../../common/product/tiers.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { isSafeRedirect } from '../../../lib/post-login-redirect.ts';
import { useSession } from '../../../lib/session.ts';
import { CheckoutCancelledNotice } from '../components/checkout-cancelled-notice.tsx';
import { PlanGrid } from '../components/plan-grid.tsx';
import { usePortal } from '../use-portal.ts';

const text = billingMessages;

/**
 * /subscription?from=custom-prompt|tryon&redirect=/path: the plans, worded for why the visitor
 * came. Subscribers see their current plan and the way to manage it.
 */
export function SubscriptionPage() {
  usePageTitle(pageTitleMessages.subscription);
  const [searchParams] = useSearchParams();
  const from = searchParams.get('from');
  const redirectParam = searchParams.get('redirect');
  const redirect = redirectParam && isSafeRedirect(redirectParam) ? redirectParam : null;
  const { subscription } = useSession();
  const active = subscription?.active === true;
  const portal = usePortal(`${routes.subscription}${searchParams.size ? `?${searchParams}` : ''}`);
  const navigate = useNavigate();
  const location = useLocation();

  function goBack() {
    // 'default' is the key of the first page of this tab: there is no in-app page to go back to.
    if (location.key !== 'default') void navigate(-1);
    else void navigate(redirect ?? routes.dashboard);
  }

  const subtitle = active
    ? text.subtitleActive
    : from === subscriptionFrom.customPrompt
      ? text.subtitleCustomPrompt
      : from === subscriptionFrom.tryOn
        ? text.subtitleTryOn
        : text.subtitleDefault;
  const currentTier =
    subscription && subscription.tier !== 'none'
      ? tierName(subscription.tier)
      : text.currentPlanFallbackTier;

  return (
    <Container className="flex flex-col gap-8 py-8 md:gap-10 md:py-12">
      <div>
        <Button variant="ghost" size="sm" className="-ml-3" onClick={goBack}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {commonMessages.back}
        </Button>
      </div>
      <header className="flex flex-col items-start gap-4 md:flex-row md:items-end md:justify-between">
        <div className="flex max-w-2xl flex-col gap-2">
          <h1 className="text-3xl font-semibold text-neutral-950 md:text-4xl">{text.title}</h1>
          <p className="text-lg text-neutral-600">{subtitle}</p>
          {active ? (
            <p className="text-sm font-medium text-accent-800">
              {text.currentPlanNotice(currentTier)}
            </p>
          ) : null}
        </div>
        {active ? (
          <Button variant="outline" loading={portal.opening} onClick={() => void portal.open()}>
            {portal.opening ? null : <Settings aria-hidden="true" className="size-4" />}
            {portal.opening ? text.opening : text.manageSubscription}
          </Button>
        ) : null}
      </header>
      <CheckoutCancelledNotice />
      {portal.error ? <FormAlert>{portal.error}</FormAlert> : null}
      <PlanGrid subscription={subscription} from={from} redirect={redirect} />
    </Container>
  );
}
