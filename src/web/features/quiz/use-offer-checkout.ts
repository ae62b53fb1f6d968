import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { offerMessages } from '../../../common/messages/quiz.ts';
import { routes, signupOffer } from '../../../common/product/routes.ts';
import { notify } from '../../components/ui/toast.ts';
import { isApiError } from '../../lib/api-client.ts';
import { rememberPostLoginRedirect } from '../../lib/post-login-redirect.ts';
import { sessionQueryKey, sessionQueryOptions } from '../../lib/session.ts';
import { useRedirectBusy } from '../../lib/use-redirect-busy.ts';
import { redirectTo } from '../billing/billing-api.ts';
import { startOfferCheckout } from './quiz-api.ts';

const text = offerMessages;

/**
 * The offer's button. A visitor goes to sign up with the offer (and, should they sign in
 * instead, comes back to these results); a signed-in user goes straight to the yearly checkout.
 * `busy` holds from the click until the browser leaves, or until a failure has been shown.
 */
export function useOfferCheckout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Cleared when Back from the provider's page restores this one (see useRedirectBusy).
  const [busy, setBusy] = useRedirectBusy();

  function sendToSignup() {
    rememberPostLoginRedirect(routes.quizResults);
    void navigate(`${routes.signup}?offer=${signupOffer.yearly}`);
  }

  async function claim() {
    if (busy) return;
    setBusy(true);
    let leaving = false;
    try {
      // The cached session when there is one; asked for only if the header has not yet.
      const session = await queryClient.ensureQueryData(sessionQueryOptions());
      if (!session) {
        sendToSignup();
        return;
      }
      const answer = await startOfferCheckout();
      if (!answer?.url) {
        notify.error(text.failedToCreateCheckoutSession);
        return;
      }
      leaving = true;
      redirectTo(answer.url);
    } catch (error) {
      // The session ended since it was read (expired, signed out in another tab): a visitor now.
      if (isApiError(error) && error.status === 401) {
        queryClient.setQueryData(sessionQueryKey, null);
        sendToSignup();
        return;
      }
      console.error('Yearly offer checkout failed', error);
      // The server's reason ("You already have this plan.") helps more than the generic line.
      notify.error(text.requestFailed, {
        description: isApiError(error) && error.status > 0 ? error.message : undefined,
      });
    } finally {
      if (!leaving) setBusy(false);
    }
  }

  return { claim, busy };
}
