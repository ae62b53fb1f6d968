import { registerEventHandler } from '../../lib/event-stream.ts';
import { sessionQueryKey } from '../../lib/session.ts';

/**
 * Events after which the session (profile, subscription, credits) is out of date. Registered
 * while someone is signed in, by app/live-updates.tsx (apart from session.ts, which every page
 * reads, so that visitors do not download the event stream).
 */
export const sessionEventTypes = ['subscription.updated', 'model.updated'] as const;

export function registerSessionEventHandlers(): () => void {
  const unregister = sessionEventTypes.map((type) =>
    registerEventHandler(type, (_event, queryClient) => {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    }),
  );
  return () => unregister.forEach((fn) => fn());
}
