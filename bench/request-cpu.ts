// The CPU one accepted generation costs under load (issue #18), product and floor each as their
// own process: the server process's CPU, the Postgres backends' CPU and the whole machine's,
// per request, read from /proc. On this shared machine throughput swings by a third within
// minutes; the CPU a request costs moves much less, so this tells a change to the request path
// apart where bench/generation.ts's requests per second cannot.
//
//   npm run bench request-cpu
//   BENCH_DATABASE_URL=postgres://…        a Postgres server on this machine (scratch database,
//                                          dropped at the end; default: the local one when
//                                          `pg_isready` answers). Without one nothing is measured.
//   BENCH_CONNECTIONS=50 BENCH_SECONDS=5   autocannon load per row, one user per connection
//   BENCH_ROUNDS=5                         rounds, each measuring both back to back (the floor
//                                          first in odd rounds), after a warm-up round not kept
//
// The product runs as `npm start` runs it (`node dist/server/main.mjs`, ROLE=web so no job is
// processed), the floor (support/generation-floor-main.ts) through tsx; both are up for the whole
// run, on pools of 10. The load generator runs in a worker thread of this process: its CPU is in
// the machine's figure, the same for both. Linux only (/proc).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acceptingUsers, benchPresetId, startFloorProcess } from './support/accept-targets.ts';
import { postgresCpu } from './support/postgres-cpu.ts';
import { machine, writeResults } from './support/results.ts';
import { createScratchDatabase, dropScratchDatabase } from './support/scratch-database.ts';
import { startServer } from './support/server-process.ts';
import {
  alternatingRounds,
  measureThroughput,
  median,
  medianRow,
  perUserClients,
} from './support/throughput.ts';
import { warmUpEnabled } from './support/warm-up.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const ticksPerSecond = 100; // USER_HZ on Linux

const databaseUrl = await createScratchDatabase();
if (!databaseUrl || process.platform !== 'linux') {
  console.log('request-cpu: needs Linux and a Postgres server on this machine; nothing measured.');
  if (databaseUrl) await dropScratchDatabase();
  process.exit(0);
}

/** Milliseconds of CPU a process has used (user and system). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Milliseconds of CPU every core of the machine has spent busy (neither idle nor waiting). */
function machineCpuMs(): number {
  const times = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const ticks = times.map(Number);
  const busy = ticks.reduce((sum, value) => sum + value, 0) - ticks[3]! - ticks[4]!;
  return (busy * 1000) / ticksPerSecond;
}

interface Row {
  requestsPerSecond: number;
  p99Ms: number;
  serverUs: number;
  postgresUs: number;
  machineUs: number;
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-cpu-'));
const measured: Record<'floor' | 'product', Row[]> = { floor: [], product: [] };
try {
  const product = await startServer(databaseUrl, 'web');
  try {
    const floor = await startFloorProcess(databaseUrl); // after the product: its queue table
    try {
      const users = await acceptingUsers(product.url, databaseUrl, connections);
      const target = {
        url: '',
        method: 'POST' as const,
        headers: {
          cookie: users[0]!.cookie,
          origin: product.url,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ userModelId: users[0]!.modelId, presetId: benchPresetId }),
        setupClient: perUserClients(directory, users, benchPresetId, product.url),
        expectedStatus: 201,
      };
      const servers = { floor, product };
      const measure = async (name: 'floor' | 'product', label: string) => {
        const server = servers[name];
        let started:
          | { server: number; machine: number; postgres: Awaited<ReturnType<typeof postgresCpu>> }
          | undefined;
        const row = await measureThroughput(
          label,
          { ...target, url: `${server.url}/api/generations` },
          { connections, seconds },
          async () => {
            started = {
              postgres: await postgresCpu(databaseUrl),
              server: processCpuMs(server.pid),
              machine: machineCpuMs(),
            };
          },
        );
        const requests = Math.max(1, row.requests);
        const machineMs = machineCpuMs() - started!.machine;
        const serverMs = processCpuMs(server.pid) - started!.server;
        const postgresMs = (await started!.postgres.stop()) ?? 0;
        return {
          requestsPerSecond: row.requestsPerSecond,
          p99Ms: row.p99Ms,
          serverUs: (serverMs * 1000) / requests,
          postgresUs: (postgresMs * 1000) / requests,
          machineUs: (machineMs * 1000) / requests,
        };
      };
      console.log(
        `request-cpu: ${connections} users × 1 connection, ${seconds} s per row, ${rounds} round(s)`,
      );
      if (warmUpEnabled) {
        await measure('floor', 'warm-up round (not kept): floor');
        await measure('product', 'warm-up round (not kept): product');
      }
      const inRound = (name: 'floor' | 'product') => async (round: number) =>
        measured[name].push(await measure(name, `${name} (round ${round})`));
      await alternatingRounds(rounds, inRound('floor'), inRound('product'));
    } finally {
      await floor.stop();
    }
  } finally {
    await product.stop();
  }
} finally {
  await dropScratchDatabase();
  rmSync(directory, { recursive: true, force: true });
}

