import { useState } from 'react';
import { billingMessages } from '../../../common/messages/billing.ts';
import type { PriceId } from '../../../common/product/plans.ts';
import { isApiError } from '../../lib/api-client.ts';
import { rememberPostLoginRedirect } from '../../lib/post-login-redirect.ts';
import { redirectTo, startCheckout } from './billing-api.ts';

const text = billingMessages;

export interface PlanCheckoutOptions {
  /** `custom-prompt` or `tryon`: the server refuses Basic from custom prompts. */
  from?: string | null;
  /** A path of this site to come back to once the plan is active (`redirect` query). */
  redirect?: string | null;
}

/**
 * Starting a plan checkout: the chosen price id is held while the request runs (its card reads
 * 'Processing...'), the browser leaves for the answered URL, and any failure becomes one of the
 * specification's messages. The selection is cleared on every outcome.
 */
export function usePlanCheckout({ from, redirect }: PlanCheckoutOptions = {}) {
  const [pendingPriceId, setPendingPriceId] = useState<PriceId | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function choose(priceId: PriceId) {
    if (pendingPriceId) return;
    setPendingPriceId(priceId);
    setError(null);
    try {
      const answer = await startCheckout({ priceId, ...(from ? { from } : {}) });
      if (!answer?.url) {
        setError(text.noCheckoutUrl);
        return;
      }
      // The payment success page takes this once the plan is active.
      if (redirect) rememberPostLoginRedirect(redirect);
      redirectTo(answer.url);
    } catch (failure) {
      setError(checkoutFailureMessage(failure));
    } finally {
      setPendingPriceId(null);
    }
  }

  return { choose, pendingPriceId, error, clearError: () => setError(null) };
}

/** The server's own message when it answered; otherwise the specification's fallbacks. */
export function checkoutFailureMessage(failure: unknown): string {
  if (isApiError(failure)) {
    if (failure.status > 0) return failure.message || text.failedToCreateCheckoutSession;
    return failure.message || text.failedToStartCheckout;
  }
  return failure instanceof Error && failure.message ? failure.message : text.failedToStartCheckout;
}
