import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../../../../tests/helpers/event-stream.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';

let app: TestApp;
beforeAll(async () => {
  // A short heartbeat so the test sees one without waiting the production 25 s.
  app = await createTestApp({ listen: true, env: { SSE_HEARTBEAT_MS: '200' } });
});
afterAll(async () => {
  await app.stop();
});

/** Reads a raw stream until `done(text)` holds, as a proxy in front of the browser would see it. */
async function readUntil(
  body: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
  timeoutMs = 20_000,
): Promise<{ text: string; ended: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    void reader.cancel();
  }, timeoutMs);
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) return { text, ended: !timedOut };
      text += decoder.decode(read.value, { stream: true });
      if (done(text)) return { text, ended: false };
    }
  } finally {
    clearTimeout(deadline);
    reader.releaseLock();
  }
}

describe('GET /api/events', () => {
  it("delivers the signed-in user's events after `ready`, and nobody else's", async () => {
    const alice = await signUp(app);
    const bob = await signUp(app);
    const aliceStream = openEventStream(app.url!, alice.headers.cookie);
    const bobStream = openEventStream(app.url!, bob.headers.cookie);
    try {
      await Promise.all([aliceStream.ready, bobStream.ready]);

      await app.deps.events.publish(alice.id, {
        type: 'generation.updated',
        data: { generationId: 'g1', status: 'complete', bulkJobId: null },
      });
      await app.deps.events.publish(alice.id, {
        type: 'tryon.updated',
        data: { tryOnId: 't1', status: 'completed' },
      });
      // Bob's own event comes after Alice's on the same bus: once he has it, hers would have
      // reached him already if delivery leaked across users.
      const bobsPhoto = {
        type: 'photo.updated',
        data: { photoId: 'bob', status: 'passed' },
      } as const;
      await app.deps.events.publish(bob.id, bobsPhoto);

      await aliceStream.waitFor((event) => event.type === 'tryon.updated', 20_000);
      await bobStream.waitFor((event) => event.type === 'photo.updated', 20_000);
      expect(aliceStream.events).toEqual([
        {
          type: 'generation.updated',
          data: { generationId: 'g1', status: 'complete', bulkJobId: null },
        },
        { type: 'tryon.updated', data: { tryOnId: 't1', status: 'completed' } },
      ]);
      expect(bobStream.events).toEqual([bobsPhoto]);
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it('answers 401 JSON without a session', async () => {
    const response = await fetch(`${app.url}/api/events`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Please sign in to continue.' },
    });
  });

  it('streams with SSE headers, a retry hint and a heartbeat comment', async () => {
    const user = await signUp(app);
    const controller = new AbortController();
    try {
      const response = await fetch(`${app.url}/api/events`, {
        headers: { cookie: user.headers.cookie, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(response.headers.get('x-accel-buffering')).toBe('no');

      const { text } = await readUntil(response.body!, (t) => t.includes(': heartbeat\n\n'));
      expect(text.startsWith('retry: 3000\nevent: ready\ndata: {}\n\n')).toBe(true);
      expect(text).toContain(': heartbeat\n\n');
    } finally {
      controller.abort();
    }
  });
});

describe('graceful shutdown', () => {
  // A second app boots inside this test, so it gets more than the default 30 s on a busy machine.
  it('ends open streams so browsers reconnect to another process', async () => {
    const other = await createTestApp({ listen: true });
    try {
      const user = await signUp(other);
      const response = await fetch(`${other.url}/api/events`, {
        headers: { cookie: user.headers.cookie, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(200);
      const body = response.body!;
      const reader = body.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('event: ready');
      reader.releaseLock();

      // stop() must not wait for the stream to be closed by the client: it ends the stream itself.
      const [{ ended }] = await Promise.all([readUntil(body, () => false), other.stop()]);
      expect(ended).toBe(true);
    } finally {
      await other.stop();
    }
  }, 90_000);
});
