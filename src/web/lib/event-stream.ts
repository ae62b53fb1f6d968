import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
// Type-only on purpose: the schema module pulls in zod, which the landing bundle does not need.
import type { AppEvent, AppEventOf, AppEventType } from '../../common/api/events.ts';

/**
 * The live link to the server: ONE EventSource on /api/events, held while someone is signed in.
 *
 * The server first sends `event: ready`, then unnamed messages whose data is
 * `{ "type": string, "data": object }` (and `: heartbeat` comments the browser swallows). Features
 * say what an event type means for their cached data through `registerEventHandler` or
 * `invalidateOnEvent`; this module only delivers. Because events sent while no stream was open
 * are lost, every `ready` (the first one too: the page loaded its data before the stream opened)
 * and a `resync` message (the server's own "I may have missed some") invalidates every query:
 * whatever changed in the gap is refetched.
 */

export type EventHandler<T extends AppEventType = AppEventType> = (
  event: AppEventOf<T>,
  queryClient: QueryClient,
) => void;

const eventsUrl = '/api/events';
const readyEventName = 'ready'; // `streamReadyEvent` in common/api/events.ts
/** Sent by the server when its own delivery may have had a gap (its event bus reconnected). */
const resyncEventType = 'resync';
const reconnectDelaysMs = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

const handlers = new Map<AppEventType, Set<EventHandler>>();

/** Runs `handler` for every event of `type`. Returns a function that unregisters it. */
export function registerEventHandler<T extends AppEventType>(
  type: T,
  handler: EventHandler<T>,
): () => void {
  let forType = handlers.get(type);
  if (!forType) {
    forType = new Set();
    handlers.set(type, forType);
  }
  // Stored by type, so the handler only ever receives events of its own type.
  const stored = handler as unknown as EventHandler;
  forType.add(stored);
  return () => {
    forType.delete(stored);
    if (forType.size === 0) handlers.delete(type);
  };
}

/**
 * The common case: an event of `type` makes these queries stale. Keys may depend on the event
 * (e.g. `(event) => [['generations'], ['generation', event.data.id]]`).
 */
export function invalidateOnEvent<T extends AppEventType>(
  type: T,
  queryKeys: readonly QueryKey[] | ((event: AppEventOf<T>) => readonly QueryKey[]),
): () => void {
  return registerEventHandler(type, (event, queryClient) => {
    const keys = typeof queryKeys === 'function' ? queryKeys(event) : queryKeys;
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  });
}

/** Delivers one event to its handlers; exported for tests and for optimistic local events. */
export function dispatchAppEvent(event: AppEvent, queryClient: QueryClient): void {
  const forType = handlers.get(event.type);
  if (!forType) return;
  for (const handler of [...forType]) {
    try {
      handler(event, queryClient);
    } catch (error) {
      // One broken handler must not stop the others or the stream.
      console.error(`Event handler for "${event.type}" failed`, error);
    }
  }
}

export interface EventStreamOptions {
  /**
   * Called when the browser gives up on the stream (the server refused it, e.g. 401 after the
   * session ended, or is down). The app uses it to re-check the session; the stream itself keeps
   * retrying with a growing delay.
   */
  onConnectionLost?: () => void;
}

interface Connection {
  source: EventSource | null;
  queryClient: QueryClient;
  options: EventStreamOptions;
  failures: number;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
}

let connection: Connection | null = null;

/** Opens the stream, unless it is already open for this query client. */
export function openEventStream(queryClient: QueryClient, options: EventStreamOptions = {}): void {
  if (connection?.queryClient === queryClient) {
    connection.options = options;
    return;
  }
  closeEventStream();
  connection = {
    source: null,
    queryClient,
    options,
    failures: 0,
    retryTimer: undefined,
  };
  connect(connection);
}

/** Closes the stream (sign-out, or nobody signed in). Safe to call when it is not open. */
export function closeEventStream(): void {
  if (!connection) return;
  clearTimeout(connection.retryTimer);
  connection.source?.close();
  connection = null;
}

/** Holds the stream while `enabled` (i.e. while signed in) and closes it otherwise. */
export function useEventStream(enabled: boolean, options: EventStreamOptions = {}): void {
  const queryClient = useQueryClient();
  // The latest callbacks without reopening the stream whenever the caller re-renders.
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  useEffect(() => {
    if (!enabled) return;
    openEventStream(queryClient, {
      onConnectionLost: () => optionsRef.current.onConnectionLost?.(),
    });
    return closeEventStream;
  }, [enabled, queryClient]);
}

function connect(current: Connection): void {
  // Same origin, so the session cookie goes along without withCredentials.
  const source = new EventSource(eventsUrl);
  current.source = source;

  source.addEventListener(readyEventName, () => {
    if (connection !== current) return;
    current.failures = 0;
    // Events published before the stream was ready (the first time: while the page loaded its
    // data and this code; later: during a reconnect) were not delivered: refetch what is in use.
    void current.queryClient.invalidateQueries();
  });

  source.addEventListener('message', (message: MessageEvent<string>) => {
    if (connection !== current) return;
    const event = parseAppEvent(message.data);
    if (!event) return;
    if (event.type === resyncEventType) void current.queryClient.invalidateQueries();
    else dispatchAppEvent(event, current.queryClient);
  });

  source.addEventListener('error', () => {
    if (connection !== current) return;
    // CONNECTING: the browser retries by itself (network blip, server restart mid-stream).
    // CLOSED: it gave up (the answer was not a 200 event stream), so retrying is up to us.
    if (source.readyState !== EventSource.CLOSED) return;
    source.close();
    current.source = null;
    const delay =
      reconnectDelaysMs[Math.min(current.failures, reconnectDelaysMs.length - 1)] ?? 30_000;
    current.failures += 1;
    current.options.onConnectionLost?.();
    current.retryTimer = setTimeout(() => {
      if (connection === current) connect(current);
    }, delay);
  });
}

function parseAppEvent(raw: string): AppEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    console.warn('Ignored an event that is not JSON', raw);
    return null;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    typeof value.type === 'string' &&
    'data' in value &&
    typeof value.data === 'object' &&
    value.data !== null
  ) {
    // The server publishes only `AppEvent`s (its bus is typed by the same union); a type no
    // handler registered for is dropped by `dispatchAppEvent`.
    return value as AppEvent;
  }
  console.warn('Ignored an event without a type and data', value);
  return null;
}
