import { ArrowRight, ImagePlus, Shirt, Sparkles } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { tryonMessages } from '../../../../common/messages/tryon.ts';
import { PLANS_ON_SALE } from '../../../../common/product/plans.ts';
import { routes, subscriptionFrom } from '../../../../common/product/routes.ts';
import { tryOn as tryOnNumbers } from '../../../../common/product/tryon.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { PlanCard } from '../../billing/components/plan-card.tsx';
import { PlanGrid } from '../../billing/components/plan-grid.tsx';
import afterUrl from '../assets/tryon-after.webp';
import beforeUrl from '../assets/tryon-before.webp';
import { CompareSlider } from '../components/compare-slider.tsx';
import { publicCtaTarget } from '../tryon-rules.ts';

const text = tryonMessages.publicPage;
/** The demo pictures' size (scripts/make-tryon-demo.ts). */
const demoSize = { width: 800, height: 1000 } as const;
const stepIcons = [ImagePlus, Shirt, Sparkles] as const;

/**
 * /tryon, open to everyone: what try-on does (a before/after to drag), how it works, the plans
 * and the way in, which depends on who is looking (sign-up, a plan with try-on, or the tab).
 */
export function TryOnPage() {
  usePageTitle(pageTitleMessages.tryOn);
  return (
    <>
      <Hero />
      <HowItWorks />
      <Plans />
    </>
  );
}

function TryOnCta({ className }: { className?: string }) {
  const { status, subscription } = useSession();
  const known = status !== 'loading';
  const target = publicCtaTarget(status === 'signed-in', subscription);
  const label =
    target.kind === 'open' ? text.ctaOpen : target.kind === 'upgrade' ? text.ctaUpgrade : text.cta;
  // Until the session is known the button keeps its room but stays hidden, so nobody is sent
  // the wrong way and nothing moves when it appears.
  return (
    <Button
      asChild
      size="lg"
      className={cn(!known && 'invisible', className)}
      aria-hidden={known ? undefined : true}
    >
      <Link to={target.to} tabIndex={known ? undefined : -1}>
        {label}
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </Button>
  );
}

function Hero() {
  return (
    <section aria-labelledby="tryon-page-title" className="py-12 md:py-20">
      <Container className="grid items-center gap-10 md:grid-cols-[1fr_minmax(0,28rem)] md:gap-16">
        <div className="flex flex-col items-start gap-6">
          <p className="text-sm font-medium tracking-wide text-accent-700">{tryonMessages.tab}</p>
          <h1
            id="tryon-page-title"
            className="text-4xl font-semibold tracking-tight text-neutral-950 md:text-6xl"
          >
            {text.title}
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-neutral-600 md:text-xl">
            {text.subtitle} {text.lead}
          </p>
          <TryOnCta />
          <p className="text-sm text-neutral-600">{text.availability}</p>
        </div>
        <figure className="flex flex-col gap-3">
          <CompareSlider
            before={{ src: beforeUrl, alt: text.beforeAlt, ...demoSize }}
            after={{ src: afterUrl, alt: text.afterAlt, ...demoSize }}
            beforeLabel={text.before}
            afterLabel={text.after}
            label={text.sliderLabel}
            valueText={text.sliderValue}
            initialPercent={tryOnNumbers.publicSliderStartPercent}
            className="w-full"
          />
          <figcaption className="text-center text-xs text-neutral-500">
            {text.sliderLabel}. {text.demoNote}
          </figcaption>
        </figure>
      </Container>
    </section>
  );
}

function HowItWorks() {
  return (
    <section aria-labelledby="tryon-how-title" className="bg-white py-16 md:py-24">
      <Container className="flex flex-col gap-12">
        <h2
          id="tryon-how-title"
          className="text-center text-3xl font-semibold text-neutral-950 md:text-4xl"
        >
          {text.howItWorksTitle}
        </h2>
        <ol className="grid gap-6 md:grid-cols-3">
          {text.steps.map((step, index) => {
            const Icon = stepIcons[index] ?? Sparkles;
            return (
              <li
                key={step.title}
                className="flex flex-col gap-4 rounded-card border border-neutral-200/80 bg-neutral-50 p-6 md:p-7"
              >
                <div className="flex items-center gap-3">
                  <span className="flex size-11 items-center justify-center rounded-full bg-accent-600 text-white">
                    <Icon aria-hidden="true" className="size-5" />
                  </span>
                  <span className="text-sm font-semibold text-accent-700">
                    {text.stepLabel(index + 1)}
                  </span>
                </div>
                <h3 className="text-lg font-semibold text-neutral-950">{step.title}</h3>
                <p className="text-sm leading-relaxed text-neutral-600">{step.text}</p>
              </li>
            );
          })}
        </ol>
        <p className="text-center text-sm text-neutral-600">{tryonMessages.duration}</p>
      </Container>
    </section>
  );
}

function Plans() {
  const { status, subscription } = useSession();
  const navigate = useNavigate();
  return (
    <section aria-labelledby="tryon-plans-title" className="py-16 md:py-24">
      <Container className="flex flex-col gap-10">
        <div className="mx-auto flex max-w-2xl flex-col gap-3 text-center">
          <h2
            id="tryon-plans-title"
            className="text-3xl font-semibold text-neutral-950 md:text-4xl"
          >
            {text.plansTitle}
          </h2>
          <p className="text-lg text-neutral-600">{text.availability}</p>
        </div>
        {status === 'signed-in' ? (
          <PlanGrid subscription={subscription} from={subscriptionFrom.tryOn} headingLevel="h3" />
        ) : (
          // Choosing a plan needs an account first: sign-up, then the plans.
          <ul aria-label={billingMessages.plansLabel} className="grid gap-5 lg:grid-cols-3">
            {PLANS_ON_SALE.map((plan) => (
              <li key={plan.id}>
                <PlanCard
                  plan={plan}
                  state="select"
                  headingLevel="h3"
                  onSelect={() => void navigate(routes.signup)}
                />
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-center">
          <TryOnCta />
        </div>
      </Container>
    </section>
  );
}
