import { EventEmitter } from 'node:events';
import type { AppEvent } from '../../../common/api/events.ts';
import type { Notifications } from '../../db/client.ts';

export type EventListener = (event: AppEvent) => void;

/**
 * Delivers each user's events to that user's open streams, in whichever process they are
 * connected. `onResync` fires when delivery may have had a gap (the listener reconnected), so
 * streams can tell their browsers to refetch.
 */
export interface EventBus {
  publish(userId: string, event: AppEvent): Promise<void>;
  subscribe(userId: string, listener: EventListener): () => void;
  onResync(listener: () => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  userId: string;
  event: AppEvent;
}

/** Shared by both implementations: fan-out to the listeners of this process. */
class LocalFanOut {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  deliver({ userId, event }: Envelope): void {
    this.emitter.emit(`user:${userId}`, event);
  }

  subscribe(userId: string, listener: EventListener): () => void {
    this.emitter.on(`user:${userId}`, listener);
    return () => this.emitter.off(`user:${userId}`, listener);
  }

  onResync(listener: () => void): () => void {
    this.emitter.on('resync', listener);
    return () => this.emitter.off('resync', listener);
  }

  resync(): void {
    this.emitter.emit('resync');
  }
}

/** Embedded mode: one process, so delivery is a function call. */
export function createMemoryEventBus(): EventBus {
  const fanOut = new LocalFanOut();
  return {
    publish: async (userId, event) => fanOut.deliver({ userId, event }),
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onResync: (listener) => fanOut.onResync(listener),
    start: async () => {},
    close: async () => {},
  };
}

const channel = 'likeness_events';

/**
 * Scale-out: every process LISTENs on one channel and NOTIFY carries the event, so a worker's
 * publish reaches an SSE stream held by any web process. Even this process's own events go
 * through Postgres, which keeps one order for everyone.
 */
export function createPostgresEventBus(notifications: Notifications): EventBus {
  const fanOut = new LocalFanOut();
  let stop: (() => Promise<void>) | undefined;
  return {
    publish: (userId, event) => notifications.notify(channel, JSON.stringify({ userId, event })),
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    onResync: (listener) => fanOut.onResync(listener),
    async start() {
      stop = await notifications.listen(
        channel,
        (payload) => fanOut.deliver(JSON.parse(payload) as Envelope),
        () => fanOut.resync(),
      );
    },
    async close() {
      await stop?.();
    },
  };
}
