/**
 * Requests to a statement that serves several at once, sent together while the database is busy
 * (decision 067). A request goes at once while fewer than `concurrency` batches are running;
 * otherwise it waits, and when a batch ends, the next one takes every waiting request it may (up
 * to `maxBatch`). Nothing waits on a timer: a quiet process sends each request alone, and a busy
 * one pays a statement's fixed costs (its round trip, its start-up, its locks, its commit) once
 * for many requests.
 *
 * Two requests with the same key never share a batch nor run at once (a user's accepts one after
 * another, as the row lock on their balance would have them anyway). When a batch fails, each of
 * its requests runs again alone, so that one request's error is its own: the failed statement
 * changed nothing, being one statement.
 */
export interface StatementBatcherOptions<Request, Answer> {
  /** Runs one batch: one answer per request, in the requests' order. */
  run(requests: readonly Request[]): Promise<readonly Answer[]>;
  key(request: Request): string;
  /** Batches running at once at most. */
  concurrency: number;
  /** Requests in one batch at most. */
  maxBatch: number;
}

interface Waiting<Request, Answer> {
  request: Request;
  key: string;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

export function createStatementBatcher<Request, Answer>(
  options: StatementBatcherOptions<Request, Answer>,
): (request: Request) => Promise<Answer> {
  const { concurrency, maxBatch } = options;
  if (!(concurrency >= 1 && maxBatch >= 1)) throw new Error('a batcher needs room for a request');
  let waiting: Waiting<Request, Answer>[] = [];
  const runningKeys = new Set<string>();
  let running = 0;

  async function runAlone(entry: Waiting<Request, Answer>): Promise<void> {
    try {
      const [answer] = await options.run([entry.request]);
      entry.resolve(answer as Answer);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function runBatch(batch: Waiting<Request, Answer>[]): Promise<void> {
    try {
      if (batch.length === 1) return await runAlone(batch[0]!);
      let answers: readonly Answer[];
      try {
        answers = await options.run(batch.map((entry) => entry.request));
        if (answers.length !== batch.length)
          throw new Error(`a batch of ${batch.length} answered ${answers.length}`);
      } catch {
        await Promise.all(batch.map(runAlone));
        return;
      }
      batch.forEach((entry, index) => entry.resolve(answers[index]!));
    } finally {
      running -= 1;
      for (const entry of batch) runningKeys.delete(entry.key);
      startBatches();
    }
  }

  function startBatches(): void {
    while (running < concurrency && waiting.length > 0) {
      const batch: Waiting<Request, Answer>[] = [];
      const left: Waiting<Request, Answer>[] = [];
      for (const entry of waiting) {
        if (batch.length < maxBatch && !runningKeys.has(entry.key)) {
          runningKeys.add(entry.key);
          batch.push(entry);
        } else left.push(entry);
      }
      waiting = left;
      if (batch.length === 0) return; // every waiting request's key is running
      running += 1;
      void runBatch(batch);
    }
  }

  return (request) =>
    new Promise<Answer>((resolve, reject) => {
      waiting.push({ request, key: options.key(request), resolve, reject });
      startBatches();
    });
}
