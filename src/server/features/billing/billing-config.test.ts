import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMonths, monthsElapsed } from '../../adapters/billing/periods.ts';
import { loadConfig } from '../../config.ts';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'likeness-billing-config-'));

const stripeEnv = {
  BILLING: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  STRIPE_PRICE_BASIC: 'price_a',
  STRIPE_PRICE_PRO: 'price_b',
  STRIPE_PRICE_PREMIUM: 'price_c',
  STRIPE_PRICE_ENTERPRISE: 'price_d',
  STRIPE_PRICE_YEARLY_PREMIUM: 'price_e',
  STRIPE_PRICE_PACK_200: 'price_f',
  STRIPE_PRICE_PACK_500: 'price_g',
  STRIPE_PRICE_PACK_1500: 'price_h',
  STRIPE_PRICE_PACK_3000: 'price_i',
};

describe('billing configuration', () => {
  it('defaults to the built-in test-mode provider, with the test clock outside production', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).billing).toEqual({
      provider: 'local',
      testClock: true,
    });
    // A production demo must opt in to the test checkout; even then it has no test clock.
    const production = loadConfig({
      NODE_ENV: 'production',
      ALLOW_TEST_CHECKOUT: 'true',
      AUTH_SECRET: 'x'.repeat(40),
      DATA_DIR: dataDir(),
    });
    expect(production.billing).toEqual({ provider: 'local', testClock: false });
  });

  it('maps every price and pack to its Stripe price and points the SDK at STRIPE_API_URL', () => {
    const config = loadConfig({
      ...stripeEnv,
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      DATA_DIR: dataDir(),
    });
    expect(config.billing).toEqual({
      provider: 'stripe',
      testClock: false,
      stripe: {
        secretKey: 'sk_test_x',
        webhookSecret: 'whsec_x',
        api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
        prices: {
          price_basic: 'price_a',
          price_pro: 'price_b',
          price_premium: 'price_c',
          price_enterprise: 'price_d',
          price_yearly_premium: 'price_e',
        },
        packs: {
          pack_200: 'price_f',
          pack_500: 'price_g',
          pack_1500: 'price_h',
          pack_3000: 'price_i',
        },
      },
    });
    const live = loadConfig({ ...stripeEnv, DATA_DIR: dataDir() });
    expect(live.billing.provider === 'stripe' && live.billing.stripe.api).toBeUndefined();
  });

  it.each([
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_PRICE_BASIC',
    'STRIPE_PRICE_YEARLY_PREMIUM',
    'STRIPE_PRICE_PACK_3000',
  ])('refuses BILLING=stripe without %s, naming it', (name) => {
    const env: Record<string, string> = { ...stripeEnv, DATA_DIR: dataDir() };
    delete env[name];
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name} is required when BILLING=stripe`));
  });

  it('refuses two of our prices on one Stripe price, and a malformed API URL', () => {
    expect(() =>
      loadConfig({ ...stripeEnv, STRIPE_PRICE_PRO: 'price_a', DATA_DIR: dataDir() }),
    ).toThrow(/STRIPE_PRICE_PRO is the same Stripe price as STRIPE_PRICE_BASIC/);
    expect(() =>
      loadConfig({ ...stripeEnv, STRIPE_API_URL: 'not a url', DATA_DIR: dataDir() }),
    ).toThrow(/STRIPE_API_URL/);
    expect(() => loadConfig({ BILLING: 'paypal', DATA_DIR: dataDir() })).toThrow(/BILLING/);
  });
});

describe('billing periods', () => {
  it('count months the way providers do (the day clamped to the month)', () => {
    const jan31 = new Date('2027-01-31T10:00:00Z');
    expect(addMonths(jan31, 1).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(addMonths(jan31, 2).toISOString()).toBe('2027-03-31T10:00:00.000Z');
    expect(addMonths(jan31, 12).toISOString()).toBe('2028-01-31T10:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T00:00:00Z'), 1).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
  });

  it('say how many months of a period have begun', () => {
    const start = new Date('2027-01-31T10:00:00Z');
    expect(monthsElapsed(start, start)).toBe(0);
    expect(monthsElapsed(start, new Date('2027-02-28T09:59:59Z'))).toBe(0);
    expect(monthsElapsed(start, new Date('2027-02-28T10:00:00Z'))).toBe(1);
    expect(monthsElapsed(start, new Date('2028-01-31T10:00:00Z'))).toBe(12);
    expect(monthsElapsed(start, new Date('2026-01-01T00:00:00Z'))).toBe(0);
  });
});
