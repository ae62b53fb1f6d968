import { describe, expect, it } from 'vitest';
import { createStatementBatcher } from './statement-batcher.ts';

interface Request {
  user: string;
  value: number;
}

/** A statement that answers each request's value doubled, its runs held until released. */
function heldStatement(options: { fails?: (requests: readonly Request[]) => boolean } = {}) {
  const runs: { requests: Request[]; release(): void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  async function run(requests: readonly Request[]): Promise<number[]> {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    try {
      await new Promise<void>((release) => runs.push({ requests: [...requests], release }));
      if (options.fails?.(requests)) throw new Error(`failed: ${requests.length}`);
      return requests.map((request) => request.value * 2);
    } finally {
      running -= 1;
    }
  }
  /** Releases every run waiting now, then lets their answers and the next runs start. */
  async function releaseAll() {
    for (const held of runs.filter((r) => r.requests.length > 0)) held.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { run, runs, releaseAll, mostAtOnce: () => mostAtOnce };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A batcher keyed by the request's user. */
const byUser = (
  run: (requests: readonly Request[]) => Promise<readonly number[]>,
  concurrency: number,
  maxBatch: number,
) => createStatementBatcher({ run, key: (r: Request) => r.user, concurrency, maxBatch });

describe('the statement batcher', () => {
  it('sends each request at once and alone while fewer batches than its limit run', async () => {
    const statement = heldStatement();
    const accept = byUser(statement.run, 3, 16);
    const answers = [accept({ user: 'a', value: 1 }), accept({ user: 'b', value: 2 })];
    await settle();
    expect(statement.runs.map((r) => r.requests.map((q) => q.user))).toEqual([['a'], ['b']]);
    await statement.releaseAll();
    expect(await Promise.all(answers)).toEqual([2, 4]);
  });

  it('sends what waited together once a batch ends, up to its largest batch, in order', async () => {
    const statement = heldStatement();
    const accept = byUser(statement.run, 1, 3);
    const answers = ['a', 'b', 'c', 'd', 'e', 'f'].map((user, value) => accept({ user, value }));
    await settle();
    expect(statement.runs.map((r) => r.requests.map((q) => q.user))).toEqual([['a']]);
    await statement.releaseAll();
    await statement.releaseAll();
    await statement.releaseAll();
    expect(statement.runs.map((r) => r.requests.map((q) => q.user))).toEqual([
      ['a'],
      ['b', 'c', 'd'],
      ['e', 'f'],
    ]);
    expect(await Promise.all(answers)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(statement.mostAtOnce()).toBe(1);
  });

  it("never puts one key's requests in one batch nor runs them at once", async () => {
    const statement = heldStatement();
    const accept = byUser(statement.run, 4, 16);
    const first = accept({ user: 'a', value: 1 });
    await settle();
    // Three more batches could start, but not with a second request of 'a'.
    const later = [
      accept({ user: 'a', value: 2 }),
      accept({ user: 'a', value: 3 }),
      accept({ user: 'b', value: 4 }),
    ];
    await settle();
    expect(statement.runs.map((r) => r.requests.map((q) => q.value))).toEqual([[1], [4]]);
    await statement.releaseAll();
    expect(statement.runs.map((r) => r.requests.map((q) => q.value))).toEqual([[1], [4], [2]]);
    await statement.releaseAll();
    await statement.releaseAll();
    expect(statement.runs.map((r) => r.requests.map((q) => q.value))).toEqual([[1], [4], [2], [3]]);
    expect(await Promise.all([first, ...later])).toEqual([2, 4, 6, 8]);
  });

  it("runs a failed batch's requests again alone: each gets its own answer or error", async () => {
    // Any run holding request 2 fails, as a statement with one bad request fails whole.
    const statement = heldStatement({ fails: (requests) => requests.some((r) => r.value === 2) });
    const accept = byUser(statement.run, 1, 16);
    const answers = ['a', 'b', 'c', 'd'].map((user, value) =>
      accept({ user, value }).then(
        (answer) => ({ answer }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await settle();
    for (let round = 0; round < 4; round += 1) await statement.releaseAll();
    expect(statement.runs.map((r) => r.requests.map((q) => q.value))).toEqual([
      [0],
      [1, 2, 3],
      [1],
      [2],
      [3],
    ]);
    expect(await Promise.all(answers)).toEqual([
      { answer: 0 },
      { answer: 2 },
      { error: 'failed: 1' },
      { answer: 6 },
    ]);
  });

  it('answers a wrong number of rows with a retry alone, not with the wrong rows', async () => {
    let calls = 0;
    // A batch answers one row short; each request alone answers its own.
    const accept = byUser(
      async (requests) => {
        calls += 1;
        await settle();
        return requests.length > 1
          ? requests.slice(1).map((r) => r.value)
          : requests.map((r) => r.value);
      },
      1,
      16,
    );
    const answers = ['a', 'b', 'c'].map((user, value) => accept({ user, value }));
    expect(await Promise.all(answers)).toEqual([0, 1, 2]);
    expect(calls).toBe(4); // a alone, b and c together, then each again alone
  });
});
