import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generationMessages } from '../../src/common/messages/generation.ts';
import {
  type BrowserUser,
  type Proc,
  signUpOn,
  startProcess,
  waitUntilReady,
} from '../helpers/processes.ts';
import { createTestDatabase, dropTestDatabase, usesPostgres } from '../helpers/test-app.ts';

/**
 * Two web processes batching the same users' single accepts at once (decision 067): each
 * process sends its waiting requests of different users in one statement, so two statements of
 * two processes hold the same users' balances. However they interleave, every credit is spent
 * once, no request is paid beyond the balance, and every paid picture has its job. No worker
 * runs: the jobs stay queued and no refund moves a balance while the test counts.
 */

const users = 8;
const creditsEach = 5;
const requestsEach = 8;

describe.skipIf(!usesPostgres)('single accepts batched by two web processes at once', () => {
  let databaseUrl: string;
  let sql: pg.Pool;
  const processes: Proc[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // A pool of 2: one accept statement at a time per process, so requests wait and go together.
    for (const name of ['web1', 'web2'])
      processes.push(
        await startProcess(name, 'web', databaseUrl, { env: { DATABASE_POOL_SIZE: '2' } }),
      );
    await Promise.all(processes.map(waitUntilReady));
    await sql.query(`insert into categories (manual_id, display_name) values ('batch', 'Batch');
      insert into presets (id, manual_id, category_id, display_name, prompt)
      values ('batch-1', 'batch-1', 'batch', 'Batch', 'photo of {trigger}')`);
  }, 240_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail')
      for (const proc of processes) console.error(proc.output.join('') || `[${proc.name}]`);
  });

  afterAll(async () => {
    for (const proc of processes)
      if (proc.child.exitCode === null && proc.child.signalCode === null)
        proc.child.kill('SIGKILL');
    await Promise.all(processes.map((proc) => proc.exited));
    for (const proc of processes) rmSync(proc.dataDir, { recursive: true, force: true });
    await sql?.end();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  }, 60_000);

  /** A Pro user with exactly `creditsEach` (granted through a ledger row) and a trained model. */
  async function payer(): Promise<BrowserUser & { modelId: string }> {
    const user = await signUpOn(processes[0]!);
    const modelId = randomUUID();
    await sql.query(
      `with paid as (
         update subscriptions set active = true, tier = 'pro', credits = $2
         where user_id = $1 returning credits)
       insert into credit_ledger (user_id, delta, balance_after, reason, reference)
       select $1, $2, credits, 'adjustment', 'test:' || $1 from paid`,
      [user.id, creditsEach],
    );
    await sql.query(
      `insert into user_models (id, user_id, name, gender, status, paid_with, photo_count,
         engine, trigger_word, weights)
       values ($1, $2, 'Me', 'woman', 'complete', 'credits', 8, 'local', 'ohwx', 'users/x/p.json')`,
      [modelId, user.id],
    );
    return { ...user, modelId };
  }

  it('spends each credit once, however the two processes interleave the same users', async () => {
    const payers = await Promise.all(Array.from({ length: users }, payer));
    const answers = await Promise.all(
      payers.flatMap((user) =>
        Array.from({ length: requestsEach }, async (_, i) => {
          const web = processes[i % 2]!;
          const response = await fetch(`${web.url}/api/generations`, {
            method: 'POST',
            headers: { origin: web.url, cookie: user.cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ userModelId: user.modelId, presetId: 'batch-1' }),
          });
          const body = (await response.json()) as {
            generation?: { id: string };
            error?: { message: string };
          };
          return { user, status: response.status, body };
        }),
      ),
    );

    for (const user of payers) {
      const own = answers.filter((answer) => answer.user === user);
      expect(own.filter((a) => a.status === 201)).toHaveLength(creditsEach);
      for (const refused of own.filter((a) => a.status !== 201)) {
        expect(refused.status).toBe(402);
        expect(refused.body.error?.message).toBe(generationMessages.needMoreCredits);
      }
      const { rows } = await sql.query<{ credits: number; ledger: number; spends: number[] }>(
        `select s.credits, (select sum(delta)::int from credit_ledger where user_id = $1) as ledger,
           (select array_agg(balance_after order by balance_after) from credit_ledger
             where user_id = $1 and reason = 'generation') as spends
         from subscriptions s where s.user_id = $1`,
        [user.id],
      );
      expect(rows[0]).toEqual({ credits: 0, ledger: 0, spends: [0, 1, 2, 3, 4] });
    }

    const paidIds = answers.flatMap((a) => (a.status === 201 ? [a.body.generation!.id] : []));
    const { rows: jobs } = await sql.query<{ id: string }>(
      `select data->>'generationId' as id from pgboss.job
       where name = 'generation.generate' and data->>'generationId' = any($1)`,
      [paidIds],
    );
    expect(jobs.map((job) => job.id).sort()).toEqual([...paidIds].sort());
    // Requests did go together: one statement's rows share its transaction's time.
    const { rows: shared } = await sql.query<{ users: number }>(
      `select count(distinct user_id)::int as users from generations
       where id = any($1) group by created_at having count(*) > 1`,
      [paidIds],
    );
    expect(shared.length).toBeGreaterThan(0);
    for (const statement of shared) expect(statement.users).toBeGreaterThan(1);
  }, 120_000);
});
