import { useEffect, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, Coins, Sparkles, UserRound } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { messages } from '../../../../common/messages.ts';
import { routes, tierName, timings } from '../../../../common/product.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../auth/session.ts';
import { applySubscription, checkSubscription } from '../../billing/billing-api.ts';

const text = messages.dashboard;

const nextSteps: readonly {
  to: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  title: string;
  description: string;
}[] = [
  {
    to: routes.createModel,
    icon: Sparkles,
    title: text.createModel.title,
    description: text.createModel.text,
  },
  {
    to: routes.buyCredits,
    icon: Coins,
    title: text.buyCredits.title,
    description: text.buyCredits.text,
  },
  {
    to: routes.account,
    icon: UserRound,
    title: text.account.title,
    description: text.account.text,
  },
];

/**
 * /dashboard, for now: who is signed in, their plan and balance, and where to go next. The
 * studio (presets, generation, history) replaces it; until then it claims nothing it cannot do.
 */
export function DashboardPage() {
  usePageTitle(messages.pageTitles.dashboard);
  // Inside RequireAuth, so the session is there.
  const { user, subscription } = useSession();
  usePaymentReturnRefresh();
  const active = subscription?.active === true && subscription.tier !== 'none';
  const stats = [
    { label: messages.account.credits, value: String(subscription?.credits ?? 0) },
    {
      label: messages.account.freeTrainingsLeft,
      value: String(subscription?.monthlyFreeTrainingsLeft ?? 0),
    },
  ];

  return (
    <Container className="flex flex-col gap-10 py-10 md:gap-12 md:py-14">
      <PageHeader
        eyebrow={messages.pageTitles.dashboard}
        title={user?.name ? text.greeting(user.name) : text.greetingNoName}
        description={text.subtitle}
      />

      <section aria-labelledby="plan-title">
        <Card className="grid gap-6 p-6 md:grid-cols-[1fr_1.2fr] md:items-center md:p-8">
          <div className="flex flex-col gap-2">
            <h2 id="plan-title" className="text-sm font-medium text-neutral-500">
              {text.planTitle}
            </h2>
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-2xl font-semibold text-neutral-950">
                {active ? tierName(subscription?.tier) : messages.account.noPlan}
              </p>
              {active ? <Badge variant="success">{messages.account.active}</Badge> : null}
            </div>
            {active ? null : <p className="text-sm text-neutral-600">{text.noPlanHint}</p>}
          </div>
          {/* Each figure is read with its label (dt first), shown below it. */}
          <dl className="grid grid-cols-2 gap-6 border-t border-neutral-200 pt-6 md:border-t-0 md:border-l md:pt-0 md:pl-8">
            {stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse justify-end gap-1">
                <dt className="text-sm text-neutral-500">{stat.label}</dt>
                <dd className="text-3xl font-semibold text-neutral-950 tabular-nums">
                  {stat.value}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      </section>

      <section aria-labelledby="next-steps-title" className="flex flex-col gap-5">
        <h2 id="next-steps-title" className="text-xl font-semibold text-neutral-950">
          {text.nextStepsTitle}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {nextSteps.map(({ to, icon: Icon, title, description }) => (
            <li key={to}>
              <Link
                to={to}
                className="group flex h-full flex-col gap-4 rounded-card border border-neutral-200/80 bg-white p-6 shadow-card transition-shadow hover:shadow-lifted"
              >
                <span className="flex size-11 items-center justify-center rounded-full bg-accent-50 text-accent-700">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="flex flex-col gap-1.5">
                  <span className="flex items-center gap-2 text-base font-semibold text-neutral-950">
                    {title}
                    <ArrowRight
                      aria-hidden="true"
                      className="size-4 text-neutral-400 transition-transform group-hover:translate-x-0.5 group-hover:text-neutral-700 motion-reduce:transition-none"
                    />
                  </span>
                  <span className="text-sm leading-relaxed text-neutral-600">{description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </Container>
  );
}

/**
 * ?payment=success (a payment provider's return to the dashboard): the plan may land a moment
 * after the browser does, so the subscription is refreshed after the specification's 2 s and the
 * parameter is removed (a reload should not refresh again).
 */
function usePaymentReturnRefresh() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const paymentReturn = searchParams.get('payment') === 'success';

  useEffect(() => {
    if (!paymentReturn) return;
    const timer = setTimeout(() => {
      checkSubscription()
        .then((subscription) => applySubscription(queryClient, subscription))
        .catch((error: unknown) => console.warn('Subscription check failed', error));
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('payment');
          return next;
        },
        { replace: true },
      );
    }, timings.dashboardPaymentRefreshMs);
    return () => clearTimeout(timer);
  }, [paymentReturn, queryClient, setSearchParams]);
}
