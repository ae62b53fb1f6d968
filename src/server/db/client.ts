import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { type RunPrepared, statementValues } from './statement.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either, so services decide the unit of work. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Postgres rejects a NOTIFY payload above 8000 bytes; callers keep events small. */
export interface Notifications {
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * The payloads, in order, in one statement (one round trip, one transaction: Postgres delivers
   * identical payloads of one transaction once).
   */
  notify(channel: string, payloads: readonly string[]): Promise<void>;
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** Present on the embedded database: pg-boss shares the same in-process instance. */
  pglite?: PGlite;
  connectionString?: string;
  notifications?: Notifications;
  /**
   * Runs a named statement on its own (autocommit, one round trip), prepared once per
   * connection on Postgres (decision 051). Not inside a transaction.
   */
  runPrepared: RunPrepared;
  migrate(): Promise<void>;
  migrationsPending(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string | undefined;
  poolSize: number;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  embeddedDir: string;
  /**
   * A dump (`dumpDataDir`) to start an empty embedded database from instead of running initdb,
   * which costs about 2 s of CPU: tests make one migrated database and start the rest from it.
   */
  embeddedTemplate?: Blob;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url
    ? openPostgres(options.url, options.poolSize)
    : openPglite(options.embeddedDir, options.embeddedTemplate);
}

async function openPglite(dir: string, template: Blob | undefined): Promise<DatabaseHandle> {
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir, template ? { loadDataDir: template } : {});
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    // In-process: nothing to save by naming it.
    runPrepared: async <R>(
      statement: Parameters<RunPrepared>[0],
      values: Record<string, unknown>,
    ) => (await client.query<R>(statement.text, statementValues(statement, values))).rows,
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    migrationsPending: () => countPending(db),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** A pool that survives its connections dropping (a server restart, a failover). */
function resilientPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one: pg-pool takes its own 'error' listener off a client while it is lent
  // out (a transaction), so a connection dropping then emitted 'error' with nobody listening and
  // ended the process (tests/api/postgres-restart.test.ts, once in a CI run). The statement in
  // flight still fails, and the pool discards the dead client when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = resilientPool(url, poolSize);
  // NOTIFYs go one batch at a time (the event bus) on a connection of their own: on the shared
  // pool a batch queued behind every request waiting for a connection, and each of those
  // requests then waited for its events behind the queue again.
  const notifier = resilientPool(url, 1);
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    connectionString: url,
    notifications: postgresNotifications(url, notifier),
    // One promise per run: pg-pool's own promise form makes three, and every accept runs this.
    runPrepared: <R>(statement: Parameters<RunPrepared>[0], values: Record<string, unknown>) =>
      new Promise<R[]>((resolve, reject) => {
        pool.query(
          {
            name: statement.name,
            text: statement.text,
            values: statementValues(statement, values),
          },
          (error: Error | undefined, result: pg.QueryResult) =>
            error ? reject(error) : resolve(result.rows as R[]),
        );
      }),
    migrate: () => migratePostgres(pool),
    migrationsPending: () => countPending(db),
    ping: async () => {
      await pool.query('select 1');
    },
    close: async () => {
      await Promise.all([pool.end(), notifier.end()]);
    },
  };
}

/** Several processes may start at once; an advisory lock lets exactly one apply migrations. */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(7301)');
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(7301)').catch(() => {});
    client.release();
  }
}

const journalEntries: number = (
  JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

async function countPending(db: Database): Promise<number> {
  try {
    const result = await db.execute<{ applied: number }>(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    const rows = (result as unknown as { rows: { applied: number }[] }).rows;
    return journalEntries - (rows[0]?.applied ?? 0);
  } catch {
    return journalEntries;
  }
}

/**
 * LISTEN needs one session-pinned connection; it reconnects with backoff when the server goes
 * away and tells the caller, so subscribers can catch up on what they may have missed.
 */
function postgresNotifications(url: string, notifier: pg.Pool): Notifications {
  return {
    async notify(channel, payloads) {
      if (payloads.length === 0) return;
      const calls = payloads.map((_, index) => `pg_notify($1, $${index + 2})`).join(', ');
      await notifier.query(`select ${calls}`, [channel, ...payloads]);
    },
    async listen(channel, onPayload, onReconnect) {
      let client: pg.Client | undefined;
      let closed = false;
      let retryTimer: NodeJS.Timeout | undefined;
      let attempt = 0;
      const connect = async (isReconnect: boolean): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined)
            onPayload(message.payload);
        });
        next.on('error', () => scheduleReconnect());
        next.on('end', () => scheduleReconnect());
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = next;
        attempt = 0;
        if (isReconnect) onReconnect();
      };
      const scheduleReconnect = () => {
        if (closed || retryTimer) return;
        client?.removeAllListeners('end');
        client = undefined;
        const delay = Math.min(250 * 2 ** attempt++, 5_000);
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          connect(true).catch(() => scheduleReconnect());
        }, delay);
      };
      await connect(false);
      return async () => {
        closed = true;
        if (retryTimer) clearTimeout(retryTimer);
        await client?.end().catch(() => {});
      };
    },
  };
}
