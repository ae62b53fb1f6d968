import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const hashRetryFrames = 60; // about one second: long enough for a lazily loaded page to render

/**
 * Browser-like scrolling for a single-page app: a new page starts at the top, a link with a hash
 * (the top bar's Pricing) scrolls to its section once the section has rendered, and Back/Forward
 * leave the position to the browser.
 */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    if (navigationType === 'POP') return;
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let handle = 0;
    const tryScroll = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        return;
      }
      if (++frame < hashRetryFrames) handle = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => cancelAnimationFrame(handle);
  }, [pathname, hash, navigationType]);

  return null;
}
