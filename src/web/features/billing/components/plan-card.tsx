import { Check, Coins } from 'lucide-react';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { formatUsd } from '../../../../common/product/money.ts';
import type { Plan } from '../../../../common/product/plans.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';

const text = billingMessages;

export type PlanCardState = 'select' | 'current' | 'processing' | 'unavailable';

export interface PlanCardProps {
  plan: Plan;
  state: PlanCardState;
  /** Another card is processing: this one waits too, so only one checkout starts. */
  busy?: boolean;
  onSelect: () => void;
  headingLevel?: 'h2' | 'h3';
  /** What an unavailable plan lacks, on its button (default: custom prompts). */
  unavailableLabel?: string;
}

const buttonLabels: Record<PlanCardState, string> = {
  select: text.selectPlan,
  current: text.currentPlan,
  processing: text.processing,
  unavailable: text.noCustomPrompts,
};

/**
 * One plan of the plan page (also on the account page): title, monthly price, description, what
 * it includes and its monthly credits, with the action that fits the visitor's situation.
 */
export function PlanCard({
  plan,
  state,
  busy = false,
  onSelect,
  headingLevel: Heading = 'h2',
  unavailableLabel = buttonLabels.unavailable,
}: PlanCardProps) {
  const titleId = `plan-${plan.id}-title`;
  const highlighted = plan.popular && state !== 'unavailable';
  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'relative flex h-full flex-col gap-6 rounded-card border p-6 shadow-card md:p-7',
        state === 'unavailable' ? 'bg-neutral-50' : 'bg-white',
        state === 'current'
          ? 'border-success-600/40 ring-1 ring-success-600/40'
          : highlighted
            ? 'border-accent-300 ring-1 ring-accent-300'
            : 'border-neutral-200/80',
      )}
    >
      <div className="flex flex-col gap-3">
        {/* Badges sit on the card's top edge, so every title lines up with or without one. */}
        {plan.popular || state === 'current' ? (
          <div className="absolute -top-3 left-6 flex gap-2">
            {plan.popular ? (
              <Badge variant="accent" className="tracking-wide">
                {text.mostPopular}
              </Badge>
            ) : null}
            {state === 'current' ? <Badge variant="success">{text.currentPlan}</Badge> : null}
          </div>
        ) : null}
        <Heading id={titleId} className="text-xl font-semibold text-neutral-950">
          {plan.title}
        </Heading>
        <p className="flex items-baseline gap-1.5">
          <span className="text-4xl font-semibold tracking-tight text-neutral-950 tabular-nums">
            {formatUsd(plan.priceUsd)}
          </span>
          <span className="text-sm text-neutral-500">{text.perMonth}</span>
        </p>
        <p className="text-sm leading-relaxed text-neutral-600">{plan.description}</p>
      </div>

      <p className="flex items-center gap-2 rounded-control bg-accent-50 px-3 py-2 text-sm font-medium text-accent-800">
        <Coins aria-hidden="true" className="size-4" />
        {text.creditsPerMonth(plan.monthlyCredits)}
      </p>

      <div className="flex flex-1 flex-col gap-3">
        <p className="text-sm font-medium text-neutral-900">{text.includes}</p>
        <ul className="flex flex-col gap-2.5">
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2.5 text-sm text-neutral-700">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success-600" />
              {feature}
            </li>
          ))}
        </ul>
      </div>

      <Button
        size="lg"
        className="w-full"
        variant={state === 'select' && plan.popular ? 'primary' : 'outline'}
        disabled={state === 'current' || state === 'unavailable' || busy}
        loading={state === 'processing'}
        onClick={onSelect}
        aria-describedby={titleId}
      >
        {state === 'unavailable' ? unavailableLabel : buttonLabels[state]}
      </Button>
    </article>
  );
}
