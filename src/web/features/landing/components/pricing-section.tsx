import { Check } from 'lucide-react';
import { landingMessages } from '../../../../common/messages/landing.ts';
import { planCardMessages } from '../../../../common/messages/plans.ts';
import { formatUsd } from '../../../../common/product/money.ts';
import { PLANS_ON_SALE } from '../../../../common/product/plans.ts';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { SectionHeading } from './section-heading.tsx';
import { SessionCta } from './session-cta.tsx';
import { belowTheFold } from '../lib/below-the-fold.ts';

const billing = planCardMessages;

/** The three plans on sale; the top bar's Pricing link lands here (#pricing). */
export function PricingSection() {
  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className={cn('scroll-mt-20 py-16 md:py-24', belowTheFold)}
    >
      <Container>
        <SectionHeading
          id="pricing-title"
          title={landingMessages.pricing.title}
          subtitle={landingMessages.pricing.subtitle}
        />
        <ul className="mx-auto mt-12 grid max-w-5xl items-stretch gap-6 md:grid-cols-3">
          {PLANS_ON_SALE.map((plan) => (
            <li
              key={plan.id}
              data-testid={`plan-${plan.id}`}
              className={cn(
                'relative flex flex-col gap-6 rounded-card p-7',
                plan.popular
                  ? 'bg-neutral-950 text-white shadow-lifted md:-my-3 md:py-10'
                  : 'bg-white shadow-card ring-1 ring-neutral-200/70',
              )}
            >
              {plan.popular ? (
                <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-600 px-3 py-1 text-xs font-semibold tracking-wider text-white">
                  {billing.mostPopular}
                </p>
              ) : null}
              <div className="flex flex-col gap-2">
                <h3 className="text-lg font-semibold">{plan.title}</h3>
                <p className="flex items-baseline gap-1.5">
                  <span className="text-4xl font-semibold tracking-tight">
                    {formatUsd(plan.priceUsd)}
                  </span>
                  <span className={plan.popular ? 'text-neutral-300' : 'text-neutral-500'}>
                    {billing.perMonth}
                  </span>
                </p>
                <p
                  className={cn(
                    'text-sm leading-relaxed',
                    plan.popular ? 'text-neutral-300' : 'text-neutral-600',
                  )}
                >
                  {plan.description}
                </p>
              </div>
              <p
                className={cn(
                  'rounded-xl px-4 py-2.5 text-sm font-semibold',
                  plan.popular ? 'bg-white/10 text-white' : 'bg-accent-50 text-accent-800',
                )}
              >
                {billing.creditsPerMonth(plan.monthlyCredits)}
              </p>
              <div className="flex flex-1 flex-col gap-3">
                <p className="text-sm font-medium">{billing.includes}</p>
                <ul className="flex flex-col gap-2.5 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-2">
                      <Check
                        aria-hidden="true"
                        className={cn(
                          'mt-0.5 size-4 shrink-0',
                          plan.popular ? 'text-accent-300' : 'text-accent-600',
                        )}
                      />
                      {feature}
                    </li>
                  ))}
                </ul>
              </div>
              <SessionCta
                size="md"
                variant={plan.popular ? 'primary' : 'outline'}
                className="w-full"
              />
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
