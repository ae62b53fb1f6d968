// The floor of an accepted generation (issue #18): the least a correct POST /api/generations
// costs, behind a bare Fastify route. It checks the session cookie's signature (HMAC-SHA256 with
// Node's crypto), then runs ONE prepared statement that does all the work a correct accept must:
// the session (by token, unexpired), the user's model (owned, complete, with weights), the
// preset (visible: it and its category active), the subscription gate (active, a paid tier), the
// debit of one credit only if the balance allows it (conditional update under the row lock) with
// its ledger row, the generation row and the pg-boss job row (the columns pg-boss's own insert
// writes for the product's queue, with the product's fair priority). Used by bench/generation.ts,
// which compares the product with it in the same run and checks balances against ledgers after.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { listenFloor, signedSessionToken } from './floor-server.ts';

const queueName = 'generation.generate';

/**
 * The floor's statement, its job rows going into `table` (the queue's own table). Parameters:
 * the session token, the model, the preset, the new generation's id, the engine and whether the
 * picture is a preview.
 */
export function floorStatement(table: string): string {
  return `
    with se as (
      select user_id from session where token = $1 and expires_at > now()
    ),
    model as (
      select m.id, m.name from user_models m join se on m.user_id = se.user_id
      where m.id = $2 and m.status = 'complete' and m.weights is not null
    ),
    preset as (
      select p.id, p.display_name from presets p join categories c on c.manual_id = p.category_id
      where p.id = $3 and p.active and c.active
    ),
    debit as (
      update subscriptions s set credits = s.credits - 1, updated_at = now()
      from se
      where s.user_id = se.user_id and s.active and s.tier in ('basic', 'pro', 'premium', 'enterprise')
        and s.credits >= 1 and exists (select 1 from model) and exists (select 1 from preset)
      returning s.user_id, s.credits
    ),
    ledger as (
      insert into credit_ledger (user_id, delta, free_trainings_delta, balance_after, reason, reference)
      select user_id, -1, 0, credits, 'generation', 'generation:' || $4::text from debit
    ),
    gen as (
      insert into generations (id, user_id, user_model_id, user_model_name, preset_id, model_name,
        engine, is_preview)
      select $4::text, d.user_id, m.id, m.name, p.id, p.display_name, $5::text, $6::boolean
      from debit d cross join model m cross join preset p
      returning id, user_id, user_model_id, user_model_name, preset_id, model_name, status,
        is_preview, created_at
    ),
    job as (
      insert into pgboss.${table} (id, name, data, priority, start_after, created_on, group_id,
        expire_seconds, deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff,
        retry_delay_max, policy, dead_letter, heartbeat_seconds, blocked, blocking,
        pending_dependencies)
      select gen_random_uuid(), q.name, jsonb_build_object('generationId', g.id),
        coalesce(
          (select min(priority) - 1 from pgboss.job
            where name = q.name and state < 'active' and not blocked and group_id = g.user_id),
          (select max(priority) from pgboss.job
            where name = q.name and state < 'active' and not blocked),
          0),
        now(), now(), g.user_id, q.expire_seconds, q.deletion_seconds,
        now() + q.retention_seconds * interval '1s', q.retry_limit, q.retry_delay,
        q.retry_backoff, q.retry_delay_max, q.policy, q.dead_letter, q.heartbeat_seconds,
        false, false, 0
      from gen g join pgboss.queue q on q.name = '${queueName}'
    )
    select * from gen`;
}

export async function startGenerationFloor(options: {
  databaseUrl: string;
  secret: string;
  engine: string;
  isPreview: boolean;
}): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  // The table pg-boss keeps the queue's jobs in (job_common, or the queue's own partition).
  const { rows: queues } = await pool.query<{ table_name: string }>(
    'select table_name from pgboss.queue where name = $1',
    [queueName],
  );
  const table = queues[0]?.table_name;
  if (!table || !/^[a-z_][a-z0-9_]*$/.test(table))
    throw new Error(`no pg-boss queue ${queueName} (table ${table})`);
  const text = floorStatement(table);
  const floor = Fastify({ logger: false });
  floor.post('/api/generations', async (request, reply) => {
    const token = signedSessionToken(request.headers.cookie, options.secret);
    if (!token) return reply.status(401).send({ error: { code: 'UNAUTHORIZED' } });
    const body = request.body as { userModelId?: string; presetId?: string };
    if (!body?.userModelId || !body.presetId)
      return reply.status(400).send({ error: { code: 'BAD_REQUEST' } });
    const { rows } = await pool.query({
      name: 'floor-generation',
      text,
      values: [
        token,
        body.userModelId,
        body.presetId,
        randomUUID(),
        options.engine,
        options.isPreview,
      ],
    });
    const row = rows[0];
    // The floor tells no refusal from another: the benchmark's requests are all paid.
    if (!row) return reply.status(402).send({ error: { code: 'REFUSED' } });
    return reply.status(201).send({
      generation: {
        id: row.id,
        status: row.status,
        modelName: row.model_name,
        presetId: row.preset_id,
        userModelId: row.user_model_id,
        userModelName: row.user_model_name,
        isPreview: row.is_preview,
        createdAt: row.created_at.toISOString(),
      },
    });
  });
  return listenFloor(floor, pool);
}
