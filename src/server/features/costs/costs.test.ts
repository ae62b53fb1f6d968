import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostsResponse } from '../../../common/api/costs.ts';
import { metrics } from '../../observability/metrics.ts';
import { setRole } from '../admin/roles.ts';
import { defaultPrices } from './prices.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../../tests/helpers/users.ts';

/**
 * The operator's provider costs: each paid call recorded once from the price table, counted on
 * /metrics, and summed per picture, preview, training and try-on on the admin API.
 */

let app: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  app = await createTestApp({ env: { PROVIDER_PRICES_USD: '{"fal.picture": 0.04}' } });
  admin = await signUp(app);
  await setRole(app.deps.database.db, admin.email, 'admin');
});
afterAll(() => app?.stop());

async function costsAs(user: SignedInUser, days = 30) {
  const response = await app.app!.inject({
    url: `/api/admin/costs?days=${days}`,
    headers: user.headers,
  });
  return { status: response.statusCode, body: response.json<CostsResponse>() };
}

const counted = async (engine: string, kind: string) =>
  (await metrics.providerCostUsd.get()).values.find(
    (value) => value.labels.engine === engine && value.labels.kind === kind,
  )?.value ?? 0;

describe('provider costs', () => {
  it('records each paid call once and shows the cost per picture, preview, training and try-on', async () => {
    const { costs } = app.deps;
    const before = await counted('replicate', 'picture');
    const calls = [
      { kind: 'picture', engine: 'replicate', reference: 'g-1', callId: 'p-1' },
      // The same call again (a job retried after recording it): recorded once.
      { kind: 'picture', engine: 'replicate', reference: 'g-1', callId: 'p-1' },
      { kind: 'reroll', engine: 'replicate', reference: 'g-1', callId: 'p-2' },
      { kind: 'upscale', engine: 'replicate', reference: 'g-1', callId: 'g-1-hd' },
      { kind: 'picture', engine: 'fal', reference: 'g-2', callId: 'f-1' },
      { kind: 'preview', engine: 'fal', reference: 'm-1', callId: 'f-2' },
      { kind: 'training', engine: 'replicate', reference: 'm-1', callId: 't-1' },
      { kind: 'tryon', engine: 'fashn', reference: 'to-1', callId: 'fa-1' },
      // The offline engines cost nothing and leave no row.
      { kind: 'picture', engine: 'local', reference: 'g-3', callId: 'l-1' },
    ] as const;
    for (const call of calls) await costs.record(call);

    const { status, body } = await costsAs(admin);
    expect(status).toBe(200);
    const line = (kind: string, engine: string) =>
      body.lines.find((l) => l.kind === kind && l.engine === engine);
    expect(line('picture', 'replicate')).toMatchObject({ calls: 1 });
    expect(line('picture', 'local')).toBeUndefined();
    // The operator's price table overrides a default.
    expect(line('picture', 'fal')!.totalUsd).toBeCloseTo(0.04);
    // Two pictures, one re-roll and one upscale.
    const pictures =
      defaultPrices['replicate.picture']! +
      defaultPrices['replicate.reroll']! +
      defaultPrices['replicate.upscale']! +
      0.04;
    expect(body.perPicture).toBeCloseTo(pictures / 2);
    expect(body.perPreview).toBeCloseTo(defaultPrices['fal.preview']!);
    expect(body.perTraining).toBeCloseTo(defaultPrices['replicate.training']!);
    expect(body.perTryOn).toBeCloseTo(defaultPrices['fashn.tryon']!);
    expect(await counted('replicate', 'picture')).toBeCloseTo(
      before + defaultPrices['replicate.picture']!,
    );
  });

  it('is not found for anyone but an admin', async () => {
    const user = await signUp(app);
    expect((await costsAs(user)).status).toBe(404);
    const anonymous = await app.app!.inject({ url: '/api/admin/costs' });
    expect(anonymous.statusCode).toBe(404);
  });

  it('refuses a period it cannot show', async () => {
    expect((await costsAs(admin, 0)).status).toBe(400);
    expect((await costsAs(admin, 366)).status).toBe(400);
  });
});
