import type { RequestSession } from '../auth/authenticate.ts';
import type { EventBus } from './event-bus.ts';

export interface SessionWatchOptions {
  bus: Pick<EventBus, 'onSessionsEnded' | 'onResync'>;
  userId: string;
  session: RequestSession;
  /** When the session ends now (it may have been extended), or null when it is over. */
  expiryOf: (token: string) => Promise<Date | null>;
  /** Called once, when the session has ended (or cannot be confirmed). */
  onEnded: () => void;
}

// setTimeout fires at once beyond this (about 24.8 days); a longer session is checked then.
const longestTimerMs = 2 ** 31 - 1;

/**
 * Keeps a long-lived connection bound to the session that opened it, without reading the
 * session per event: a revocation announced on the bus (sign-out, password reset, account
 * deletion, in any process) ends it at once, and a timer ends it when the session expires.
 * The session row is read only when the timer fires (it may have been extended meanwhile), when
 * announcements may have been missed (the bus reconnected), and once right after subscribing,
 * for a revocation that landed between the request's own read and the subscription. A check
 * that fails ends the connection: the browser reconnects and is authenticated again.
 */
export function watchStreamSession(options: SessionWatchOptions): () => void {
  const { bus, userId, session, expiryOf } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const end = () => {
    if (stopped) return;
    stop();
    options.onEnded();
  };
  const expireAt = (expiresAt: Date) => {
    clearTimeout(timer);
    const wait = Math.max(0, Math.min(expiresAt.getTime() - Date.now(), longestTimerMs));
    timer = setTimeout(() => void check(), wait);
  };
  const check = async () => {
    const expiresAt = await expiryOf(session.token).catch(() => null);
    if (stopped) return;
    if (expiresAt) expireAt(expiresAt);
    else end();
  };

  const unsubscribeEnded = bus.onSessionsEnded(userId, (ended) => {
    if (ended === 'all' || ended.includes(session.id)) end();
  });
  const unsubscribeResync = bus.onResync(() => void check());
  function stop() {
    stopped = true;
    clearTimeout(timer);
    unsubscribeEnded();
    unsubscribeResync();
  }

  expireAt(session.expiresAt);
  void check();
  return stop;
}
