import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '../../../common/api/generation.ts';
import { catalogMessages } from '../../../common/messages/catalog.ts';
import { modelsMessages } from '../../../common/messages/models.ts';
import { creditLedger, generations, subscriptions, userModels } from '../../db/schema/index.ts';
import { adjust } from '../billing/ledger.ts';
import { ledgerSum } from '../billing/ledger-repository.ts';
import { insufficientCreditsMessage } from '../billing/gates.ts';
import { addCategoriesWithPresets, apiCaller } from '../../../../tests/helpers/studio.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/**
 * Single accepts of different users share one statement while the database is busy (decision
 * 067). A pool of 2 leaves one accept statement running at a time, so concurrent requests wait
 * and go together: each must still be answered, paid and queued exactly as if it ran alone.
 */

let app: TestApp;
let api: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  // On a Postgres server the jobs stay queued (ROLE=web). The embedded database runs the worker
  // too, which fails these models' pictures (they have no likeness profile) and refunds them, so
  // the ledger is read for what the accepts spent.
  app = await createTestApp({
    env: { DATABASE_POOL_SIZE: '2', ...(usesPostgres ? { ROLE: 'web' } : {}) },
  });
  api = apiCaller(app);
  await addCategoriesWithPresets(app, ['studio'], { prompt: () => 'a portrait of {trigger}' });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

/** A Pro user with exactly `credits` and a model in `status`. */
async function proUser(credits: number, status: 'complete' | 'training' = 'complete') {
  const user = await signUp(app);
  await api.buyPlan(user, 'price_pro');
  const { credits: granted } = await api.subscription(user);
  await app.deps.billing.ledger.transaction((tx) =>
    adjust(tx, user.id, credits - granted, 'test: exact balance', `test:${user.id}:exact`),
  );
  const modelId = randomUUID();
  await app.deps.database.db.insert(userModels).values({
    id: modelId,
    userId: user.id,
    name: `Model ${user.email.slice(5, 9)}`,
    gender: 'woman',
    status,
    paidWith: 'credits',
    photoCount: 8,
    engine: 'local',
    triggerWord: 'ohwx',
    weights: status === 'complete' ? 'users/x/profile.json' : null,
  });
  return { user, modelId };
}

let requests = 0;

/** A request of `user`'s with a request id of its own, which its job must carry. */
async function post(user: SignedInUser, url: string, body: object) {
  const requestId = `accept-batches-${(requests += 1)}`;
  const response = await app.app!.inject({
    method: 'POST',
    url,
    headers: { ...user.headers, 'content-type': 'application/json', 'x-request-id': requestId },
    payload: JSON.stringify(body),
  });
  return {
    requestId,
    status: response.statusCode,
    body: response.json<{ generation: Generation; error?: { code: string; message: string } }>(),
  };
}

const fromPreset = (user: SignedInUser, modelId: string, presetId = 'studio-1') =>
  post(user, '/api/generations', { userModelId: modelId, presetId });

const fromPrompt = (user: SignedInUser, modelId: string, prompt: string) =>
  post(user, '/api/generations/custom', { userModelId: modelId, prompt });

describe('single accepts of many users at once', () => {
  it('answers, pays and queues each request as if it ran alone, several in one statement', async () => {
    const payers = await Promise.all(Array.from({ length: 12 }, () => proUser(3)));
    const unready = await proUser(3, 'training');
    const lost = await proUser(3);

    // Each payer sends 4 preset requests and a custom prompt at once, with 3 credits: 3 paid,
    // 2 refused, whichever they are. The other two send requests that cannot be paid.
    const sent = payers.flatMap(({ user, modelId }) => [
      ...Array.from({ length: 4 }, () =>
        fromPreset(user, modelId).then((answer) => ({ user, answer, prompt: null })),
      ),
      fromPrompt(user, modelId, `a lighthouse at dusk, ${user.id}`).then((answer) => ({
        user,
        answer,
        prompt: `a lighthouse at dusk, ${user.id}`,
      })),
    ]);
    const [answers, notReady, notFound] = await Promise.all([
      Promise.all(sent),
      fromPreset(unready.user, unready.modelId),
      fromPreset(lost.user, lost.modelId, 'no-such-preset'),
    ]);

    expect(notReady.status).toBe(409);
    expect(notReady.body.error?.message).toBe(modelsMessages.notReady);
    expect(notFound.status).toBe(404);
    expect(notFound.body.error?.message).toBe(catalogMessages.modelNotFound);
    for (const { user } of [unready, lost]) expect((await api.subscription(user)).credits).toBe(3);

    const db = app.deps.database.db;
    for (const { user, modelId } of payers) {
      const own = answers.filter((a) => a.user === user);
      const paid = own.filter((a) => a.answer.status === 201);
      expect(paid).toHaveLength(3);
      for (const refused of own.filter((a) => a.answer.status !== 201)) {
        expect(refused.answer.status).toBe(402);
        expect(refused.answer.body.error?.message).toBe(
          insufficientCreditsMessage('generation', 0),
        );
      }
      for (const { answer, prompt } of paid)
        expect(answer.body.generation).toMatchObject({
          status: 'processing',
          userModelId: modelId,
          presetId: prompt ? null : 'studio-1',
          promptText: prompt,
        });
      const spends = await db
        .select({ delta: creditLedger.delta, balanceAfter: creditLedger.balanceAfter })
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, user.id), eq(creditLedger.reason, 'generation')));
      expect(spends.map((s) => s.delta)).toEqual([-1, -1, -1]);
      expect(spends.map((s) => s.balanceAfter).sort()).toEqual([0, 1, 2]);
      const [row] = await db
        .select({ credits: subscriptions.credits })
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id));
      expect(await ledgerSum(db, user.id)).toBe(row!.credits);
    }

    // Every paid generation has one job, served from its owner's fair share, and carrying the
    // id of the request that paid for it (a batch runs in one request's context).
    const paid = answers.filter((a) => a.answer.status === 201);
    const paidIds = paid.map((a) => a.answer.body.generation.id);
    const requestOf = new Map(paid.map((a) => [a.answer.body.generation.id, a.answer.requestId]));
    const jobs = (await db.execute(
      sql`select data->>'generationId' as id, group_id,
            data->'_context'->>'requestId' as request_id
          from pgboss.job
          where name = 'generation.generate' and data->>'generationId' in ${paidIds}`,
    )) as unknown as { rows: { id: string; group_id: string; request_id: string }[] };
    const rows = await db
      .select({
        id: generations.id,
        userId: generations.userId,
        at: sql<string>`${generations.createdAt}::text`, // to the microsecond
      })
      .from(generations)
      .where(inArray(generations.id, paidIds));
    expect(rows).toHaveLength(36);
    expect(jobs.rows).toHaveLength(36);
    const owner = new Map(rows.map((r) => [r.id, r.userId]));
    for (const job of jobs.rows) {
      expect(job.group_id).toBe(owner.get(job.id));
      expect(job.request_id).toBe(requestOf.get(job.id));
    }

    // A statement's rows share its transaction's timestamp: none held two of one user's
    // requests, and on a server some held several users'. (The embedded database runs each
    // statement on this thread, so no request ever finds one running and waits.)
    const usersAt = new Map<string, string[]>();
    for (const row of rows) usersAt.set(row.at, [...(usersAt.get(row.at) ?? []), row.userId]);
    const shared = [...usersAt.values()].filter((users) => users.length > 1);
    for (const users of shared) expect(new Set(users).size).toBe(users.length);
    if (usesPostgres) expect(shared.length).toBeGreaterThan(0);
  }, 120_000);
});