const floorRow = medianRow(measured.floor);
const productRow = medianRow(measured.product);
/** The median over the rounds of product ÷ floor for one figure (a round's rows run seconds apart). */
const ratioOf = (figure: keyof Row) =>
  median(measured.product.map((row, index) => row[figure] / measured.floor[index]![figure]));
const rows = [
  { name: 'floor: signature checked, then one prepared statement', ...floorRow },
  { name: 'POST /api/generations, the product', ...productRow },
];
const ratios = {
  requestsPerSecond: ratioOf('requestsPerSecond'),
  serverUs: ratioOf('serverUs'),
  postgresUs: ratioOf('postgresUs'),
  machineUs: ratioOf('machineUs'),
};
console.table(
  Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        'req/s': Math.round(row.requestsPerSecond),
        'p99 ms': row.p99Ms,
        'server µs': Math.round(row.serverUs),
        'Postgres µs': Math.round(row.postgresUs),
        'machine µs': Math.round(row.machineUs),
      },
    ]),
  ),
);
console.log(
  `product ÷ floor (median of the rounds): requests/s ${ratios.requestsPerSecond.toFixed(2)}×, ` +
    `server CPU ${ratios.serverUs.toFixed(2)}×, Postgres ${ratios.postgresUs.toFixed(2)}×, machine ${ratios.machineUs.toFixed(2)}×`,
);
writeResults(
  'request-cpu',
  [
    '# CPU per accepted generation under load',
    '',
    'Written by `npm run bench request-cpu` (`bench/request-cpu.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(machine()).map(([key, value]) => `- ${key}: ${value}`),
    `- load: autocannon, ${connections} users × 1 connection, ${seconds} s per row after 1 s not counted; ${rounds} round(s), each measuring both back to back (the floor first in odd rounds), after a warm-up round not kept`,
    "- both servers as their own processes, pools of 10; CPU from /proc: the server process, the scratch database's Postgres backends, and every core of the machine (the load generator included, the same for both)",
    '',
    '| target | requests/s | p99 | server µs/request | Postgres µs/request | machine µs/request |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p99Ms} ms | ${Math.round(row.serverUs)} | ${Math.round(row.postgresUs)} | ${Math.round(row.machineUs)} |`,
    ),
    '',
    `Product ÷ floor, the median of the rounds' ratios: requests/s ${ratios.requestsPerSecond.toFixed(2)}×, server CPU ${ratios.serverUs.toFixed(2)}×, Postgres CPU ${ratios.postgresUs.toFixed(2)}×, machine CPU ${ratios.machineUs.toFixed(2)}× per request.`,
    '',
    `Each round, machine µs per request (floor / product): ${measured.floor.map((row, index) => `${Math.round(row.machineUs)} / ${Math.round(measured.product[index]!.machineUs)}`).join(', ')}.`,
    '',
  ].join('\n'),
  { machine: machine(), connections, seconds, rounds, rows, ratios, measuredRounds: measured },
);
