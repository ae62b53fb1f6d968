// The work one accepted generation makes a server do, counted rather than timed (issue #18):
// the async resources (promises, next-tick callbacks, timers…) the server process creates per
// POST /api/generations, against the floor of bench/generation.ts doing the same accept. Counts
// do not move with this shared machine's noise, which swings throughput by a third within
// minutes, so a change that adds work to the request path shows here even when the throughput
// benchmark cannot tell it apart.
//
//   npm run bench request-work
//   BENCH_DATABASE_URL=postgres://…   a Postgres server (scratch database, dropped at the end;
//                                     default: the local one when `pg_isready` answers). Without
//                                     one nothing is measured: the floor is SQL.
//   BENCH_REQUESTS=200                accepts counted per target, one at a time, after 20 more
//
// Both servers run as their own processes with `support/count-async.mjs` preloaded (an async
// hook counting every resource created, by type): the product as `npm start` runs it (`node
// dist/server/main.mjs`, ROLE=web so no job is processed), the floor through tsx. The counts are
// read before and after the counted requests; on Node 20 each promise also runs the
// async-context hooks (AsyncLocalStorage), so promises are the count that costs most.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptingUsers, benchPresetId, startFloorProcess } from './support/accept-targets.ts';
import { machine, writeResults } from './support/results.ts';
import { createScratchDatabase, dropScratchDatabase } from './support/scratch-database.ts';
import { type Server, startServer } from './support/server-process.ts';

const requests = Math.max(1, Number(process.env.BENCH_REQUESTS ?? 200));
const warmUpRequests = 20;
const repo = fileURLToPath(new URL('../', import.meta.url));
const probe = path.join(repo, 'bench/support/count-async.mjs');
const countsDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-work-'));

const databaseUrl = await createScratchDatabase();
if (!databaseUrl) {
  console.log(
    'request-work: no Postgres server (BENCH_DATABASE_URL or a local one); nothing measured.',
  );
  process.exit(0);
}

interface Counted {
  /** Signals the process to write its counts, then reads them. */
  counts(): Promise<Record<string, number>>;
  url: string;
  stop(): Promise<void>;
}

function countsOf(pid: number, file: string) {
  return async () => {
    process.kill(pid, 'SIGUSR2');
    for (let attempt = 0; attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        const counts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
        rmSync(file);
        return counts;
      } catch {
        // not written yet
      }
    }
    throw new Error(`no counts from process ${pid}`);
  };
}

async function product(): Promise<Counted> {
  const file = path.join(countsDir, 'product.json');
  const server: Server = await startServer(databaseUrl, 'web', { COUNT_ASYNC_FILE: file }, [
    '--import',
    probe,
  ]);
  return { url: server.url, counts: countsOf(server.pid, file), stop: server.stop };
}

async function floor(): Promise<Counted> {
  const file = path.join(countsDir, 'floor.json');
  const server = await startFloorProcess(databaseUrl!, ['--import', probe], {
    COUNT_ASYNC_FILE: file,
  });
  return { url: server.url, counts: countsOf(server.pid, file), stop: server.stop };
}

/** One Pro user with credits and a trained model, and a preset. */
async function setUp(productUrl: string) {
  const [user] = await acceptingUsers(productUrl, databaseUrl!, 1);
  return {
    cookie: user!.cookie,
    body: JSON.stringify({ userModelId: user!.modelId, presetId: benchPresetId }),
  };
}

async function accept(url: string, origin: string, cookie: string, body: string) {
  const response = await fetch(`${url}/api/generations`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body,
  });
  if (response.status !== 201)
    throw new Error(`${url}: answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** Async resources created per accept, by type, over `requests` accepts one at a time. */
async function perAccept(target: Counted, origin: string, cookie: string, body: string) {
  for (let i = 0; i < warmUpRequests; i += 1) await accept(target.url, origin, cookie, body);
  const before = await target.counts();
  for (let i = 0; i < requests; i += 1) await accept(target.url, origin, cookie, body);
  // What the accepts started after they answered (their events' NOTIFY) is theirs too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = await target.counts();
  const perRequest: Record<string, number> = {};
  for (const [type, count] of Object.entries(after))
    perRequest[type] = (count - (before[type] ?? 0)) / requests;
  return perRequest;
}

const kinds = ['PROMISE', 'TickObject', 'Timeout'] as const;
/** Both targets' counts: the servers started, one user set up, then the floor, then the product. */
async function measure() {
  try {
    const productServer = await product();
    try {
      const floorServer = await floor(); // after the product: its queue table must exist
      try {
        const { cookie, body } = await setUp(productServer.url);
        console.log(`request-work: ${requests} accepts per target, one at a time`);
        return [
          {
            name: 'floor: signature checked, then one prepared statement',
            perRequest: await perAccept(floorServer, productServer.url, cookie, body),
          },
          {
            name: 'POST /api/generations, the product',
            perRequest: await perAccept(productServer, productServer.url, cookie, body),
          },
        ];
      } finally {
        await floorServer.stop();
      }
    } finally {
      await productServer.stop();
    }
  } finally {
    await dropScratchDatabase();
    rmSync(countsDir, { recursive: true, force: true });
  }
}

const rows = await measure();
const other = (perRequest: Record<string, number>) =>
  Object.entries(perRequest)
    .filter(([type]) => !(kinds as readonly string[]).includes(type))
    .reduce((sum, [, count]) => sum + count, 0);
const table = rows.map((row) => ({
  target: row.name,
  promises: row.perRequest.PROMISE ?? 0,
  'next-tick callbacks': row.perRequest.TickObject ?? 0,
  timers: row.perRequest.Timeout ?? 0,
  other: other(row.perRequest),
}));
console.table(
  table.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        typeof value === 'number' ? value.toFixed(1) : value,
      ]),
    ),
  ),
);
writeResults(
  'request-work',
  [
    '# Work per accepted generation',
    '',
    'Written by `npm run bench request-work` (`bench/request-work.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(machine()).map(([key, value]) => `- ${key}: ${value}`),
    `- requests: ${requests} accepts per target, one at a time, after ${warmUpRequests} more`,
    '',
    '## Async resources the server process creates per accept',
    '',
    '| target | promises | next-tick callbacks | timers | other |',
    '|---|---:|---:|---:|---:|',
    ...table.map(
      (row) =>
        `| ${row.target} | ${row.promises.toFixed(1)} | ${row['next-tick callbacks'].toFixed(1)} | ${row.timers.toFixed(1)} | ${row.other.toFixed(1)} |`,
    ),
    '',
  ].join('\n'),
  { machine: machine(), requests, rows },
);
