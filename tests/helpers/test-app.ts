import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { openAnalysis } from '../../src/server/images/analysis.ts';
import { type Running, start } from '../../src/server/runtime.ts';

/**
 * A whole app per test file on a database of its own: PGlite in memory by default, or a fresh
 * database on the Postgres server named by TEST_DATABASE_URL (CI runs the database tests there,
 * and the embedded database's own on PGlite too: decision 059).
 */
export interface TestApp extends Running {
  config: Config;
  /** Origin header a browser on our own site would send (state-changing requests need it). */
  origin: string;
}

export const usesPostgres = Boolean(process.env.TEST_DATABASE_URL);

export interface TestAppOptions {
  env?: Record<string, string>;
  listen?: boolean;
  /** Reuse a data directory / database (restart tests). */
  dataDir?: string;
  databaseUrl?: string;
  /** Keep the embedded database on disk under dataDir instead of in memory. */
  persistent?: boolean;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'likeness-test-'));
  const databaseUrl =
    options.databaseUrl ?? (usesPostgres ? await createTestDatabase() : undefined);
  // A listening app knows its own address beforehand, so the links it signs (files, webhooks)
  // reach it: providers' fakes download and call back over real HTTP.
  const port = options.listen && !options.env?.PORT ? await freePort() : 0;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: port ? `http://127.0.0.1:${port}` : 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DISABLED: 'true',
    // Generating the default catalog takes seconds; catalog tests turn it on where they need it.
    SEED_CONTENT: 'false',
    JOB_POLL_SECONDS: '0.5',
    // These tests follow credits, jobs and events, not pictures: the offline studio skips its
    // super-resolution (the engine's own tests and benchmark make HD pictures).
    LOCAL_ENGINE_DRAFT: 'true',
    // Retries come after a fiftieth of the declared pause (pg-boss's second at least): the retry
    // paths are tested, not the waits.
    JOB_RETRY_DELAY_FACTOR: '0.02',
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  if (!databaseUrl && !options.persistent) {
    config.database.embeddedDir = 'memory://';
    config.database.embeddedTemplate = await migratedEmbeddedDatabase();
  }
  holdAnalysis(config.analysisThreads);
  const running = await start(config, pino({ level: 'silent' }), {
    listen: options.listen ?? false,
  });
  const ownsDataDir = !options.dataDir;
  const ownsDatabase = databaseUrl && !options.databaseUrl;
  return {
    ...running,
    config,
    origin: config.publicUrl,
    async stop() {
      await running.stop();
      if (ownsDatabase) await dropTestDatabase(databaseUrl);
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One use of the image analysis held for the whole test process, so its threads and their loaded
 * models outlive each app. Without it every app's stop stops them, and the next app (the next
 * file: a test process runs many, vitest.config.ts) starts a thread and loads its models again,
 * about 2.5 s of CPU each time. A test of the analysis's own lifecycle lets it go first
 * (`releaseHeldAnalysis`). The threads are unref'd: they never keep the process alive.
 */
let heldAnalysis: { close(): Promise<void> } | undefined;

function holdAnalysis(threads: number): void {
  heldAnalysis ??= openAnalysis({ threads });
}

export async function releaseHeldAnalysis(): Promise<void> {
  const held = heldAnalysis;
  heldAnalysis = undefined;
  await held?.close();
}

let migratedDump: Promise<Blob> | undefined;

/**
 * A migrated embedded database, dumped once per test process: each test app starts from it in
 * half a second instead of paying initdb (about 2 s of CPU) and every migration again.
 */
function migratedEmbeddedDatabase(): Promise<Blob> {
  migratedDump ??= (async () => {
    const handle = await openDatabase({ url: undefined, poolSize: 1, embeddedDir: 'memory://' });
    try {
      await handle.migrate();
      if (!handle.pglite) throw new Error('The embedded database has no PGlite instance');
      return await handle.pglite.dumpDataDir('none');
    } finally {
      await handle.close();
    }
  })();
  return migratedDump;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function createTestDatabase(): Promise<string> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `likeness_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return;
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
