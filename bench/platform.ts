// What the platform costs per request, next to what Fastify alone costs on the same machine:
// a bare hello-world, our /healthz (every global hook and plugin, no database) and an
// authenticated GET /api/me (session lookup + account reads in the database).
//
//   npm run bench platform            PGlite (the embedded default)
//   BENCH_DATABASE_URL=postgres://…   a Postgres database instead (scratch: a user is added)
//   BENCH_CONNECTIONS=20 BENCH_SECONDS=5   load per row
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { start } from '../src/server/runtime.ts';
import {
  type MeasuredRow,
  type ThroughputRow,
  measureBareFastify,
  measureThroughput,
} from './support/throughput.ts';
import { writeResults } from './support/results.ts';
import { afterWarmUp } from './support/warm-up.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const load = { connections, seconds };
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;

async function ourApp(): Promise<{ rows: MeasuredRow[]; database: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-bench-'));
  const publicUrl = 'http://localhost:3000';
  const config = loadConfig({
    NODE_ENV: 'production',
    ALLOW_TEST_CHECKOUT: 'true',
    SEED_CONTENT: 'false',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    // Web-only on Postgres; the embedded database runs ROLE=all only (its workers sit idle here).
    ROLE: databaseUrl ? 'web' : 'all',
    RATE_LIMIT_DISABLED: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const running = await start(config, pino({ level: 'silent' }), { listen: true });
  try {
    const url = running.url!;
    const email = `bench-${Date.now()}@example.com`;
    const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: publicUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'Bench' }),
    });
    if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const rows = [
      await measureThroughput('Likeness GET /healthz', { url: `${url}/healthz` }, load),
      await measureThroughput(
        'Likeness GET /api/me (signed in)',
        { url: `${url}/api/me`, headers: { cookie } },
        load,
      ),
    ];
    return { rows, database: running.deps.database.kind };
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdown(meta: Record<string, string | number>, rows: ThroughputRow[]): string {
  const lines = [
    '# Platform benchmark',
    '',
    'Written by `npm run bench platform` (`bench/platform.ts`); see `bench/README.md`.',
    '',
    ...Object.entries(meta).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '| target | requests/s (avg) | p50 latency | p99 latency | failures | vs bare Fastify |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.requestsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms | ${row.failures} | ${row.ratioToBare.toFixed(2)}× |`,
    ),
    '',
  ];
  return lines.join('\n');
}

console.log(`platform: ${connections} connections × ${seconds} s per target, one at a time`);
const bare = await measureBareFastify('bare Fastify hello-world', load);
const app = await ourApp();
const rows: ThroughputRow[] = [bare, ...app.rows].map((row) => ({
  ...row,
  ratioToBare: row.requestsPerSecond / bare.requestsPerSecond,
}));
const cpus = os.cpus();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${os.availableParallelism()} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
  database: app.database,
  // Numbers from a machine busy with other work are lower; this says how busy it was.
  'load average at the end (1 min)': os.loadavg()[0]!.toFixed(2),
  load: `autocannon, ${connections} connections, ${seconds} s per target ${afterWarmUp('a 1 s warm-up')}, client in a worker thread of the same process`,
};

console.table(
  Object.fromEntries(
    rows.map((row) => [
      row.name,
      {
        'req/s': row.requestsPerSecond,
        'p50 ms': row.p50Ms,
        'p99 ms': row.p99Ms,
        failures: row.failures,
        'vs bare': `${row.ratioToBare.toFixed(2)}×`,
      },
    ]),
  ),
);
writeResults('platform', markdown(meta, rows), { ...meta, rows });

if (rows.some((row) => row.failures > 0)) {
  console.error('some requests failed: the numbers above do not measure success');
  process.exit(1);
}
