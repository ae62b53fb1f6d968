import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http.ts';
import { rateLimits } from '../../common/product/limits.ts';
import { createTestApp, type TestApp, usesPostgres } from '../../../tests/helpers/test-app.ts';
import { signUp, type SignedInUser } from '../../../tests/helpers/users.ts';
import { buildApp } from '../app.ts';
import { rateLimitBuckets } from '../db/schema/index.ts';
import { deleteBucketsOlderThan } from './rate-limit-repository.ts';

/**
 * Every HTTP limit (the global per-IP limit, uploads, generations, try-ons) counts in Postgres,
 * so two web processes on one database share it. On Postgres the second process is a whole
 * second server with its own connection pool; on PGlite, which lives inside one process, it is a
 * second Fastify server built on the same database (each kept its own counts when they lived in
 * memory).
 */

const globalPerMinute = 12;
const env = { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_PER_MINUTE: String(globalPerMinute) };

let app: TestApp;
let second: { app: FastifyInstance; stop(): Promise<void> };
let user: SignedInUser;

beforeAll(async () => {
  app = await createTestApp({ env });
  if (usesPostgres) {
    const other = await createTestApp({ env, databaseUrl: app.config.database.url! });
    second = { app: other.app!, stop: () => other.stop() };
  } else {
    const other = await buildApp(app.deps);
    await other.ready();
    second = { app: other, stop: () => other.close() };
  }
  user = await signUp(app);
});
afterAll(async () => {
  await second?.stop();
  await app?.stop();
});

let ipCounter = 0;
/** A fresh address per test, so the tests' limits do not add up. */
function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

/** The two web processes in turn, as a load balancer would send the requests. */
const servers = () => [app.app!, second.app];

function expectRefused(response: Awaited<ReturnType<FastifyInstance['inject']>>, windowMs: number) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
  expect(response.json()).toEqual({
    error: { code: 'RATE_LIMITED', message: httpMessages.tooManyRequests },
  });
}

async function generate(server: FastifyInstance, ip: string) {
  return server.inject({
    method: 'POST',
    url: '/api/generations',
    remoteAddress: ip,
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: { presetId: 'no-such-preset' },
  });
}

/** Moves every counter's clock back, as if `ms` had passed. */
async function timePasses(ms: number) {
  await app.deps.database.db
    .update(rateLimitBuckets)
    .set({ windowStart: sql`window_start - (${ms}::bigint * interval '1 millisecond')` });
}

describe('limits shared by two web processes', () => {
  it('refuses generations once the two processes together pass the limit', async () => {
    const ip = nextIp();
    const answered: number[] = [];
    for (let attempt = 0; attempt < rateLimits.generation.max; attempt += 1) {
      const response = await generate(servers()[attempt % 2]!, ip);
      answered.push(response.statusCode);
    }
    // Each process saw only half the limit, yet the next request is refused on both.
    expect(answered).not.toContain(429);
    expectRefused(await generate(app.app!, ip), rateLimits.generation.windowMs);
    expectRefused(await generate(second.app, ip), rateLimits.generation.windowMs);
    // Another address has its own count.
    expect((await generate(second.app, nextIp())).statusCode).not.toBe(429);
  });

  it('opens again once the window has passed', async () => {
    const ip = nextIp();
    for (let attempt = 0; attempt < rateLimits.generation.max; attempt += 1)
      await generate(servers()[attempt % 2]!, ip);
    expectRefused(await generate(second.app, ip), rateLimits.generation.windowMs);
    await timePasses(rateLimits.generation.windowMs + 1000);
    expect((await generate(app.app!, ip)).statusCode).not.toBe(429);
  });

  it('shares the photo-upload and try-on limits too, each counted apart from generations', async () => {
    const ip = nextIp();
    const cases = [
      { url: '/api/studio/photos', rule: rateLimits.uploads },
      { url: '/api/tryons', rule: rateLimits.generation },
    ];
    for (const { url, rule } of cases) {
      const post = (server: FastifyInstance) =>
        server.inject({ method: 'POST', url, remoteAddress: ip, headers: user.headers });
      for (let attempt = 0; attempt < rule.max; attempt += 1)
        expect((await post(servers()[attempt % 2]!)).statusCode).not.toBe(429);
      expectRefused(await post(app.app!), rule.windowMs);
    }
    // Uploads and try-ons used up their own counts, not the generations' one.
    expect((await generate(app.app!, ip)).statusCode).not.toBe(429);
  });

  it('shares the global per-IP limit, and never limits health checks', async () => {
    const ip = nextIp();
    const get = (server: FastifyInstance, url: string) =>
      server.inject({ method: 'GET', url, remoteAddress: ip });
    for (let attempt = 0; attempt < globalPerMinute; attempt += 1)
      expect((await get(servers()[attempt % 2]!, '/api/catalog/categories')).statusCode).toBe(200);
    expectRefused(await get(second.app, '/api/catalog/presets'), 60_000);
    expect((await get(app.app!, '/healthz')).statusCode).toBe(200);
  });
});

describe('the counters of HTTP limits', () => {
  it('keep no IP in clear, and a sweep forgets windows older than a day', async () => {
    const ip = '203.0.113.199';
    await generate(app.app!, ip);
    const keys = async () =>
      (await app.deps.database.db.select().from(rateLimitBuckets)).map((bucket) => bucket.key);
    const before = await keys();
    expect(before).toContainEqual(expect.stringMatching(/^http:POST \/api\/generations:/));
    expect(before.some((key) => key.includes(ip))).toBe(false);

    await timePasses(25 * 60 * 60_000);
    await deleteBucketsOlderThan(app.deps.database.db, 24 * 60 * 60_000);
    expect(await keys()).toEqual([]);
  });
});
