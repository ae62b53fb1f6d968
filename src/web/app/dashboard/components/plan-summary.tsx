import { ArrowRight, Coins, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { accountMessages } from '../../../../common/messages/account.ts';
import { dashboardMessages } from '../../../../common/messages/dashboard.ts';
import { routes } from '../../../../common/product/routes.ts';
import { tierName } from '../../../../common/product/tiers.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import type { SessionSubscription } from '../../../lib/session.ts';
import type { NextStep } from '../next-step.ts';

const text = dashboardMessages;

/**
 * The plan and balance at a glance, with the next step that fits where the user stands (see
 * `dashboardNextStep`). Compact on a phone, so the studio's tabs start on the first screen.
 */
export function PlanSummary({
  subscription,
  nextStep,
}: {
  subscription: SessionSubscription | null;
  nextStep: NextStep;
}) {
  const active = subscription?.active === true && subscription.tier !== 'none';
  const stats = [
    { label: accountMessages.credits, value: String(subscription?.credits ?? 0) },
    {
      label: accountMessages.freeTrainingsLeft,
      value: String(subscription?.monthlyFreeTrainingsLeft ?? 0),
    },
  ];

  return (
    <section aria-labelledby="plan-title" data-testid="plan-summary" data-next-step={nextStep.kind}>
      <Card className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-4 p-4 md:grid-cols-[1.1fr_1.4fr_auto] md:items-center md:gap-8 md:p-6">
        <div className="flex min-w-0 flex-col gap-0.5 md:gap-1.5">
          <h2 id="plan-title" className="text-xs font-medium text-neutral-500 md:text-sm">
            {text.planTitle}
          </h2>
          <div className="flex flex-wrap items-center gap-2 md:gap-2.5">
            <p className="text-lg font-semibold text-neutral-950 md:text-xl">
              {active ? tierName(subscription?.tier) : accountMessages.noPlan}
            </p>
            {active ? <Badge variant="success">{accountMessages.active}</Badge> : null}
          </div>
          {/* On a phone the main action says it; the line would push the studio down. */}
          {active ? null : (
            <p className="hidden text-sm text-neutral-600 md:block">{text.noPlanHint}</p>
          )}
        </div>
        {/* Each figure is read with its label (dt first), shown after it: a compact column on a
            phone, two big figures from the tablet size up. */}
        <dl className="flex flex-col items-end justify-center gap-1 md:grid md:grid-cols-2 md:items-stretch md:gap-5 md:border-l md:border-neutral-200 md:pl-8">
          {stats.map((stat) => (
            <div
              key={stat.label}
              className="flex flex-row-reverse items-baseline gap-1.5 md:flex-col-reverse md:items-start md:justify-end md:gap-1"
            >
              <dt className="text-xs text-neutral-500 md:text-sm">{stat.label}</dt>
              <dd className="text-base font-semibold text-neutral-950 tabular-nums md:text-2xl">
                {stat.value}
              </dd>
            </div>
          ))}
        </dl>
        <div className="col-span-2 flex flex-col gap-2 md:col-span-1">
          <NextStepActions nextStep={nextStep} />
        </div>
      </Card>
    </section>
  );
}

function NextStepActions({ nextStep }: { nextStep: NextStep }) {
  if (nextStep.kind === 'loading') {
    return <Skeleton shape="pill" className="h-9 w-full md:w-48" />;
  }
  return (
    <>
      <div className="flex flex-wrap gap-2 md:flex-col md:items-stretch">
        <ButtonLink
          to={nextStep.primary.to}
          icon={Sparkles}
          trailingIcon={ArrowRight}
          size="sm"
          data-testid="next-step"
        >
          {nextStep.primary.label}
        </ButtonLink>
        {nextStep.secondary.map((link) => (
          <Button
            key={link.to}
            asChild
            size="sm"
            variant={link.to === routes.buyCredits ? 'ghost' : 'outline'}
          >
            <Link to={link.to}>
              {link.to === routes.buyCredits ? (
                <Coins aria-hidden="true" className="size-4" />
              ) : null}
              {link.label}
            </Link>
          </Button>
        ))}
      </div>
      {nextStep.note ? (
        <p className="text-xs text-neutral-600 md:max-w-56" data-testid="next-step-note">
          {nextStep.note.text}{' '}
          {nextStep.note.link ? (
            <Link
              to={nextStep.note.link.to}
              className="font-medium text-accent-700 underline underline-offset-2"
            >
              {nextStep.note.link.label}
            </Link>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
