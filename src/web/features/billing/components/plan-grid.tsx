import { messages } from '../../../../common/messages.ts';
import { PLANS_ON_SALE, subscriptionFrom, type Plan } from '../../../../common/product.ts';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import type { SessionSubscription } from '../../auth/session.ts';
import { usePlanCheckout, type PlanCheckoutOptions } from '../use-plan-checkout.ts';
import { PlanCard, type PlanCardState } from './plan-card.tsx';

export interface PlanGridProps extends PlanCheckoutOptions {
  subscription: SessionSubscription | null;
  headingLevel?: 'h2' | 'h3';
}

/** The three plans on sale, side by side from the desktop size up, with the checkout action. */
export function PlanGrid({ subscription, from, redirect, headingLevel }: PlanGridProps) {
  const checkout = usePlanCheckout({ from, redirect });
  const active = subscription?.active === true;

  function stateOf(plan: Plan): PlanCardState {
    if (checkout.pendingPriceId === plan.priceId) return 'processing';
    if (active && subscription?.tier === plan.tier) return 'current';
    // Basic has no custom prompts, so it is no answer to someone who came for them.
    if (plan.tier === 'basic' && from === subscriptionFrom.customPrompt) return 'unavailable';
    return 'select';
  }

  return (
    <div className="flex flex-col gap-5">
      {checkout.error ? <FormAlert>{checkout.error}</FormAlert> : null}
      <ul aria-label={messages.billing.plansLabel} className="grid gap-5 lg:grid-cols-3">
        {PLANS_ON_SALE.map((plan) => (
          <li key={plan.id}>
            <PlanCard
              plan={plan}
              state={stateOf(plan)}
              busy={checkout.pendingPriceId !== null}
              onSelect={() => void checkout.choose(plan.priceId)}
              headingLevel={headingLevel}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
