import { useState } from 'react';
import { billingMessages } from '../../../common/messages/billing.ts';
import { routes } from '../../../common/product/routes.ts';
import { isApiError } from '../../lib/api-client.ts';
import { openPortal, redirectTo } from './billing-api.ts';

/** 'Manage Subscription': asks for the provider's portal and leaves for it. */
export function usePortal(returnPath: string = routes.account) {
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    if (opening) return;
    setOpening(true);
    setError(null);
    try {
      const answer = await openPortal(returnPath);
      if (!answer?.url) {
        setError(billingMessages.noPortalUrl);
        setOpening(false);
        return;
      }
      // Stays busy: the page is being left.
      redirectTo(answer.url);
    } catch (failure) {
      // A refusal the server words (no subscription to manage yet) says more than the default.
      setError(
        isApiError(failure) && failure.status >= 400 && failure.status < 500
          ? failure.message
          : billingMessages.portalFailed,
      );
      setOpening(false);
    }
  }

  return { open, opening, error };
}
