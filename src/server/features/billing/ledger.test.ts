import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationMessages } from '../../../common/messages/generation.ts';
import { createModelMessages } from '../../../common/messages/studio.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';
import { creditLedger, subscriptions } from '../../db/schema/index.ts';
import { prepareStatement } from '../../db/statement.ts';
import { AppError } from '../../http/app-error.ts';
import {
  requireActiveSubscription,
  requireBulk,
  requireCredits,
  requireCustomPrompts,
  requireModelSlot,
  requireTrainingAllowance,
  requireTryOn,
} from './gates.ts';
import { type StatementChargeColumns, onePayer } from './credits.ts';
import { adjust, grant, refund, spend, spendTraining } from './ledger.ts';
import { ledgerSum } from './ledger-repository.ts';
import { ensureSubscription } from './repository.ts';

let app: TestApp;
beforeAll(async () => {
  // Enough connections for the parallel spends to really contend on Postgres.
  app = await createTestApp({ env: { DATABASE_POOL_SIZE: '40' } });
});
afterAll(async () => {
  await app?.stop();
});

const db = () => app.deps.database.db;
const ledger = () => app.deps.billing.ledger;

async function userWithCredits(credits: number) {
  const user = await signUp(app);
  await ensureSubscription(db(), user.id);
  if (credits > 0)
    await ledger().transaction((tx) =>
      grant(tx, user.id, credits, 'adjustment', `seed:${user.id}`),
    );
  return user;
}

async function balance(userId: string) {
  const [row] = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return { credits: row!.credits, free: row!.monthlyFreeTrainingsLeft };
}

async function entries(userId: string) {
  return db().select().from(creditLedger).where(eq(creditLedger.userId, userId));
}

async function expectAppError(work: Promise<unknown>, code: string, message?: string) {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (message !== undefined) expect((error as AppError).message).toBe(message);
}

