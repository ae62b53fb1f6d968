import { billingMessages } from '../../../../common/messages/billing.ts';
import { type Plan, PLANS_ON_SALE } from '../../../../common/product/plans.ts';
import { subscriptionFrom } from '../../../../common/product/routes.ts';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import type { SessionSubscription } from '../../../lib/session.ts';
import { usePlanCheckout, type PlanCheckoutOptions } from '../use-plan-checkout.ts';
import { PlanCard, type PlanCardState } from './plan-card.tsx';

export interface PlanGridProps extends PlanCheckoutOptions {
  subscription: SessionSubscription | null;
  headingLevel?: 'h2' | 'h3';
}

/**
 * Basic has neither custom prompts nor try-on (Pro and above), so it is no answer to someone who
 * came for them: its card says what it lacks.
 */
const basicLacks: Partial<Record<string, string>> = {
  [subscriptionFrom.customPrompt]: billingMessages.noCustomPrompts,
  [subscriptionFrom.tryOn]: billingMessages.noTryOn,
};

/** The three plans on sale, side by side from the desktop size up, with the checkout action. */
export function PlanGrid({ subscription, from, redirect, headingLevel }: PlanGridProps) {
  const checkout = usePlanCheckout({ from, redirect });
  const active = subscription?.active === true;

  function stateOf(plan: Plan): PlanCardState {
    if (checkout.pendingPriceId === plan.priceId) return 'processing';
    if (active && subscription?.tier === plan.tier) return 'current';
    if (plan.tier === 'basic' && from && basicLacks[from]) return 'unavailable';
    return 'select';
  }

  return (
    <div className="flex flex-col gap-5">
      {checkout.error ? <FormAlert>{checkout.error}</FormAlert> : null}
      <ul aria-label={billingMessages.plansLabel} className="grid gap-5 lg:grid-cols-3">
        {PLANS_ON_SALE.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              state={stateOf(plan)}
              busy={checkout.pendingPriceId !== null}
              onSelect={() => void checkout.choose(plan.priceId)}
              headingLevel={headingLevel}
              unavailableLabel={from ? basicLacks[from] : undefined}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
