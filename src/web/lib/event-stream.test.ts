import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  closeEventStream,
  invalidateOnEvent,
  openEventStream,
  registerEventHandler,
} from './event-stream.ts';

// The browser's EventSource, reduced to what the module uses; tests play the server's part.
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners = new Map<string, Array<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(type: string, data = '{}') {
    if (type !== 'error') this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data }));
  }
  static latest() {
    return FakeEventSource.instances.at(-1)!;
  }
}

let queryClient: QueryClient;

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers();
  queryClient = new QueryClient();
});

afterEach(() => {
  closeEventStream();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('event stream', () => {
  it('opens one stream on /api/events, however often it is asked to', () => {
    openEventStream(queryClient);
    openEventStream(queryClient);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.latest().url).toBe('/api/events');
  });

  it('hands each event to the handlers of its type', () => {
    const seen: unknown[] = [];
    const unregister = registerEventHandler('generation.updated', (event) => seen.push(event.data));
    openEventStream(queryClient);
    const source = FakeEventSource.latest();
    source.emit('ready');
    source.emit('message', JSON.stringify({ type: 'generation.updated', data: { id: 'g1' } }));
    source.emit('message', JSON.stringify({ type: 'other', data: {} }));
    unregister();
    source.emit('message', JSON.stringify({ type: 'generation.updated', data: { id: 'g2' } }));
    expect(seen).toEqual([{ id: 'g1' }]);
  });

  it('invalidates the mapped query keys', () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const unregister = invalidateOnEvent('subscription.updated', [['session']]);
    openEventStream(queryClient);
    FakeEventSource.latest().emit(
      'message',
      JSON.stringify({ type: 'subscription.updated', data: {} }),
    );
    unregister();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['session'] });
  });

  it('ignores malformed messages and survives a failing handler', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const seen: string[] = [];
    const unregisterBroken = registerEventHandler('photo.updated', () => {
      throw new Error('broken');
    });
    const unregisterGood = registerEventHandler('photo.updated', () => seen.push('ok'));
    openEventStream(queryClient);
    const source = FakeEventSource.latest();
    source.emit('message', 'not json');
    source.emit('message', JSON.stringify({ type: 'photo.updated' }));
    source.emit(
      'message',
      JSON.stringify({ type: 'photo.updated', data: { photoId: 'p', status: 'passed' } }),
    );
    unregisterBroken();
    unregisterGood();
    expect(seen).toEqual(['ok']);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('refetches everything when the stream is ready: first (the page loaded before it), and after a reconnect', () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    openEventStream(queryClient);
    const source = FakeEventSource.latest();
    expect(invalidate).not.toHaveBeenCalled();
    source.emit('ready');
    expect(invalidate).toHaveBeenCalledTimes(1);
    // The browser reconnects by itself (readyState stays CONNECTING)...
    source.readyState = FakeEventSource.CONNECTING;
    source.emit('error');
    expect(invalidate).toHaveBeenCalledTimes(1);
    source.emit('ready');
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('refetches everything when the server asks for a resync', () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    openEventStream(queryClient);
    FakeEventSource.latest().emit('message', JSON.stringify({ type: 'resync', data: {} }));
    expect(invalidate).toHaveBeenCalledWith();
  });

  it('reconnects itself, with a growing delay, when the browser gives up', () => {
    const onConnectionLost = vi.fn();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    openEventStream(queryClient, { onConnectionLost });
    const first = FakeEventSource.latest();
    first.readyState = FakeEventSource.CLOSED; // e.g. a 401 or a 502 from a proxy
    first.emit('error');
    expect(onConnectionLost).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(999);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);

    const second = FakeEventSource.latest();
    second.readyState = FakeEventSource.CLOSED;
    second.emit('error');
    vi.advanceTimersByTime(1_999);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(3);

    FakeEventSource.latest().emit('ready');
    expect(invalidate).toHaveBeenCalledWith();
  });

  it('stops for good when closed (sign-out)', () => {
    openEventStream(queryClient);
    const source = FakeEventSource.latest();
    source.readyState = FakeEventSource.CLOSED;
    source.emit('error');
    closeEventStream();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
  });
});
