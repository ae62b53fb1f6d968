import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * `busy` for a button that sends the browser to another site (Google, a checkout): it holds
 * while the browser leaves. Back from that site may restore this page from the back-forward
 * cache, frozen mid-redirect, so a restored page clears it: the button must not stay on
 * 'Processing...'.
 */
export function useRedirectBusy(): [boolean, Dispatch<SetStateAction<boolean>>] {
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return [busy, setBusy];
}
