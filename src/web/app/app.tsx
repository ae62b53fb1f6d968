import { StrictMode, type ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';
import { AppProviders } from './providers.tsx';

/** The app around its router (main.tsx); the landing page's own entry has its own (landing-app.tsx). */
export function App({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <ErrorBoundary fullScreen>
        <AppProviders>{children}</AppProviders>
      </ErrorBoundary>
    </StrictMode>
  );
}
