import { describe, expect, it, vi } from 'vitest';
import { sharedRequest } from './shared-request.ts';

/** A load whose answers the test gives one at a time. */
function controlledLoad() {
  const pending: { resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  const load = vi.fn(
    () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject })),
  );
  return { load, pending };
}

describe('sharedRequest', () => {
  it('sends one request however many sections ask while it is on its way or fresh', async () => {
    const { load, pending } = controlledLoad();
    const request = sharedRequest(load, 60_000);
    request.start();
    request.start();
    request.refresh();
    expect(load).toHaveBeenCalledTimes(1);
    pending[0]!.resolve('catalog');
    await Promise.resolve();
    request.start();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failure, and once the answer is older than the stale time', async () => {
    vi.useFakeTimers();
    try {
      const { load, pending } = controlledLoad();
      const request = sharedRequest(load, 60_000);
      request.start();
      pending[0]!.reject(new Error('offline'));
      await vi.runAllTimersAsync();
      request.start();
      expect(load).toHaveBeenCalledTimes(2);
      pending[1]!.resolve('catalog');
      await vi.runAllTimersAsync();
      vi.advanceTimersByTime(59_000);
      request.start();
      expect(load).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(2_000);
      request.start();
      expect(load).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
