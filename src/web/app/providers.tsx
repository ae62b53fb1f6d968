import { Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '../components/ui/toaster.tsx';
import { useSession } from '../lib/session.ts';
import { SessionStatusProvider } from '../lib/session-status.ts';
import { lazyComponent } from './lazy-page.ts';
import { createQueryClient } from './query-client.ts';

const LiveUpdates = lazyComponent(async () => (await import('./live-updates.tsx')).LiveUpdates);

/** Everything the pages rely on: the data cache, the live event stream and the toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  // One client per app instance (not a module singleton), so tests can mount fresh apps.
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LiveUpdatesWhileSignedIn />
      <SessionStatusFromCache>{children}</SessionStatusFromCache>
      <Toaster />
    </QueryClientProvider>
  );
}

/** The parts shared with the landing page's own entry read the session's status this way. */
function SessionStatusFromCache({ children }: { children: ReactNode }) {
  const { status } = useSession();
  return <SessionStatusProvider value={status}>{children}</SessionStatusProvider>;
}

/** The event stream is for signed-in people only; signing out unmounts it, which closes it. */
function LiveUpdatesWhileSignedIn() {
  const { status } = useSession();
  if (status !== 'signed-in') return null;
  return (
    <Suspense fallback={null}>
      <LiveUpdates />
    </Suspense>
  );
}
