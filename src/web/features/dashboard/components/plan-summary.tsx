import { ArrowRight, Coins, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../../common/messages.ts';
import { routes, tierName } from '../../../../common/product.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import type { SessionSubscription } from '../../auth/session.ts';

const text = messages.dashboard;

/** The plan and balance at a glance, with the next step that fits (choose a plan or top up). */
export function PlanSummary({ subscription }: { subscription: SessionSubscription | null }) {
  const active = subscription?.active === true && subscription.tier !== 'none';
  const stats = [
    { label: messages.account.credits, value: String(subscription?.credits ?? 0) },
    {
      label: messages.account.freeTrainingsLeft,
      value: String(subscription?.monthlyFreeTrainingsLeft ?? 0),
    },
  ];

  return (
    <section aria-labelledby="plan-title">
      <Card className="grid gap-5 p-5 md:grid-cols-[1.1fr_1.4fr_auto] md:items-center md:gap-8 md:p-6">
        <div className="flex flex-col gap-1.5">
          <h2 id="plan-title" className="text-sm font-medium text-neutral-500">
            {text.planTitle}
          </h2>
          <div className="flex flex-wrap items-center gap-2.5">
            <p className="text-xl font-semibold text-neutral-950">
              {active ? tierName(subscription?.tier) : messages.account.noPlan}
            </p>
            {active ? <Badge variant="success">{messages.account.active}</Badge> : null}
          </div>
          {active ? null : <p className="text-sm text-neutral-600">{text.noPlanHint}</p>}
        </div>
        {/* Each figure is read with its label (dt first), shown below it. */}
        <dl className="grid grid-cols-2 gap-5 border-t border-neutral-200 pt-5 md:border-t-0 md:border-l md:pt-0 md:pl-8">
          {stats.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse justify-end gap-1">
              <dt className="text-sm text-neutral-500">{stat.label}</dt>
              <dd className="text-2xl font-semibold text-neutral-950 tabular-nums">{stat.value}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2 md:flex-col md:items-stretch">
          <Button asChild size="sm">
            <Link to={routes.createModel}>
              <Sparkles aria-hidden="true" className="size-4" />
              {text.createModel.title}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </Button>
          {active ? null : (
            <Button asChild size="sm" variant="outline">
              <Link to={routes.subscription}>{text.choosePlan}</Link>
            </Button>
          )}
          <Button asChild size="sm" variant={active ? 'outline' : 'ghost'}>
            <Link to={routes.buyCredits}>
              <Coins aria-hidden="true" className="size-4" />
              {text.buyMoreCredits}
            </Link>
          </Button>
        </div>
      </Card>
    </section>
  );
}
