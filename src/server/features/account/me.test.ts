import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp } from '../../../../tests/helpers/users.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

it('answers /api/me with no plan, rather than failing, when the subscription cannot be read', async () => {
  const user = await signUp(app);
  const me = () => app.app!.inject({ url: '/api/me', headers: user.headers });
  const { db } = app.deps.database;
  await db.execute(sql`alter table subscriptions rename to subscriptions_away`);
  try {
    const response = await me();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      user: { email: user.email },
      subscription: { active: false, tier: 'none', credits: 0, monthlyFreeTrainingsLeft: 0 },
    });
  } finally {
    await db.execute(sql`alter table subscriptions_away rename to subscriptions`);
  }
  expect((await me()).statusCode).toBe(200);
});
