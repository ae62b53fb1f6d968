import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { registerSessionEventHandlers } from '../features/auth/session-events.ts';
import { registerBillingEventHandlers } from '../features/billing/billing-api.ts';
import { registerGenerationEventHandlers } from '../features/generation/generation-api.ts';
import { registerStudioEventHandlers } from '../features/studio/studio-api.ts';
import { useEventStream } from '../lib/event-stream.ts';
import { sessionQueryKey } from '../lib/session.ts';

/**
 * Holds the event stream while someone is signed in (the app mounts it only then) and lets it
 * refresh the session. Its own chunk: visitors who are not signed in never download it.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();

  // Before the stream opens (effects run in order), so no event finds its handlers missing.
  useEffect(() => registerSessionEventHandlers(), []);
  useEffect(() => registerBillingEventHandlers(), []);
  useEffect(() => registerStudioEventHandlers(), []);
  useEffect(() => registerGenerationEventHandlers(), []);

  useEventStream(true, {
    // The server refused the stream: maybe the session ended elsewhere. Re-check it, so the
    // app signs out (and the stream closes) if so.
    onConnectionLost: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });

  return null;
}
