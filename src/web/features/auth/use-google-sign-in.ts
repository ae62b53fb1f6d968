import { useCallback } from 'react';
import { useRedirectBusy } from '../../lib/use-redirect-busy.ts';
import { startGoogleSignIn } from './auth-api.ts';
import { googleErrorMessage, googleFailedMessage, type GoogleIntent } from './auth-form-rules.ts';

export interface GoogleSignInOptions {
  intent: GoogleIntent;
  /** Where Google sends the visitor back, signed in. */
  callbackURL: string;
  /** Where Google sends the visitor back when sign-in failed (with `?error=...`). */
  errorCallbackURL: string;
  onError: (message: string) => void;
}

/**
 * 'Continue with Google': asks the server for Google's address and sends the browser there. The
 * button stays busy while the browser leaves; it is reset if the visitor comes back with the
 * Back button (the page may be restored from the back-forward cache as it was left).
 */
export function useGoogleSignIn({
  intent,
  callbackURL,
  errorCallbackURL,
  onError,
}: GoogleSignInOptions): { start: () => Promise<void>; busy: boolean } {
  const [busy, setBusy] = useRedirectBusy();

  const start = useCallback(async () => {
    setBusy(true);
    try {
      const { url } = await startGoogleSignIn({ callbackURL, errorCallbackURL });
      if (!url) {
        // An answer without an address to go to: Google sign-in did not start.
        onError(googleFailedMessage(intent));
        setBusy(false);
        return;
      }
      window.location.assign(url);
    } catch (error) {
      console.warn('Google sign-in could not start', error);
      onError(googleErrorMessage(intent, error));
      setBusy(false);
    }
  }, [intent, callbackURL, errorCallbackURL, onError]);

  return { start, busy };
}
