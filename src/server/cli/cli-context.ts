import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { createStorage } from '../adapters/storage/create-storage.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { serializeError } from '../observability/log-errors.ts';

/** What an operator command works with: the same configuration, database and storage as the app. */
export interface CliContext {
  config: Config;
  database: DatabaseHandle;
  storage: Storage;
  logger: FastifyBaseLogger;
  close(): Promise<void>;
}

export class CliError extends Error {}

/**
 * Opens the app's database (applying migrations) and storage. The embedded database can be
 * opened by one process only: while the app runs, commands must wait (or use DATABASE_URL).
 */
export async function openCliContext(): Promise<CliContext> {
  const config = loadConfig();
  if (!config.database.url) {
    // PGlite keeps this file while a process has the database open and removes it on close.
    const lock = path.join(config.database.embeddedDir, 'postmaster.pid');
    if (existsSync(lock)) {
      throw new CliError(
        `The embedded database in ${config.database.embeddedDir} is in use. Stop Likeness first ` +
          '(if it is not running, it did not shut down cleanly: start and stop it once), ' +
          'or set DATABASE_URL to use a Postgres server.',
      );
    }
  }
  const logger = pino({
    level: config.logLevel === 'info' ? 'warn' : config.logLevel,
    serializers: { err: serializeError },
  });
  const database = await openDatabase(config.database);
  await database.migrate();
  const storage = createStorage(config);
  return { config, database, storage, logger, close: () => database.close() };
}

/** Runs a command: prints a refusal as one clear line and exits non-zero, anything else as a crash. */
export async function runCli(main: () => Promise<number | void>): Promise<void> {
  try {
    process.exitCode = (await main()) ?? 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = error instanceof ConfigError ? 78 : 1;
      return;
    }
    throw error;
  }
}
