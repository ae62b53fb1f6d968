import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The database a benchmark measures: a scratch database on a Postgres server (BENCH_DATABASE_URL,
 * else the local one when `pg_isready` answers), or PGlite (`BENCH_DATABASE_URL=pglite`, or no
 * server). Shared by the benchmarks that need one; not a benchmark itself.
 */

function localServer(): string | undefined {
  const ready = spawnSync('pg_isready', ['-h', '127.0.0.1', '-q'], { stdio: 'ignore' });
  return ready.status === 0 ? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' : undefined;
}

/** The Postgres server's admin URL, or undefined for PGlite. */
export const serverUrl =
  process.env.BENCH_DATABASE_URL === 'pglite'
    ? undefined
    : process.env.BENCH_DATABASE_URL || localServer();

const scratchName = `likeness_bench_${randomBytes(5).toString('hex')}`;

/** Runs one statement as the server's admin; answers the first column of the first row. */
export async function adminQuery(query: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const result = await admin.query<Record<string, string>>(query);
    return Object.values(result.rows[0] ?? {})[0] ?? '';
  } finally {
    await admin.end();
  }
}

/** Creates the scratch database and answers its URL (undefined on PGlite). */
export async function createScratchDatabase(): Promise<string | undefined> {
  if (!serverUrl) return undefined;
  await adminQuery(`create database ${scratchName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${scratchName}`;
  return url.toString();
}

export async function dropScratchDatabase(): Promise<void> {
  if (serverUrl) await adminQuery(`drop database if exists ${scratchName} with (force)`);
}
