import { EventEmitter } from 'node:events';
import type { AppEvent } from '../../../common/api/events.ts';
import type { Notifications } from '../../db/client.ts';

export type EventListener = (event: AppEvent) => void;

/** Which sessions of a user ended: some by id, or every one (the account is gone). */
export type EndedSessions = readonly string[] | 'all';

/**
 * Delivers each user's events to that user's open streams, in whichever process they are
 * connected. `onResync` fires when delivery may have had a gap (the listener reconnected), so
 * streams can tell their browsers to refetch and check that their session still stands.
 * `endSessions` travels the same way: a stream held by any process hears that its session was
 * signed out, reset or deleted, without reading the session again for each event.
 */
export interface EventBus {
  publish(userId: string, event: AppEvent): Promise<void>;
  subscribe(userId: string, listener: EventListener): () => void;
  endSessions(userId: string, sessions: EndedSessions): Promise<void>;
  onSessionsEnded(userId: string, listener: (sessions: EndedSessions) => void): () => void;
  /** Every user's ended sessions (a process's session cache forgets them). */
  onAnySessionsEnded(listener: (userId: string, sessions: EndedSessions) => void): () => void;
  onResync(listener: () => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
}

type Envelope =
  { userId: string; event: AppEvent } | { userId: string; endedSessions: EndedSessions };

/** Shared by both implementations: fan-out to the listeners of this process. */
class LocalFanOut {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  deliver(envelope: Envelope): void {
    if ('event' in envelope) this.emitter.emit(`user:${envelope.userId}`, envelope.event);
    else {
      this.emitter.emit('ended', envelope.userId, envelope.endedSessions);
      this.emitter.emit(`ended:${envelope.userId}`, envelope.endedSessions);
    }
  }

  /** Whether a stream of this process listens to the user's events. */
  hasStream(userId: string): boolean {
    return this.emitter.listenerCount(`user:${userId}`) > 0;
  }

  subscribe(userId: string, listener: EventListener): () => void {
    return this.on(`user:${userId}`, listener);
  }

  onSessionsEnded(userId: string, listener: (sessions: EndedSessions) => void): () => void {
    return this.on(`ended:${userId}`, listener);
  }

  onAnySessionsEnded(listener: (userId: string, sessions: EndedSessions) => void): () => void {
    this.emitter.on('ended', listener);
    return () => this.emitter.off('ended', listener);
  }

  onResync(listener: () => void): () => void {
    return this.on('resync', listener);
  }

  resync(): void {
    this.emitter.emit('resync');
  }

