// Requests per second against one URL with autocannon, and the bare-Fastify floor every
// throughput figure is compared with in the same run.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { warmUpEnabled } from './warm-up.ts';

export interface ThroughputRow {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than the expected status, connection errors and timeouts. */
  failures: number;
  ratioToBare: number;
}

export type MeasuredRow = Omit<ThroughputRow, 'ratioToBare'>;

export interface Load {
  connections: number;
  seconds: number;
}

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** What a request must answer to count (default 200). */
  expectedStatus?: number;
  /** A CommonJS module giving each connection its own headers and body (workers need a path). */
  setupClient?: string;
}

/**
 * Requests per second and latency of `target` under `load`, after a check request and (unless
 * warm-ups are off) a second of load not counted; `onMeasuring` runs just before the counted
 * load starts, where a caller begins counting what the requests cost.
 */
export async function measureThroughput(
  name: string,
  target: Target,
  load: Load,
  onMeasuring?: () => unknown,
): Promise<MeasuredRow> {
  const expectedStatus = target.expectedStatus ?? 200;
  const request = {
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    ...(target.body ? { body: target.body } : {}),
  };
  const check = await fetch(target.url, { ...request, signal: AbortSignal.timeout(60_000) });
  if (check.status !== expectedStatus)
    throw new Error(`${name}: answered ${check.status}: ${await check.text()}`);
  await check.arrayBuffer();
  // The load generator runs in a worker thread so it does not share the server's event loop.
  const settings = {
    url: target.url,
    ...request,
    // In workers mode autocannon takes the module's path (its types only know a function).
    ...(target.setupClient
      ? { setupClient: target.setupClient as unknown as (client: autocannon.Client) => void }
      : {}),
    connections: load.connections,
    workers: 1,
  };
  if (warmUpEnabled) await autocannon({ ...settings, duration: 1 }); // JIT, pools, caches
  await onMeasuring?.();
  const result = await autocannon({ ...settings, duration: load.seconds });
  const expected = result.statusCodeStats?.[`${expectedStatus}`]?.count ?? 0;
  const row = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: Math.max(0, result.requests.total - expected) + result.errors + result.timeouts,
  };
  console.log(
    `  ${name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms` +
      (row.failures ? `, ${row.failures} failures` : ''),
  );
  return row;
}

/** A hello-world Fastify server under the same load: the floor of any HTTP figure. */
export async function measureBareFastify(name: string, load: Load): Promise<MeasuredRow> {
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ hello: 'world' }));
  const url = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await measureThroughput(name, { url: `${url}/` }, load);
  } finally {
    await bare.close();
  }
}

/** The median row by `value` (of an even count, the lower middle): a round that happened to be
 * fast or slow on this shared machine does not decide a comparison. */
export function medianBy<T>(rows: readonly T[], value: (row: T) => number): T {
  return [...rows].sort((a, b) => value(a) - value(b))[Math.floor((rows.length - 1) / 2)]!;
}

/** The median of `values` (of an even count, the mean of the middle two). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One row whose every numeric figure is that figure's median over `rows` (the rest: the first
 * row's), so that one round's spell of this shared machine decides no figure. */
export function medianRow<T extends object>(rows: readonly T[]): T {
  const first = rows[0]!;
  return Object.fromEntries(
    Object.entries(first).map(([key, value]) => [
      key,
      typeof value === 'number'
        ? median(rows.map((row) => (row as Record<string, number>)[key]!))
        : value,
    ]),
  ) as T;
}

/**
 * A `setupClient` module (autocannon's workers take a path) giving each connection the next
 * user's session and body in turn: one user per connection. Written into `directory`.
 */
export function perUserClients(
  directory: string,
  users: readonly { cookie: string; modelId: string }[],
  presetId: string,
  origin: string,
): string {
  const file = path.join(directory, `clients-${randomBytes(4).toString('hex')}.cjs`);
  const sessions = users.map((user) => ({
    headers: { cookie: user.cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ userModelId: user.modelId, presetId }),
  }));
  writeFileSync(
    file,
    `const sessions = ${JSON.stringify(sessions)};\nlet next = 0;\n` +
      `module.exports = (client) => {\n  const s = sessions[next++ % sessions.length];\n` +
      `  client.setHeadersAndBody(s.headers, s.body);\n};\n`,
  );
  return file;
}

/**
 * `rounds` rounds, each measuring two targets back to back: `first` leads in odd rounds and
 * `second` in even ones, so a drift of this shared machine's speed over the run falls on both.
 */
export async function alternatingRounds(
  rounds: number,
  first: (round: number) => Promise<unknown>,
  second: (round: number) => Promise<unknown>,
): Promise<void> {
  for (let round = 1; round <= rounds; round += 1) {
    const [lead, follow] = round % 2 === 1 ? [first, second] : [second, first];
    await lead(round);
    await follow(round);
  }
}
