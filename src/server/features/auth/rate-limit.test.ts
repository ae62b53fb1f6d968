import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/messages/auth.ts';
import { rateLimits } from '../../../common/product/limits.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../../tests/helpers/test-app.ts';
import { uniqueEmail } from '../../../../tests/helpers/users.ts';
import { rateLimitBuckets } from '../../db/schema/index.ts';
import { createRateLimiter, rateLimitKey } from '../../rate-limits/rate-limiter.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ env: { RATE_LIMIT_DISABLED: 'false' } });
});
afterAll(async () => {
  await app?.stop();
});

let ipCounter = 0;
/** A fresh address per test, so the tests' limits do not add up. */
function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

function post(target: TestApp, url: string, payload: unknown, ip: string) {
  return target.app!.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { origin: target.origin, 'content-type': 'application/json' },
    payload: payload as Record<string, unknown>,
  });
}

/** A new account, each from its own address so that sign-ups do not use up the IP limit. */
async function signUp(target: TestApp) {
  const email = uniqueEmail('limited');
  const password = 'studio-light-7';
  const response = await post(target, '/api/auth/sign-up/email', { email, password }, nextIp());
  expect(response.statusCode).toBe(200);
  return { email, password };
}

function expectRateLimited(
  response: Awaited<ReturnType<typeof post>>,
  message: (seconds: number) => string,
  maxSeconds: number,
) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(response.json()).toEqual({
    error: { code: 'RATE_LIMITED', message: message(retryAfter) },
  });
}

/** Moves every counter's clock back, as if `ms` had passed. */
async function timePasses(ms: number) {
  await app.deps.database.db
    .update(rateLimitBuckets)
    .set({ windowStart: sql`window_start - (${ms}::int * interval '1 millisecond')` });
}

const windowSeconds = (rule: { windowMs: number }) => rule.windowMs / 1000;

/** Uses a limit up: `max` requests sent one after another, each answered `status`. */
async function useUp(
  max: number,
  status: number,
  request: () => ReturnType<typeof post>,
): Promise<void> {
  for (let attempt = 0; attempt < max; attempt += 1)
    expect((await request()).statusCode).toBe(status);
}

describe('sign-in limits', () => {
  it('refuses an IP after its limit, whatever the emails, with Retry-After', async () => {
    const ip = nextIp();
    const signIn = () =>
      post(
        app,
        '/api/auth/sign-in/email',
        { email: uniqueEmail('ip'), password: 'whatever-1' },
        ip,
      );
    await useUp(rateLimits.signIn.max, 401, signIn);
    const refused = await signIn();
    expectRateLimited(refused, authMessages.rateLimited, windowSeconds(rateLimits.signIn));
    // Another address is not affected.
    const other = await post(
      app,
      '/api/auth/sign-in/email',
      { email: uniqueEmail('ip'), password: 'whatever-1' },
      nextIp(),
    );
    expect(other.statusCode).toBe(401);
  });

  it('refuses an email after its limit, whatever the IPs', async () => {
    const user = await signUp(app);
    await useUp(rateLimits.signIn.max, 200, () =>
      post(
        app,
        '/api/auth/sign-in/email',
        { email: user.email, password: user.password },
        nextIp(),
      ),
    );
    const refused = await post(
      app,
      '/api/auth/sign-in/email',
      { email: user.email.toUpperCase(), password: user.password },
      nextIp(),
    );
    expectRateLimited(refused, authMessages.rateLimited, windowSeconds(rateLimits.signIn));
  });

  it('makes an email wait after repeated failures, longer after each further failure', async () => {
    const rule = rateLimits.signInFailures;
    const user = await signUp(app);
    const attempt = (password: string) =>
      post(app, '/api/auth/sign-in/email', { email: user.email, password }, nextIp());

    for (let failure = 0; failure < rule.max; failure += 1) {
      expect((await attempt('wrong-password')).statusCode).toBe(401);
    }
    // Even the right password waits now: the point is to stop guessing.
    const locked = await attempt(user.password);
    expectRateLimited(locked, authMessages.signInLocked, rule.baseDelayMs / 1000);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(rule.baseDelayMs / 1000 - 5);

    // After the delay, one more failure doubles it.
    await timePasses(rule.baseDelayMs + 1000);
    expect((await attempt('wrong-password')).statusCode).toBe(401);
    const longer = await attempt(user.password);
    expectRateLimited(longer, authMessages.signInLocked, (rule.baseDelayMs * 2) / 1000);
    expect(Number(longer.headers['retry-after'])).toBeGreaterThan(rule.baseDelayMs / 1000);

    // Once it has passed, the right password works and the streak is forgotten.
    await timePasses(rule.baseDelayMs * 2 + 1000);
    expect((await attempt(user.password)).statusCode).toBe(200);
    expect((await attempt('wrong-password')).statusCode).toBe(401);
    expect((await attempt(user.password)).statusCode).toBe(200);
  });

  it('forgets a failure streak after a quiet window', async () => {
    const rule = rateLimits.signInFailures;
    const user = await signUp(app);
    for (let failure = 0; failure < rule.max - 1; failure += 1) {
      await post(
        app,
        '/api/auth/sign-in/email',
        { email: user.email, password: 'wrong-password' },
        nextIp(),
      );
    }
    await timePasses(rule.windowMs + 1000);
    // This failure starts a new streak rather than completing the old one.
    await post(
      app,
      '/api/auth/sign-in/email',
      { email: user.email, password: 'wrong-password' },
      nextIp(),
    );
    const response = await post(
      app,
      '/api/auth/sign-in/email',
      { email: user.email, password: user.password },
      nextIp(),
    );
    expect(response.statusCode).toBe(200);
  });
});

