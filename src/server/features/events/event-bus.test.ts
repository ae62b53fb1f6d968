import { describe, expect, it, vi } from 'vitest';
import type { AppEvent } from '../../../common/api/events.ts';
import type { Notifications } from '../../db/client.ts';
import { createPostgresEventBus } from './event-bus.ts';

/** A NOTIFY channel whose deliveries the test releases one at a time, as a slow server would. */
function heldChannel() {
  const listeners: ((payload: string) => void)[] = [];
  const sent: string[] = [];
  const inFlight: (() => void)[] = [];
  let statements = 0;
  const notifications: Notifications = {
    notify: (_channel, payloads) =>
      new Promise((resolve) => {
        statements += 1;
        inFlight.push(() => {
          for (const payload of payloads) {
            sent.push(payload);
            for (const listen of listeners) listen(payload);
          }
          resolve();
        });
      }),
    listen: async (_channel, onPayload) => {
      listeners.push(onPayload);
      return async () => {};
    },
  };
  const release = async () => {
    while (inFlight.length === 0) await new Promise((resolve) => setImmediate(resolve));
    inFlight.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { notifications, sent, release, statements: () => statements };
}

/**
 * A NOTIFY channel answering at once: what is sent reaches every listening bus; `hear` hands
 * the listeners a payload as if another process had sent it.
 */
function instantChannel() {
  const listeners: ((payload: string) => void)[] = [];
  const sentAt: number[] = [];
  let payloads = 0;
  const hear = (payload: string) => {
    for (const listen of listeners) listen(payload);
  };
  const notifications: Notifications = {
    notify: async (_channel, sent) => {
      sentAt.push(performance.now());
      payloads += sent.length;
      for (const payload of sent) hear(payload);
    },
    listen: async (_channel, onPayload) => {
      listeners.push(onPayload);
      return async () => {};
    },
  };
  return { notifications, sentAt, payloads: () => payloads, hear };
}

const marker = (n: number): AppEvent => ({
  type: 'photo.updated',
  data: { photoId: `p-${n}`, status: 'passed' },
});

describe('the Postgres event bus', () => {
  it('sends what is published while a NOTIFY is on its way in one NOTIFY, in order', async () => {
    const channel = heldChannel();
    const bus = createPostgresEventBus(channel.notifications);
    await bus.start();
    const heard: AppEvent[] = [];
    bus.subscribe('u1', (event) => heard.push(event));

    const published = [1, 2, 3, 4].map((n) => bus.publish('u1', marker(n)));
    await channel.release(); // the first, alone: nothing else was waiting
    await channel.release(); // the three published meanwhile, together
    await Promise.all(published);

    expect(channel.sent.map((payload) => payload.split('\n').length)).toEqual([1, 3]);
    expect(heard).toEqual([marker(1), marker(2), marker(3), marker(4)]);
  });

  it('splits a burst into NOTIFYs under Postgres’s 8000 bytes, sent together in one statement', async () => {
    const channel = heldChannel();
    const bus = createPostgresEventBus(channel.notifications);
    await bus.start();
    const heard: AppEvent[] = [];
    bus.subscribe('u1', (event) => heard.push(event));

    const many = Array.from({ length: 200 }, (_, n) => marker(n));
    const published = many.map((event) => bus.publish('u1', event));
    while (channel.sent.length < 1 || heard.length < many.length) await channel.release();
    await Promise.all(published);

    expect(channel.sent.length).toBeGreaterThan(2);
    for (const payload of channel.sent) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    // The first event alone (nothing else waited), then every other one in one round trip.
    expect(channel.statements()).toBe(2);
    expect(heard).toEqual(many);
  });

  // On a fake clock: the pacing is about milliseconds, which a loaded machine's timers stretch
  // (a late producer makes a quiet bus, and a late check a slow send).
  it('sends a steady stream of events in one NOTIFY per 8 ms once busy, in order', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      // A server answering at once: without pacing, one NOTIFY per event.
      const channel = instantChannel();
      const bus = createPostgresEventBus(channel.notifications);
      await bus.start();
      const heard: AppEvent[] = [];
      bus.subscribe('u1', (event) => heard.push(event));
      const published: Promise<void>[] = [];
      for (let n = 0; n < 60; n += 1) {
        published.push(bus.publish('u1', marker(n)));
        await vi.advanceTimersByTimeAsync(1); // 1,000 events a second
      }
      await vi.advanceTimersByTimeAsync(20);
      await Promise.all(published);

      expect(heard).toEqual(Array.from({ length: 60 }, (_, n) => marker(n)));
      // Until 8 envelopes are within its window the bus is quiet: the first 7 go at once, each
      // alone; from then on the statements are 8 ms apart at least. Unpaced, it sent 60.
      expect(channel.sentAt.slice(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const gaps = channel.sentAt.slice(7).map((at, k) => at - channel.sentAt[6 + k]!);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(8);
      expect(channel.sentAt.length).toBeLessThanOrEqual(7 + Math.ceil(60 / 8) + 1);
      expect(channel.payloads()).toBe(channel.sentAt.length); // small events: one payload each time
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends each event of a quiet bus at once, even right after another', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { notifications, sentAt } = instantChannel();
      const bus = createPostgresEventBus(notifications);
      const publishedAt: number[] = [];
      for (let n = 0; n < 3; n += 1) {
        publishedAt.push(performance.now());
        await bus.publish('u1', marker(n));
        await vi.advanceTimersByTimeAsync(1);
      }
      // One statement each, sent when it was published: none held back by a busy bus's pause.
      expect(sentAt).toEqual(publishedAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it('delivers to the streams of each process, and every ending to every process', async () => {
    const channel = heldChannel();
    const here = createPostgresEventBus(channel.notifications);
    const elsewhere = createPostgresEventBus(channel.notifications);
    await Promise.all([here.start(), elsewhere.start()]);
    const heardHere: AppEvent[] = [];
    const heardElsewhere: AppEvent[] = [];
    const endings: [string, unknown][] = [];
    here.subscribe('u1', (event) => heardHere.push(event));
    elsewhere.subscribe('u2', (event) => heardElsewhere.push(event));
    elsewhere.onAnySessionsEnded((userId, sessions) => endings.push([userId, sessions]));

    const sent = [
      here.publish('u1', marker(1)),
      here.publish('u2', marker(2)),
      here.endSessions('u1', ['s1']),
      here.publish('u1', marker(3)),
    ];
    await channel.release();
    await channel.release();
    await Promise.all(sent);

    expect(heardHere).toEqual([marker(1), marker(3)]);
    expect(heardElsewhere).toEqual([marker(2)]);
    expect(endings).toEqual([['u1', ['s1']]]);
  });

  it('reads only the events of users with a stream here, and skips lines it cannot read', async () => {
    const { notifications, hear } = instantChannel();
    const bus = createPostgresEventBus(notifications);
    await bus.start();
    const heard: AppEvent[] = [];
    bus.subscribe('u1', (event) => heard.push(event));

    // Another user's event: not parsed (a malformed one would have thrown).
    hear(`"u2"\te{not json`);
    hear(`"u2"\te{"type":"photo.updated"}\n"u1"\te${JSON.stringify(marker(1))}`);
    // What a NOTIFY sent by hand might carry: skipped, and the lines after it still delivered.
    hear('');
    hear(`hello\n"u1"\te{broken\n"u1"\te${JSON.stringify(marker(2))}`);

    expect(heard).toEqual([marker(1), marker(2)]);
  });

  it('rejects the publishes of a batch whose NOTIFY failed, and goes on with the next', async () => {
    let calls = 0;
    const delivered: string[] = [];
    const bus = createPostgresEventBus({
      notify: async (_channel, payloads) => {
        calls += 1;
        if (calls === 1) throw new Error('connection lost');
        delivered.push(...payloads);
      },
      listen: async () => async () => {},
    });
    await expect(bus.publish('u1', marker(1))).rejects.toThrow('connection lost');
    await bus.publish('u1', marker(2));
    expect(delivered).toEqual([`"u1"\te${JSON.stringify(marker(2))}`]);
  });
});
