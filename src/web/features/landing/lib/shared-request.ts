import { useEffect, useSyncExternalStore } from 'react';

/** What a shared request has answered so far. */
export interface SharedAnswer<Data> {
  /** The last answer; undefined until one arrives. */
  data: Data | undefined;
  /** The last attempt failed (the previous answer, if any, is kept). */
  failed: boolean;
}

export interface SharedRequest<Data> {
  /** Sends the request unless an answer younger than the stale time is here or one is on its way. */
  start: () => void;
  /** Sends the request again now, unless one is on its way; the answer so far stays meanwhile. */
  refresh: () => void;
  /**
   * The answer, which every component reading it shares, and which starts the request when
   * needed. While React takes over prerendered markup, none: the prerender had none.
   */
  useAnswer: () => SharedAnswer<Data>;
}

const noAnswer: SharedAnswer<never> = { data: undefined, failed: false };

/**
 * One GET shared by every part of the landing page that reads it: sent once (as early as the
 * page's entry asks, before React runs), kept for `staleTimeMs`, asked again after a failure
 * when a component next mounts. The landing page's small stand-in for the app's data cache,
 * which it does without (decision 061).
 */
export function sharedRequest<Data>(
  load: () => Promise<Data>,
  staleTimeMs: number,
): SharedRequest<Data> {
  let answer: SharedAnswer<Data> = noAnswer;
  let answeredAt = Number.NEGATIVE_INFINITY;
  let inFlight = false;
  const listeners = new Set<() => void>();

  const settle = (next: SharedAnswer<Data>) => {
    answer = next;
    inFlight = false;
    for (const listener of listeners) listener();
  };

  const refresh = () => {
    if (inFlight) return;
    inFlight = true;
    load().then(
      (data) => {
        answeredAt = Date.now();
        settle({ data, failed: false });
      },
      () => settle({ data: answer.data, failed: true }),
    );
  };

  const start = () => {
    if (answer.failed || Date.now() - answeredAt >= staleTimeMs) refresh();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  return {
    start,
    refresh,
    useAnswer() {
      useEffect(start, []);
      return useSyncExternalStore(
        subscribe,
        () => answer,
        () => noAnswer,
      );
    },
  };
}
