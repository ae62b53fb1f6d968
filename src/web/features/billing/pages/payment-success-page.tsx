import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Clock } from 'lucide-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { BillingSubscription } from '../../../../common/api/billing.ts';
import { signupMessages } from '../../../../common/messages/auth.ts';
import { billingMessages, paymentSuccessMessages } from '../../../../common/messages/billing.ts';
import { pageTitleMessages } from '../../../../common/messages/shell.ts';
import { routes, signupOffer } from '../../../../common/product/routes.ts';
import { tierName } from '../../../../common/product/tiers.ts';
import { paymentPollDelayMs, timings } from '../../../../common/product/timings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { takePostLoginRedirect } from '../../../lib/post-login-redirect.ts';
import { useSession } from '../../../lib/session.ts';
import {
  applySubscription,
  checkSubscription,
  redirectTo,
  startYearlyCheckout,
} from '../billing-api.ts';

const text = paymentSuccessMessages;

type Outcome =
  | { kind: 'activating' }
  /** `continueTo`: the page that sent the user to the plans (e.g. model creation), if any. */
  | { kind: 'active'; subscription: BillingSubscription; continueTo: string | null }
  | { kind: 'pending' };

function isActivated(subscription: BillingSubscription): boolean {
  return subscription.active && subscription.tier !== 'none' && subscription.credits > 0;
}

/**
 * /payment-success?session_id=…: where a plan checkout returns. The plan may take a moment to
 * arrive (the provider's webhook races the browser), so the subscription is polled with a
 * growing delay until it is active with credits, or until the attempts run out.
 *
 * /payment-success?offer=yearly without a session id is the Google yearly sign-up's return: a
 * user without a plan goes straight on to the yearly checkout.
 */
export function PaymentSuccessPage() {
  usePageTitle(pageTitleMessages.paymentSuccess);
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id');
  const yearly = searchParams.get('offer') === signupOffer.yearly;

  if (sessionId) return <ActivationStatus sessionId={sessionId} />;
  if (yearly) return <YearlyHandOff />;
  return <Navigate to={routes.account} replace />;
}

function ActivationStatus({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'activating' });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function poll(attempt: number) {
      let latest: BillingSubscription | null = null;
      try {
        // The session id lets the server fulfil the checkout itself if the webhook is late.
        latest = await checkSubscription(sessionId);
      } catch (error) {
        console.warn('Subscription check failed', error);
      }
      if (cancelled) return;
      if (latest) await applySubscription(queryClient, latest);
      if (cancelled) return;
      if (latest && isActivated(latest)) {
        // The page that needed a plan is offered beside the specification's two buttons; the
        // quiz's results are not (the offer they lead to is what was just bought). Either way the
        // stored path is used up, so a later sign-in does not land on it.
        const back = takePostLoginRedirect();
        const offered = back !== routes.quizResults && back !== routes.dashboard;
        setOutcome({ kind: 'active', subscription: latest, continueTo: offered ? back : null });
        return;
      }
      if (attempt + 1 >= timings.paymentPolling.maxAttempts) {
        setOutcome({ kind: 'pending' });
        return;
      }
      timer = setTimeout(() => void poll(attempt + 1), paymentPollDelayMs(attempt));
    }

    void poll(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [sessionId, queryClient]);

  return <StatusCard outcome={outcome} />;
}

function YearlyHandOff() {
  const { subscription } = useSession();
  const active = subscription?.active === true;
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (active || started.current) return;
    started.current = true;
    startYearlyCheckout()
      .then((answer) => {
        if (!answer?.url) throw new Error(billingMessages.noCheckoutUrl);
        redirectTo(answer.url);
      })
      .catch((error: unknown) => {
        console.warn('Yearly checkout failed', error);
        notify.error(signupMessages.paymentRedirectFailedTitle, {
          description: signupMessages.paymentRedirectFailedDescription,
        });
        setFailed(true);
      });
  }, [active]);

  if (active || failed) return <Navigate to={routes.dashboard} replace />;
  return (
    <Container size="sm" className="flex flex-1 items-center justify-center py-16">
      <div className="flex flex-col items-center gap-4 text-center">
        <Spinner size="lg" className="text-accent-600" />
        <p role="status" className="font-medium text-neutral-700">
          {text.startingYearly}
        </p>
      </div>
    </Container>
  );
}

function StatusCard({ outcome }: { outcome: Outcome }) {
  return (
    <Container size="sm" className="flex flex-1 items-center justify-center py-12 md:py-16">
      {/* One card size for all three states, so nothing jumps when the outcome arrives. */}
      <Card className="flex min-h-80 w-full flex-col items-center justify-center gap-6 p-8 text-center md:p-10">
        <div aria-live="polite" className="flex flex-col items-center gap-4">
          {outcome.kind === 'activating' ? (
            <>
              <Spinner size="lg" className="text-accent-600" />
              <h1 className="text-xl font-semibold text-neutral-950">{text.activating}</h1>
            </>
          ) : outcome.kind === 'active' ? (
            <>
              <span className="flex size-14 items-center justify-center rounded-full bg-success-50 text-success-600">
                <CircleCheck aria-hidden="true" className="size-7" />
              </span>
              <h1 className="text-2xl font-semibold text-neutral-950">{text.activeTitle}</h1>
              <p className="max-w-sm leading-relaxed text-neutral-600">
                {text.active(outcome.subscription.planTitle ?? tierName(outcome.subscription.tier))}{' '}
                {text.creditsReady(outcome.subscription.credits)}
              </p>
            </>
          ) : (
            <>
              <span className="flex size-14 items-center justify-center rounded-full bg-accent-50 text-accent-700">
                <Clock aria-hidden="true" className="size-7" />
              </span>
              <h1 className="text-2xl font-semibold text-neutral-950">{text.pendingTitle}</h1>
              <p role="alert" className="max-w-sm leading-relaxed text-neutral-600">
                {text.unableToConfirm}
              </p>
            </>
          )}
        </div>
        <div
          className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row"
          // Shown while activating too (disabled), so the card keeps its height.
          aria-hidden={outcome.kind === 'activating' || undefined}
        >
          {outcome.kind === 'activating' ? (
            <>
              <Button size="lg" disabled tabIndex={-1}>
                {text.goToDashboard}
              </Button>
              <Button size="lg" variant="outline" disabled tabIndex={-1}>
                {text.viewAccount}
              </Button>
            </>
          ) : (
            <>
              {outcome.kind === 'active' && outcome.continueTo ? (
                <Button asChild size="lg">
                  <Link to={outcome.continueTo} replace>
                    {text.continue}
                  </Link>
                </Button>
              ) : null}
              <Button
                asChild
                size="lg"
                variant={outcome.kind === 'active' && outcome.continueTo ? 'outline' : 'primary'}
              >
                <Link to={routes.dashboard}>{text.goToDashboard}</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to={routes.account}>{text.viewAccount}</Link>
              </Button>
            </>
          )}
        </div>
      </Card>
    </Container>
  );
}
