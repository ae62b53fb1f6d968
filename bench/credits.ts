// Credit spends per second on Postgres, against a bare single-row INSERT in the same run.
//
//   BENCH_DATABASE_URL=postgres://… node --import tsx bench/credits.ts      (or TEST_DATABASE_URL)
//
// A throwaway database is created on that server and dropped at the end. Each scenario runs for
// BENCH_SECONDS (default 5) with BENCH_CONCURRENCY (default 16) callers on a pool of that size:
//   - baseline: one autocommitted INSERT of one row into a table without constraints;
//   - spend, own user: each caller spends 1 credit of its own user (no contention);
//   - spend, one user: every caller spends from the same balance (one hot row, serialised by
//     its row lock, which is what keeps the balance from going negative);
//   - spend, repeated reference: a retried spend (the unique (reason, reference) answers "duplicate").
// BENCH_WARM_UP=false skips the 1 s warm-up before each scenario (npm test's smoke run, whose
// figures are not read). Writes bench/results/credits.md.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client.ts';
import { subscriptions, user } from '../src/server/db/schema/index.ts';
import { grant, spend } from '../src/server/features/billing/ledger.ts';
import { ledgerSum } from '../src/server/features/billing/ledger-repository.ts';
import { writeResults } from './support/results.ts';
import { afterWarmUp, warmUpEnabled } from './support/warm-up.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server.');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const name = `likeness_bench_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;

interface Result {
  scenario: string;
  operations: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const database = await openDatabase({
  url: url.toString(),
  poolSize: concurrency,
  embeddedDir: '',
});
let serverVersion: string | undefined;
const results: Result[] = [];
try {
  await database.migrate();
  const db = database.db;
  serverVersion = (
    (await db.execute(sql`show server_version`)) as unknown as {
      rows: { server_version: string }[];
    }
  ).rows[0]!.server_version;
  await db.execute(
    sql`create table bench_inserts (id bigint generated always as identity primary key, user_id text not null, delta integer not null, created_at timestamptz not null default now())`,
  );
  const users = Array.from({ length: concurrency + 1 }, (_, i) => `bench-user-${i}`);
  await db.insert(user).values(users.map((id) => ({ id, name: id, email: `${id}@bench.example` })));
  await db.insert(subscriptions).values(users.map((userId) => ({ userId })));
  for (const userId of users)
    await db.transaction((tx) =>
      grant(tx, userId, 10_000_000, 'adjustment', `bench-seed:${userId}`),
    );
  await db.transaction((tx) => spend(tx, users[0]!, 1, 'generation', 'bench-repeated'));

  async function run(scenario: string, operation: (worker: number, n: number) => Promise<unknown>) {
    const warmupEnd = Date.now() + (warmUpEnabled ? 1000 : 0);
    const end = warmupEnd + seconds * 1000;
    const latencies: number[] = [];
    let counter = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        while (Date.now() < end) {
          const n = counter++;
          const started = performance.now();
          await operation(worker, n);
          if (Date.now() >= warmupEnd) latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const result = {
      scenario,
      operations: latencies.length,
      perSecond: Math.round(latencies.length / seconds),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    results.push(result);
    console.log(`${scenario}: ${result.perSecond}/s`);
  }

  await run('baseline: single-row INSERT (autocommit)', (worker, n) =>
    db.execute(
      sql`insert into bench_inserts (user_id, delta) values (${users[worker + 1]!}, ${n})`,
    ),
  );
  await run('spend 1 credit, own user per caller', (worker, n) =>
    db.transaction((tx) => spend(tx, users[worker + 1]!, 1, 'generation', `own:${n}`)),
  );
  await run('spend 1 credit, all callers on one user', (_worker, n) =>
    db.transaction((tx) => spend(tx, users[0]!, 1, 'generation', `hot:${n}`)),
  );
  await run('spend retried (duplicate reference)', () =>
    db.transaction((tx) => spend(tx, users[0]!, 1, 'generation', 'bench-repeated')),
  );

  // The books still balance after all of that.
  for (const userId of users) {
    const [row] = await db
      .execute<{ credits: number }>(
        sql`select credits from subscriptions where user_id = ${userId}`,
      )
      .then((r) => (r as unknown as { rows: { credits: number }[] }).rows);
    if (row!.credits !== (await ledgerSum(db, userId)))
      throw new Error(`ledger and balance disagree for ${userId}`);
  }
} finally {
  await database.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

const baseline = results[0]!.perSecond;
const header = '| scenario | ops/s | vs baseline | p50 ms | p99 ms |';
const rows = results.map(
  (r) =>
    `| ${r.scenario} | ${r.perSecond} | ${((r.perSecond / baseline) * 100).toFixed(0)}% | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
);
const table = [header, '|---|---:|---:|---:|---:|', ...rows].join('\n');
console.log(`\n${table}\n`);

const report = `# Credit spends per second

Run ${new Date().toISOString()} with \`node --import tsx bench/credits.ts\`: Postgres ${serverVersion ?? '?'}
on the same machine (${os.cpus().length} CPU cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}), Node
${process.version}, ${concurrency} concurrent callers on a pool of ${concurrency} connections,
${seconds} s per scenario ${afterWarmUp('a 1 s warm-up')}. Load average when it ended: ${os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(', ')} (a shared machine: compare rows of one run, not runs).

${table}

A spend is one transaction of two statements: the ledger row goes in first (its unique
(reason, reference) turns a retry into a no-op), then one conditional \`UPDATE ... WHERE credits >=
n\` that also writes the row's \`balance_after\`. The baseline is a single autocommitted INSERT
into a table with no constraints. "All callers on one user" measures the hot-row case: every spend
of one user waits for the row lock of the previous one, which is the price of never going
negative. After the run the ledger of every user sums to its balance.
`;
writeResults('credits', report);
