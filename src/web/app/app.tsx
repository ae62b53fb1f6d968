import { StrictMode, type ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';
import { AppProviders } from './providers.tsx';

/**
 * The app around its router: the same tree in the browser (main.tsx) and in the build's
 * prerender of the landing page (prerender.tsx), so the browser can hydrate what was prerendered.
 */
export function App({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <ErrorBoundary fullScreen>
        <AppProviders>{children}</AppProviders>
      </ErrorBoundary>
    </StrictMode>
  );
}