describe('sign-up limits', () => {
  it('refuses an IP after its limit', async () => {
    const ip = nextIp();
    const signUpFromIp = () =>
      post(
        app,
        '/api/auth/sign-up/email',
        { email: uniqueEmail('signup-ip'), password: 'studio-light-7' },
        ip,
      );
    await useUp(rateLimits.signUp.max, 200, signUpFromIp);
    const refused = await signUpFromIp();
    expectRateLimited(refused, authMessages.rateLimited, windowSeconds(rateLimits.signUp));
  });

  it('refuses an email after its limit', async () => {
    const email = uniqueEmail('signup-email');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < rateLimits.signUp.max; attempt += 1) {
      const response = await post(
        app,
        '/api/auth/sign-up/email',
        { email, password: 'studio-light-7' },
        nextIp(),
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, ...Array(rateLimits.signUp.max - 1).fill(409)]);
    const refused = await post(
      app,
      '/api/auth/sign-up/email',
      { email, password: 'studio-light-7' },
      nextIp(),
    );
    expectRateLimited(refused, authMessages.rateLimited, windowSeconds(rateLimits.signUp));
  });
});

describe('password reset limits', () => {
  it('refuses an IP after its limit', async () => {
    const ip = nextIp();
    const resetFromIp = () =>
      post(app, '/api/auth/request-password-reset', { email: uniqueEmail('reset-ip') }, ip);
    await useUp(rateLimits.passwordReset.max, 200, resetFromIp);
    const refused = await resetFromIp();
    expectRateLimited(refused, authMessages.rateLimited, windowSeconds(rateLimits.passwordReset));
  });

  it('refuses an email after its limit, alike for known and unknown addresses', async () => {
    const known = await signUp(app);
    const unknown = uniqueEmail('reset-unknown');
    for (const email of [known.email, unknown])
      await useUp(rateLimits.passwordReset.max, 200, () =>
        post(app, '/api/auth/request-password-reset', { email }, nextIp()),
      );
    const refusedKnown = await post(
      app,
      '/api/auth/request-password-reset',
      { email: known.email },
      nextIp(),
    );
    const refusedUnknown = await post(
      app,
      '/api/auth/request-password-reset',
      { email: unknown },
      nextIp(),
    );
    expectRateLimited(
      refusedKnown,
      authMessages.rateLimited,
      windowSeconds(rateLimits.passwordReset),
    );
    expect(refusedUnknown.statusCode).toBe(429);
    expect(refusedUnknown.json().error.code).toBe('RATE_LIMITED');
  });
});

describe('the counters', () => {
  it('count every one of many concurrent hits exactly once', async () => {
    const limiter = createRateLimiter(app.deps.database.db, { enabled: true });
    const rule = { max: 10, windowMs: 60_000 };
    const verdicts = await Promise.all(
      Array.from({ length: 25 }, () => limiter.consume('test-concurrency', 'one-key', rule)),
    );
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(rule.max);
  });

  it('keep no email address or IP in clear', async () => {
    const user = await signUp(app);
    await post(
      app,
      '/api/auth/sign-in/email',
      { email: user.email, password: 'wrong-password' },
      '203.0.113.77',
    );
    const keys = (await app.deps.database.db.select().from(rateLimitBuckets)).map((b) => b.key);
    expect(keys).toContain(rateLimitKey('sign-in-failures', user.email));
    expect(keys.some((key) => key.includes(user.email) || key.includes('203.0.113.77'))).toBe(
      false,
    );
  });

  it.runIf(usesPostgres)('are shared by several web processes on one database', async () => {
    const second = await createTestApp({
      env: { RATE_LIMIT_DISABLED: 'false' },
      databaseUrl: app.config.database.url!,
    });
    try {
      const ip = nextIp();
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= rateLimits.signIn.max; attempt += 1) {
        // Alternate between the two processes, as a load balancer would.
        const target = attempt % 2 === 0 ? app : second;
        const response = await post(
          target,
          '/api/auth/sign-in/email',
          { email: uniqueEmail('multi'), password: 'whatever-1' },
          ip,
        );
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([...Array(rateLimits.signIn.max).fill(401), 429]);
    } finally {
      await second.stop();
    }
  });
});
