import type { RefObject } from 'react';
import { Check, Headphones, LockKeyhole, ShieldCheck } from 'lucide-react';
import { offerMessages } from '../../../../common/messages/quiz.ts';
import { routes } from '../../../../common/product/routes.ts';
import { tierName } from '../../../../common/product/tiers.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session.ts';
import { useOfferCheckout } from '../use-offer-checkout.ts';
import { OfferCountdown } from './offer-countdown.tsx';
import { StageHeading } from './stage-heading.tsx';

const text = offerMessages;
const claimIcons = [ShieldCheck, LockKeyhole, Headphones] as const;

/** Stage 3 of the results: the Premium Yearly offer with its countdown. */
export function OfferStage({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { claim, busy } = useOfferCheckout();
  // A buyer comes back here after paying: offering the plan again would only earn an error.
  const { subscription } = useSession();
  const subscribed = subscription?.active === true;

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col items-center gap-2 text-center">
        <StageHeading headingRef={headingRef} size="lg">
          {text.title}
        </StageHeading>
        <p className="max-w-md text-base leading-relaxed text-neutral-600">{text.subtitle}</p>
      </header>

      <OfferCountdown />

      <Card
        role="article"
        aria-labelledby="offer-plan-title"
        className="relative overflow-hidden border-accent-200"
      >
        <div className="flex flex-col gap-6 p-6 md:p-8">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="offer-plan-title" className="text-xl font-semibold text-neutral-950">
              {text.planTitle}
            </h2>
            <div className="flex flex-wrap gap-2">
              <Badge variant="accent" size="md">
                {text.savingsPercent}
              </Badge>
              <Badge variant="success" size="md">
                {text.savingsAmount}
              </Badge>
            </div>
          </div>

          <div className="flex flex-col gap-1">
            <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <span className="text-4xl font-semibold tracking-tight text-neutral-950 md:text-5xl">
                {text.price}
              </span>
              <s className="text-lg text-neutral-500">{text.strikethrough}</s>
            </p>
            <p className="text-sm text-neutral-600">
              <span className="font-medium text-neutral-900">{text.monthlyEquivalent}</span>
              {' · '}
              {text.billedYearly}
            </p>
            <p className="text-sm text-neutral-500">{text.regularPrice}</p>
          </div>

          <p className="rounded-control bg-accent-50 px-4 py-3 text-sm font-medium text-accent-800">
            {text.creditsPerMonth} ({text.creditsPerYear})
          </p>

          <div className="flex flex-col gap-3">
            <h3 className="text-sm font-semibold text-neutral-900">{text.featuresHeading}</h3>
            <ul className="flex flex-col gap-2.5">
              {text.features.map((feature) => (
                <li key={feature} className="flex items-start gap-3 text-sm text-neutral-700">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success-600" />
                  {feature}
                </li>
              ))}
            </ul>
          </div>

          {subscribed ? (
            <div className="flex flex-col gap-3 text-center">
              <p role="status" className="text-sm font-medium text-neutral-700">
                {text.alreadySubscribed(tierName(subscription.tier))}
              </p>
              <Button size="lg" asChild className="w-full">
                <Link to={routes.dashboard}>{text.goToDashboard}</Link>
              </Button>
            </div>
          ) : (
            <Button size="lg" loading={busy} onClick={() => void claim()} className="w-full">
              {busy ? text.processing : text.cta}
            </Button>
          )}
        </div>
      </Card>

      <ul className="grid gap-3 sm:grid-cols-3">
        {text.claims.map((claim, index) => {
          const Icon = claimIcons[index] ?? ShieldCheck;
          return (
            <li
              key={claim}
              className="flex items-center gap-3 rounded-card border border-neutral-200/80 bg-white px-4 py-3 text-sm font-medium text-neutral-800 sm:flex-col sm:text-center"
            >
              <Icon aria-hidden="true" className="size-5 shrink-0 text-accent-600" />
              {claim}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
