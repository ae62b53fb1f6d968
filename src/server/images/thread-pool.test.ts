import { afterEach, describe, expect, it } from 'vitest';
import { smallPoolSize, ThreadPool } from './thread-pool.ts';

/**
 * A thread that answers `{ echo }` after `waitMs`, throws inside on `crash` and exits on
 * `exit`: the pool's own behaviour, without a model to load.
 */
const entry = new URL(
  `data:text/javascript,${encodeURIComponent(`
    import { parentPort, threadId } from 'node:worker_threads';
    parentPort.on('message', (message) => {
      if (message.exit) process.exit(3);
      if (message.crash) throw new Error('crashed on purpose');
      setTimeout(() => parentPort.postMessage({ echo: message.value, threadId }), message.waitMs ?? 0);
    });
  `)}`,
);

interface Reply {
  echo: unknown;
  threadId: number;
}

const pools: ThreadPool<Reply>[] = [];
function pool(size: number, idleMs?: number, keepWarm?: number): ThreadPool<Reply> {
  const created = new ThreadPool<Reply>({
    entry,
    size,
    name: 'test',
    ...(idleMs !== undefined && { idleMs }),
    ...(keepWarm !== undefined && { keepWarm }),
  });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close('the test ended')));
});

describe('ThreadPool', () => {
  it('answers each message from a thread, using up to its size at once', async () => {
    const threads = pool(2);
    const replies = await Promise.all(
      [1, 2, 3, 4].map((value) => threads.run({ value, waitMs: 50 })),
    );
    expect(replies.map((reply) => reply.echo)).toEqual([1, 2, 3, 4]);
    expect(new Set(replies.map((reply) => reply.threadId)).size).toBe(2);
    expect(threads.running).toBe(2);
  });

  it('rejects the message of a thread that fails or exits, and starts a new thread for the next', async () => {
    const threads = pool(1);
    await expect(threads.run({ crash: true })).rejects.toThrow('a test thread failed');
    await expect(threads.run({ exit: true })).rejects.toThrow('a test thread exited (code 3)');
    await expect(threads.run({ value: 'again' })).resolves.toMatchObject({ echo: 'again' });
  });

  it('drops an abandoned message still queued, and answers one being run at once', async () => {
    const threads = pool(1);
    const running = new AbortController();
    const queued = new AbortController();
    const first = threads.run({ value: 1, waitMs: 300 }, { signal: running.signal });
    const second = threads.run({ value: 2 }, { signal: queued.signal });
    const third = threads.run({ value: 3 });
    queued.abort(new Error('not wanted any more'));
    await expect(second).rejects.toThrow('not wanted any more');
    const started = performance.now();
    running.abort(new Error('stop waiting'));
    await expect(first).rejects.toThrow('stop waiting');
    expect(performance.now() - started).toBeLessThan(200);
    // The thread finishes the abandoned message, then takes the next one.
    await expect(third).resolves.toMatchObject({ echo: 3 });
    await expect(
      threads.run({ value: 4 }, { signal: AbortSignal.abort(new Error('too late')) }),
    ).rejects.toThrow('too late');
  });

  it('closes: what was not answered is rejected, and a later message starts a thread again', async () => {
    const threads = pool(1);
    const running = expect(threads.run({ value: 1, waitMs: 5_000 })).rejects.toThrow(
      'closed by the test',
    );
    const queued = expect(threads.run({ value: 2 })).rejects.toThrow('closed by the test');
    await threads.close('closed by the test');
    await running;
    await queued;
    expect(threads.running).toBe(0);
    await expect(threads.run({ value: 3 })).resolves.toMatchObject({ echo: 3 });
  });

  it('starts every thread with a first message (a warm-up)', async () => {
    const threads = pool(2);
    const replies = await threads.startAll({ value: 'warm' });
    expect(replies.map((reply) => reply.echo)).toEqual(['warm', 'warm']);
    expect(new Set(replies.map((reply) => reply.threadId)).size).toBe(2);
    expect(await threads.startAll({ value: 'again' })).toEqual([]);
  });

  it('stops idle threads after idleMs', async () => {
    const threads = pool(1, 50);
    await threads.run({ value: 1 });
    expect(threads.running).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(threads.running).toBe(0);
  });

  it('runs a message limited to the first threads only there, without holding back the others', async () => {
    const threads = pool(2);
    const [first] = await threads.startAll({ value: 'warm' });
    const busy = threads.run({ value: 'long', waitMs: 300 });
    const limited = threads.run({ value: 'limited' }, { threads: 1 });
    const free = threads.run({ value: 'free' });
    const [busyReply, limitedReply, freeReply] = await Promise.all([busy, limited, free]);
    expect(busyReply.threadId).toBe(first!.threadId);
    // The limited message waited for the first thread; the one after it took the second.
    expect(limitedReply.threadId).toBe(first!.threadId);
    expect(freeReply.threadId).not.toBe(first!.threadId);
  });

  it('keeps the first keepWarm threads running when idle, and stops the rest', async () => {
    const threads = pool(2, 50, 1);
    const [first] = await threads.startAll({ value: 'warm' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(threads.running).toBe(1);
    const reply = await threads.run({ value: 'after' }, { threads: 1 });
    expect(reply.threadId).toBe(first!.threadId);
  });

  it('sizes a small pool from the cores: one on two, two from three, never none', () => {
    expect([1, 2, 3, 4, 64].map((cores) => smallPoolSize(cores))).toEqual([1, 1, 2, 2, 2]);
  });
});
