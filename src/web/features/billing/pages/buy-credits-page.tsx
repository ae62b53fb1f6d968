import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, Coins, Sparkles } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { billingMessages } from '../../../../common/messages/billing.ts';
import { creditsMessages } from '../../../../common/messages/credits.ts';
import { commonMessages, pageTitleMessages } from '../../../../common/messages/shell.ts';
import { creditPacks } from '../../../../common/product/credit-packs.ts';
import { routes } from '../../../../common/product/routes.ts';
import { timings } from '../../../../common/product/timings.ts';
import { ButtonLink } from '../../../components/button-link.tsx';
import { CheckoutCancelledNotice } from '../components/checkout-cancelled-notice.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { sessionQueryKey, useSession } from '../../../lib/session.ts';
import {
  billingQueryKey,
  redirectTo,
  startCreditCheckout,
  verifyCreditPurchase,
} from '../billing-api.ts';
import { CreditPackCard } from '../components/credit-pack-card.tsx';
import {
  CreditPurchaseDialog,
  type CreditPurchaseState,
} from '../components/credit-purchase-dialog.tsx';

const text = creditsMessages;

/**
 * /buy-credits: the credit packs, for subscribers. Also where a pack's checkout returns
 * (?credit_success=true&session_id=…&credits=…): the purchase is verified in a dialog, then the
 * query string is cleaned so a reload does not verify again.
 */
export function BuyCreditsPage() {
  usePageTitle(pageTitleMessages.buyCredits);
  const { subscription } = useSession();
  const active = subscription?.active === true;
  const [searchParams, setSearchParams] = useSearchParams();
  const returnedSessionId =
    searchParams.get('credit_success') === 'true' ? searchParams.get('session_id') : null;
  const purchase = useCreditVerification(returnedSessionId, () =>
    setSearchParams({}, { replace: true }),
  );
  const [pendingPackId, setPendingPackId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function buy(packId: string) {
    if (pendingPackId) return;
    setPendingPackId(packId);
    setError(null);
    try {
      const answer = await startCreditCheckout(packId);
      if (!answer?.url) {
        setError(billingMessages.noCheckoutUrl);
        return;
      }
      redirectTo(answer.url);
    } catch (failure) {
      setError(
        isApiError(failure) && failure.status > 0
          ? failure.message
          : billingMessages.failedToStartCheckout,
      );
    } finally {
      setPendingPackId(null);
    }
  }

  return (
    <Container className="flex flex-col gap-8 py-10 md:gap-10 md:py-14">
      <PageHeader
        title={text.title}
        description={text.subtitle}
        actions={
          subscription ? (
            <p className="flex items-center gap-2 rounded-full border border-neutral-200 bg-white px-4 py-2 text-sm text-neutral-700 shadow-card">
              <Coins aria-hidden="true" className="size-4 text-accent-700" />
              <span>{text.currentBalance}:</span>
              <span className="font-semibold text-neutral-950 tabular-nums">
                {commonMessages.credits(subscription.credits)}
              </span>
            </p>
          ) : null
        }
      />
      <CheckoutCancelledNotice />
      {active ? (
        <>
          {error ? <FormAlert>{error}</FormAlert> : null}
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {creditPacks.map((pack) => (
              <li key={pack.id}>
                <CreditPackCard
                  pack={pack}
                  processing={pendingPackId === pack.id}
                  disabled={pendingPackId !== null}
                  onBuy={() => void buy(pack.id)}
                />
              </li>
            ))}
          </ul>
          <p className="text-sm text-neutral-500">{text.perImage}</p>
        </>
      ) : (
        <EmptyState
          icon={<Sparkles aria-hidden="true" />}
          title={text.needPlanTitle}
          description={<span role="alert">{text.subscribeFirst}</span>}
          action={
            <ButtonLink to={routes.subscription} trailingIcon={ArrowRight} size="lg">
              {text.viewPlans}
            </ButtonLink>
          }
        />
      )}
      <CreditPurchaseDialog state={purchase.state} onClose={purchase.close} />
    </Container>
  );
}

/**
 * Verifies a returned credit purchase: at once, then every 2 s up to the specification's 10
 * attempts. A checkout that will never be paid (expired, cancelled) fails at once.
 */
function useCreditVerification(sessionId: string | null, onSettled: () => void) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<CreditPurchaseState | null>(null);
  const handled = useRef<string | null>(null);
  const onSettledRef = useRef(onSettled);
  useEffect(() => {
    onSettledRef.current = onSettled;
  });

  useEffect(() => {
    if (!sessionId || handled.current === sessionId) return;
    handled.current = sessionId;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ kind: 'verifying' });

    const settle = (next: CreditPurchaseState) => {
      setState(next);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: billingQueryKey });
      onSettledRef.current();
    };

    async function attempt(n: number) {
      try {
        const answer = await verifyCreditPurchase(sessionId!);
        if (cancelled) return;
        if (answer.success) {
          settle({
            kind: 'success',
            credits: answer.credits,
            balance: answer.balance ?? null,
          });
          return;
        }
        if (answer.status === 'expired' || answer.status === 'cancelled') {
          settle({ kind: 'failed' });
          return;
        }
      } catch (error) {
        if (cancelled) return;
        console.warn('Credit verification failed', error);
        // Not found: a session id that is not this user's purchase will never verify.
        if (isApiError(error) && error.status === 404) {
          settle({ kind: 'failed' });
          return;
        }
      }
      if (n + 1 >= timings.creditVerification.maxAttempts) {
        settle({ kind: 'failed' });
        return;
      }
      timer = setTimeout(() => void attempt(n + 1), timings.creditVerification.intervalMs);
    }

    void attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      // StrictMode re-runs effects: let the next run start over.
      handled.current = null;
    };
  }, [sessionId, queryClient]);

  return { state, close: () => setState(null) };
}