describe('credit ledger', () => {
  it(`never overspends: 200 parallel 1-credit spends against 50 → exactly 50 succeed (${usesPostgres ? 'Postgres' : 'PGlite'})`, async () => {
    const user = await userWithCredits(50);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        db().transaction((tx) => spend(tx, user.id, 1, 'generation', `race:${user.id}:${i}`)),
      ),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(succeeded).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect((r.reason as AppError).code).toBe('INSUFFICIENT_CREDITS');
    expect((await balance(user.id)).credits).toBe(0);
    expect(await ledgerSum(db(), user.id)).toBe(0);
    // Every successful spend left exactly one row, and the balances it recorded are 49..0.
    const spends = (await entries(user.id)).filter((e) => e.reason === 'generation');
    expect(spends).toHaveLength(50);
    expect(spends.map((e) => e.balanceAfter).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it(`never overspends in one statement either: 200 parallel accepts against 50 → exactly 50 paid (${usesPostgres ? 'Postgres' : 'PGlite'})`, async () => {
    const user = await userWithCredits(50);
    await db()
      .update(subscriptions)
      .set({ active: true, tier: 'pro' })
      .where(eq(subscriptions.userId, user.id));
    const charge = app.deps.billing.credits.inStatement(
      { gate: 'generation', reason: 'generation', amount: 1 },
      { payers: onePayer(sql`${sql.placeholder('userId')}::text`), items: 'items' },
    );
    const statement = prepareStatement(
      'test-one-statement-charge',
      sql`with items as (select ${sql.placeholder('userId')}::text as user_id,
          ${sql.placeholder('reference')}::text as reference, 0 as position),
        ${charge.ctes}
        select ${charge.columns(sql`${sql.placeholder('userId')}::text`)}`,
    );
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, async (_, i) => {
        const [row] = await app.deps.database.runPrepared<StatementChargeColumns>(statement, {
          userId: user.id,
          reference: `one-statement:${user.id}:${i}`,
        });
        return charge.settle(user.id, row!);
      }),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    for (const r of refused) expect((r.reason as AppError).code).toBe('INSUFFICIENT_CREDITS');
    expect((await balance(user.id)).credits).toBe(0);
    expect(await ledgerSum(db(), user.id)).toBe(0);
    const spends = (await entries(user.id)).filter((e) => e.reason === 'generation');
    expect(spends.map((e) => e.balanceAfter).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('spends the same reference once, even when retried concurrently', async () => {
    const user = await userWithCredits(10);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        db().transaction((tx) => spend(tx, user.id, 3, 'generation', `gen:${user.id}`)),
      ),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect((await balance(user.id)).credits).toBe(7);
    expect(await ledgerSum(db(), user.id)).toBe(7);
  });

  it('refuses a spend the balance cannot cover, changes nothing and keeps the transaction usable', async () => {
    const user = await userWithCredits(2);
    await db().transaction(async (tx) => {
      await expectAppError(
        spend(tx, user.id, 3, 'generation', `big:${user.id}`),
        'INSUFFICIENT_CREDITS',
        generationMessages.needMoreCredits,
      );
      // The same transaction can still spend what there is.
      await spend(tx, user.id, 2, 'generation', `small:${user.id}`);
    });
    expect((await balance(user.id)).credits).toBe(0);
    expect((await entries(user.id)).map((e) => e.reference)).not.toContain(`big:${user.id}`);
  });

  it('rolls the spend back with the work it paid for', async () => {
    const user = await userWithCredits(5);
    await expect(
      db().transaction(async (tx) => {
        await spend(tx, user.id, 1, 'generation', `rollback:${user.id}`);
        throw new Error('the generation could not be queued');
      }),
    ).rejects.toThrow('queued');
    expect((await balance(user.id)).credits).toBe(5);
    expect(await ledgerSum(db(), user.id)).toBe(5);
  });

  it('grants at most once per (reason, reference); a duplicate returns the earlier entry', async () => {
    const user = await userWithCredits(0);
    const first = await ledger().transaction((tx) =>
      grant(tx, user.id, 500, 'plan_credits', `in_${user.id}`),
    );
    const second = await ledger().transaction((tx) =>
      grant(tx, user.id, 500, 'plan_credits', `in_${user.id}`),
    );
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(second.entry.id).toBe(first.entry.id);
    expect(second.entry.balanceAfter).toBe(500);
    expect((await balance(user.id)).credits).toBe(500);
  });

  it('refunds what a reference spent, once', async () => {
    const user = await userWithCredits(10);
    await db().transaction((tx) => spend(tx, user.id, 4, 'bulk_generation', `bulk:${user.id}`));
    const refunded = await db().transaction((tx) => refund(tx, user.id, `bulk:${user.id}`));
    const again = await db().transaction((tx) => refund(tx, user.id, `bulk:${user.id}`));
    expect(refunded?.duplicate).toBe(false);
    expect(refunded?.entry.delta).toBe(4);
    expect(again?.duplicate).toBe(true);
    expect((await balance(user.id)).credits).toBe(10);
    expect(await db().transaction((tx) => refund(tx, user.id, 'nothing-spent'))).toBeUndefined();
    expect(await ledgerSum(db(), user.id)).toBe(10);
  });

  it("does not refund another user's spend", async () => {
    const owner = await userWithCredits(3);
    const other = await userWithCredits(0);
    await db().transaction((tx) => spend(tx, owner.id, 3, 'tryon', `tryon:${owner.id}`));
    expect(
      await db().transaction((tx) => refund(tx, other.id, `tryon:${owner.id}`)),
    ).toBeUndefined();
    expect((await balance(other.id)).credits).toBe(0);
  });

  it('pays a training with the free training first, then 50 credits, and refunds whichever it used', async () => {
    const user = await userWithCredits(60);
    const first = await db().transaction((tx) => spendTraining(tx, user.id, `model:a:${user.id}`));
    expect(first.usedFreeTraining).toBe(true);
    expect(await balance(user.id)).toEqual({ credits: 60, free: 0 });

    const second = await db().transaction((tx) => spendTraining(tx, user.id, `model:b:${user.id}`));
    expect(second.usedFreeTraining).toBe(false);
    expect(await balance(user.id)).toEqual({ credits: 10, free: 0 });

    await expectAppError(
      db().transaction((tx) => spendTraining(tx, user.id, `model:c:${user.id}`)),
      'INSUFFICIENT_CREDITS',
      createModelMessages.insufficientCreditsForTraining(10),
    );

    await db().transaction((tx) => refund(tx, user.id, `model:a:${user.id}`));
    expect(await balance(user.id)).toEqual({ credits: 10, free: 1 });
    await db().transaction((tx) => refund(tx, user.id, `model:b:${user.id}`));
    expect(await balance(user.id)).toEqual({ credits: 60, free: 1 });
    expect(await ledgerSum(db(), user.id)).toBe(60);
  });

  it('lets an operator adjust up or down, never below zero', async () => {
    const user = await userWithCredits(5);
    await db().transaction((tx) => adjust(tx, user.id, 20, 'goodwill', `adj:1:${user.id}`));
    await db().transaction((tx) => adjust(tx, user.id, -25, 'correction', `adj:2:${user.id}`));
    await expectAppError(
      db().transaction((tx) => adjust(tx, user.id, -1, 'too much', `adj:3:${user.id}`)),
      'INSUFFICIENT_CREDITS',
    );
    expect((await balance(user.id)).credits).toBe(0);
    const notes = (await entries(user.id)).map((e) => e.note);
    expect(notes).toContain('goodwill');
  });

  it('publishes subscription.updated after the commit, with the new balance', async () => {
    const user = await userWithCredits(0);
    const received: unknown[] = [];
    const stop = app.deps.events.subscribe(user.id, (event) => received.push(event));
    try {
      await ledger().transaction((tx) => grant(tx, user.id, 7, 'adjustment', `evt:${user.id}`));
      await expect.poll(() => received.length).toBe(1);
      expect(received[0]).toMatchObject({
        type: 'subscription.updated',
        data: { credits: 7, active: false, tier: 'none' },
      });
    } finally {
      stop();
    }
  });
});

describe('gates', () => {
  const state = (tier: string, credits = 0, active = true, free = 0) => ({
    active,
    tier,
    credits,
    monthlyFreeTrainingsLeft: free,
  });
  const codeOf = (work: () => void) => {
    try {
      work();
      return 'ok';
    } catch (error) {
      return (error as AppError).code;
    }
  };

  it('require an active subscription first', () => {
    expect(codeOf(() => requireActiveSubscription(state('none', 0, false)))).toBe(
      'SUBSCRIPTION_REQUIRED',
    );
    expect(codeOf(() => requireCustomPrompts(state('pro', 0, false)))).toBe(
      'SUBSCRIPTION_REQUIRED',
    );
  });

  it('keep custom prompts, bulk and try-on to Pro, Premium and Enterprise', () => {
    for (const gate of [requireCustomPrompts, requireBulk, requireTryOn]) {
      expect(codeOf(() => gate(state('basic')))).toBe('TIER_REQUIRED');
      for (const tier of ['pro', 'premium', 'enterprise'])
        expect(codeOf(() => gate(state(tier)))).toBe('ok');
    }
    try {
      requireCustomPrompts(state('basic'));
    } catch (error) {
      expect((error as AppError).message).toBe(generationMessages.customPromptsProOnly);
    }
  });

  it('limit models: Basic 1, Pro 5, Premium and Enterprise 20', () => {
    expect(codeOf(() => requireModelSlot(state('basic'), 0))).toBe('ok');
    expect(codeOf(() => requireModelSlot(state('basic'), 1))).toBe('LIMIT_REACHED');
    expect(codeOf(() => requireModelSlot(state('pro'), 4))).toBe('ok');
    expect(codeOf(() => requireModelSlot(state('pro'), 5))).toBe('LIMIT_REACHED');
    expect(codeOf(() => requireModelSlot(state('premium'), 19))).toBe('ok');
    expect(codeOf(() => requireModelSlot(state('enterprise'), 20))).toBe('LIMIT_REACHED');
  });

  it('check credits and the training allowance with the specification messages', () => {
    expect(codeOf(() => requireCredits(state('basic', 0), 1))).toBe('INSUFFICIENT_CREDITS');
    expect(codeOf(() => requireCredits(state('basic', 1), 1))).toBe('ok');
    expect(codeOf(() => requireTrainingAllowance(state('basic', 0, true, 1)))).toBe('ok');
    expect(codeOf(() => requireTrainingAllowance(state('basic', 50, true, 0)))).toBe('ok');
    try {
      requireTrainingAllowance(state('basic', 49, true, 0));
    } catch (error) {
      expect((error as AppError).message).toBe(
        createModelMessages.insufficientCreditsForTraining(49),
      );
    }
    try {
      requireTrainingAllowance(state('none', 100, false, 1));
    } catch (error) {
      expect((error as AppError).message).toBe(createModelMessages.subscriptionRequired);
    }
  });
});