  private on<T>(name: string, listener: (value: T) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}

/** Embedded mode: one process, so delivery is a function call. */
export function createMemoryEventBus(): EventBus {
  const fanOut = new LocalFanOut();
  return {
    publish: async (userId, event) => fanOut.deliver({ userId, event }),
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    endSessions: async (userId, endedSessions) => fanOut.deliver({ userId, endedSessions }),
    onSessionsEnded: (userId, listener) => fanOut.onSessionsEnded(userId, listener),
    onAnySessionsEnded: (listener) => fanOut.onAnySessionsEnded(listener),
    onResync: (listener) => fanOut.onResync(listener),
    start: async () => {},
    close: async () => {},
  };
}

/**
 * Named for the payload's format (`envelopeLine`): during a rolling deploy a process of another
 * release neither hears nor chokes on payloads it cannot read.
 */
const channel = 'likeness_events_2';
/** Postgres refuses a NOTIFY payload over 8000 bytes; a batch stays under this. */
const batchBytes = 7_500;

/**
 * While the bus is busy, at most one round of NOTIFYs per this many milliseconds: each is a
 * commit on the server and a wake-up of every listening process, and on a connection of its own
 * a NOTIFY takes a fraction of a millisecond, so without a pause a busy bus sent one for every
 * two or three events (decisions 063, 065).
 */
const notifySpacingMs = 8;

/**
 * Busy: at least this many envelopes sent in the last 8 to 16 ms (some 500 a second). Below it
 * every event goes at once, even right after another: an event waiting out a pause waits on a
 * timer, which a process busy making a picture runs late (one-at-a-time generations measured
 * 26-52 ms outliers with a pause for every burst).
 */
const busyEnvelopes = 8;
const busyBucketMs = 8;

/**
 * On the wire an envelope is one line: the user's id as a JSON string, a tab, then `e` and the
 * event's JSON or `x` and the ended sessions' JSON (JSON never holds a raw tab or newline). A
 * process reads the id first and parses an event only when one of its own streams is that
 * user's: every process hears every user's events, and most are for streams held elsewhere.
 */
function envelopeLine(envelope: Envelope): string {
  return 'event' in envelope
    ? `${JSON.stringify(envelope.userId)}\te${JSON.stringify(envelope.event)}`
    : `${JSON.stringify(envelope.userId)}\tx${JSON.stringify(envelope.endedSessions)}`;
}

/**
 * Delivers a payload's envelopes that concern this process, in order. A line it cannot read (a
 * NOTIFY sent by hand on the channel) is skipped: thrown from the listener, it would end the
 * process.
 */
function deliverPayload(payload: string, fanOut: LocalFanOut): void {
  for (const line of payload.split('\n')) {
    let envelope: Envelope | undefined;
    try {
      envelope = envelopeOfLine(line, fanOut);
    } catch {
      continue;
    }
    if (envelope) fanOut.deliver(envelope);
  }
}

/**
 * The envelope on `line` (`envelopeLine`), or undefined for an event no stream here wants or a
 * line that is no envelope; it throws on JSON it cannot parse.
 */
function envelopeOfLine(line: string, fanOut: LocalFanOut): Envelope | undefined {
  const tab = line.indexOf('\t');
  if (tab < 0) return undefined;
  const userId = JSON.parse(line.slice(0, tab)) as string;
  const body = line.slice(tab + 2);
  if (line[tab + 1] === 'x') return { userId, endedSessions: JSON.parse(body) as EndedSessions };
  return fanOut.hasStream(userId) ? { userId, event: JSON.parse(body) as AppEvent } : undefined;
}

/**
 * Sends envelopes in the order given, in as few statements as it can: while one is on its way,
 * and while the bus is busy until `notifySpacingMs` after it started, those published meanwhile
 * wait, and then all of them go in the next statement, as lines (`envelopeLine`) in payloads of
 * at most `batchBytes` each (one NOTIFY payload apiece, in order, in one transaction). However
 * many events wait, they take one round trip: one payload per round trip capped the bus near
 * 7.5 KB per round trip, which a busy server's events (two per accept) come close to. A quiet
 * bus sends each event at once. Each `send` settles when its statement has gone (or failed).
 */
function batchedNotify(notify: (payloads: string[]) => Promise<void>) {
  /** Envelopes going in one payload, and the promise their senders share. */
  interface Batch {
    lines: string[];
    bytes: number;
    sent: Promise<void>;
    settle(error?: unknown): void;
  }
  // The last batch takes what is sent until it is full or its statement starts.
  const waiting: Batch[] = [];
  let sending: Promise<void> | undefined;
  let lastStartedAt = -Infinity;
  // Envelopes sent in the current bucket of `busyBucketMs` and in the one before it.
  let bucketStartedAt = -Infinity;
  let inBucket = 0;
  let inBucketBefore = 0;

  function countEnvelope(now: number) {
    const elapsed = now - bucketStartedAt;
    if (elapsed >= busyBucketMs) {
      inBucketBefore = elapsed < 2 * busyBucketMs ? inBucket : 0;
      inBucket = 0;
      bucketStartedAt = now;
    }
    inBucket += 1;
  }

  function newBatch(): Batch {
    let settle!: Batch['settle'];
    const sent = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    return { lines: [], bytes: 0, sent, settle };
  }

  async function drain() {
    while (waiting.length > 0) {
      const busy = inBucket + inBucketBefore >= busyEnvelopes;
      const pause = busy ? lastStartedAt + notifySpacingMs - performance.now() : 0;
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(pause)));
      lastStartedAt = performance.now();
      const batches = waiting.splice(0, waiting.length);
      const error = await notify(batches.map((batch) => batch.lines.join('\n'))).then(
        () => undefined,
        (failure: unknown) => failure ?? new Error('NOTIFY failed'),
      );
      for (const batch of batches) batch.settle(error);
    }
    sending = undefined;
  }

  return {
    send(envelope: Envelope): Promise<void> {
      const line = envelopeLine(envelope);
      const bytes = Buffer.byteLength(line) + 1;
      let batch = waiting.at(-1);
      if (!batch || (batch.lines.length > 0 && batch.bytes + bytes > batchBytes))
        waiting.push((batch = newBatch()));
      batch.lines.push(line);
      batch.bytes += bytes;
      countEnvelope(performance.now());
      sending ??= drain();
      return batch.sent;
    },
    /** Settles once everything sent so far has gone. */
    flushed: () => sending ?? Promise.resolve(),
  };
}

/**
 * Scale-out: every process LISTENs on one channel and NOTIFY carries the event, so a worker's
 * publish reaches an SSE stream held by any web process. Even this process's own events go
 * through Postgres, which keeps one order for everyone (endings need no order).
 */
export function createPostgresEventBus(notifications: Notifications): EventBus {
  const fanOut = new LocalFanOut();
  let stop: (() => Promise<void>) | undefined;
  const batches = batchedNotify((payloads) => notifications.notify(channel, payloads));
  const send = (envelope: Envelope) => batches.send(envelope);
  return {
    publish: (userId, event) => send({ userId, event }),
    subscribe: (userId, listener) => fanOut.subscribe(userId, listener),
    // An ending is heard here at once as well: this process's next request with that session
    // (a copied cookie) is refused without waiting for the round trip. Hearing it twice is harmless.
    endSessions: async (userId, endedSessions) => {
      fanOut.deliver({ userId, endedSessions });
      await send({ userId, endedSessions });
    },
    onSessionsEnded: (userId, listener) => fanOut.onSessionsEnded(userId, listener),
    onAnySessionsEnded: (listener) => fanOut.onAnySessionsEnded(listener),
    onResync: (listener) => fanOut.onResync(listener),
    async start() {
      stop = await notifications.listen(
        channel,
        (payload) => deliverPayload(payload, fanOut),
        () => fanOut.resync(),
      );
    },
    async close() {
      await batches.flushed();
      await stop?.();
    },
  };
}
