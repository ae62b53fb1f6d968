import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Toaster } from '../components/ui/toaster.tsx';
import {
  registerSessionEventHandlers,
  sessionQueryKey,
  useSession,
} from '../features/auth/session.ts';
import { registerBillingEventHandlers } from '../features/billing/billing-api.ts';
import { registerGenerationEventHandlers } from '../features/generation/generation-api.ts';
import { registerStudioEventHandlers } from '../features/studio/studio-api.ts';
import { useEventStream } from '../lib/event-stream.ts';
import { createQueryClient } from './query-client.ts';

/** Everything the pages rely on: the data cache, the live event stream and the toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  // One client per app instance (not a module singleton), so tests can mount fresh apps.
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LiveUpdates />
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}

/** Holds the event stream while someone is signed in and lets it refresh the session. */
function LiveUpdates() {
  const queryClient = useQueryClient();
  const { status } = useSession();

  useEffect(() => registerSessionEventHandlers(), []);
  useEffect(() => registerBillingEventHandlers(), []);
  useEffect(() => registerStudioEventHandlers(), []);
  useEffect(() => registerGenerationEventHandlers(), []);

  useEventStream(status === 'signed-in', {
    // The server refused the stream: maybe the session ended elsewhere. Re-check it, so the
    // app signs out (and the stream closes) if so.
    onConnectionLost: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });

  return null;
}
