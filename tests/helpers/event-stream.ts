import type { AppEvent } from '../../src/common/api/events.ts';

export interface EventStreamClient {
  events: AppEvent[];
  /** Resolves with the first event (already received or arriving) that matches. */
  waitFor(match: (event: AppEvent) => boolean, timeoutMs?: number): Promise<AppEvent>;
  ready: Promise<void>;
  close(): void;
}

/** A minimal SSE reader over real HTTP, as a browser's EventSource would see the stream. */
export function openEventStream(baseUrl: string, cookie: string): EventStreamClient {
  const controller = new AbortController();
  const events: AppEvent[] = [];
  const waiters = new Set<() => void>();
  let markReady: () => void = () => {};
  let failReady: (error: unknown) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });

  void (async () => {
    try {
      const response = await fetch(`${baseUrl}/api/events`, {
        headers: { cookie, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (!response.ok || !response.body)
        throw new Error(`event stream answered ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        let boundary;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const lines = block.split('\n');
          const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (name === 'ready') markReady();
          else if (data) {
            events.push(JSON.parse(data) as AppEvent);
            for (const wake of waiters) wake();
          }
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) failReady(error);
    }
  })();

  return {
    events,
    ready,
    close: () => controller.abort(),
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
