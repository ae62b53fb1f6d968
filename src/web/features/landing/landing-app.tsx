import { startTransition, StrictMode, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ErrorBoundary } from '../../app/error-boundary.tsx';
import { PublicFrame } from '../../app/layouts/public-frame.tsx';
import {
  fetchSession,
  SessionStatusProvider,
  type SessionStatus,
} from '../../lib/session-status.ts';
import { landingRequests } from './lib/landing-api.ts';
import { sharedRequest } from './lib/shared-request.ts';
import { HomePage } from './pages/home-page.tsx';

/** Who is signed in, asked once per visit (and again when the page comes back from history). */
const sessionRequest = sharedRequest(() => fetchSession(), Number.POSITIVE_INFINITY);

/**
 * The landing page as its own entry (landing.tsx) draws it and the build prerenders it
 * (prerender.tsx): the public frame and the page, without the router and the data cache the
 * rest of the app runs on, so a first visit downloads neither (decision 061). Its links load
 * the page they name.
 */
export function LandingApp() {
  return (
    <StrictMode>
      <ErrorBoundary fullScreen>
        <SessionStatusFromRequest>
          <PublicFrame>
            <HomePage />
          </PublicFrame>
        </SessionStatusFromRequest>
      </ErrorBoundary>
    </StrictMode>
  );
}

/**
 * Takes over the prerendered markup in `container`. The page's requests (the session and the
 * two catalog requests) go first, so their answers are on their way while React works; the
 * hydration is a transition, so it yields to the browser in slices while the visitor may already
 * be scrolling.
 */
export function hydrateLanding(container: Element): void {
  sessionRequest.start();
  landingRequests.catalog.start();
  landingRequests.examplePhotos.start();
  // Back from a sign-in, the browser may show this page from its cache as it was left.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) sessionRequest.refresh();
  });
  startTransition(() => {
    hydrateRoot(container, <LandingApp />);
  });
}

function SessionStatusFromRequest({ children }: { children: ReactNode }) {
  const { data, failed } = sessionRequest.useAnswer();
  let status: SessionStatus = 'loading';
  if (data !== undefined) status = data ? 'signed-in' : 'signed-out';
  else if (failed) status = 'error';
  return <SessionStatusProvider value={status}>{children}</SessionStatusProvider>;
}
