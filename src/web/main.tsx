import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { AppRouter, preloadLandingPage } from './app/router.tsx';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <App>
    <AppRouter />
  </App>
);

if (container.hasChildNodes()) {
  // The landing page arrives prerendered (landing.html, see prerender.tsx): React takes over the
  // markup instead of redrawing it, once the page's code is here (its chunks are preloaded), so
  // nothing suspends meanwhile. As a transition, so the work yields to the browser in slices
  // rather than blocking the main thread while the visitor may already be scrolling.
  const hydrate = () =>
    startTransition(() => {
      hydrateRoot(container, app);
    });
  // If the code fails to load, hydrating anyway lets the error boundary offer a reload.
  preloadLandingPage().then(hydrate, hydrate);
} else {
  createRoot(container).render(app);
}
