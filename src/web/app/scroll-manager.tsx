import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const hashRetryFrames = 60; // about one second: long enough for a lazily loaded page to render
// After reaching the section, sections above it may still grow as their data arrives (the
// landing page fetches its showcases after it paints): keep the section in place this long,
// unless the person scrolls on their own.
const hashHoldFrames = 150;

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
    let held = 0;
    let handle = 0;
    let userScrolled = false;
    const stop = () => {
      userScrolled = true;
    };
    const userInput = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const type of userInput) window.addEventListener(type, stop, { passive: true });
    const tryScroll = () => {
      if (userScrolled) return;
      const target = document.getElementById(id);
      if (target) {
        if (Math.abs(target.getBoundingClientRect().top) > 2)
          target.scrollIntoView({ block: 'start' });
        if (++held < hashHoldFrames) handle = requestAnimationFrame(tryScroll);
        return;
      }
      if (++frame < hashRetryFrames) handle = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => {
      cancelAnimationFrame(handle);
      for (const type of userInput) window.removeEventListener(type, stop);
    };
  }, [pathname, hash, navigationType]);

  return null;
}
