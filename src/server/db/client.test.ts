import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  dropTestDatabase,
  usesPostgres,
} from '../../../tests/helpers/test-app.ts';
import { type DatabaseHandle, openDatabase } from './client.ts';

describe.skipIf(!usesPostgres)('the Postgres connection pool', () => {
  let url: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    url = await createTestDatabase();
    handle = await openDatabase({ url, poolSize: 2, embeddedDir: '' });
  });

  afterAll(async () => {
    await handle?.close();
    if (url) await dropTestDatabase(url);
  });

  it('outlives a connection cut in the middle of a transaction: that transaction fails, the next query runs', async () => {
    // A restart or a failover cuts the connections a transaction holds. The process must not end
    // (an unhandled 'error' event would end it, and vitest reports it as an error of this file).
    let backend = 0;
    const transaction = handle.db.transaction(async (tx) => {
      const rows = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      backend = (rows as unknown as { rows: { pid: number }[] }).rows[0]!.pid;
      await tx.execute(sql`select pg_sleep(30)`);
    });
    const outcome = transaction.then(
      () => 'committed',
      () => 'failed',
    );
    while (!backend) await new Promise((resolve) => setTimeout(resolve, 20));

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [backend]);
    } finally {
      await admin.end();
    }

    expect(await outcome).toBe('failed');
    // The pool has dropped the dead connection and serves the next query on a new one.
    const after = await handle.db.execute<{ one: number }>(sql`select 1 as one`);
    expect((after as unknown as { rows: { one: number }[] }).rows).toEqual([{ one: 1 }]);
  });
});
