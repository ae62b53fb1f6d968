import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { signUp } from '../../tests/helpers/users.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.stop();
});

describe('HTTP errors keep one wire shape and the server stays up', () => {
  it('answers malformed JSON with 400 and a JSON error', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "password": ',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect((await app.app!.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers an oversized body with 413', async () => {
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/me',
      headers: { 'content-type': 'application/json', origin: app.origin },
      payload: JSON.stringify({ filler: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
    });
  });

  it('answers an unknown API route with 404 JSON', async () => {
    const response = await app.app!.inject({ url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('answers a wrong method on a known route with 405 and Allow', async () => {
    const response = await app.app!.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: { origin: app.origin },
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain('GET');
    expect(response.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('refuses a state-changing request from another site', async () => {
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: { email: 'x@example.com', password: 'long-enough', name: 'x' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('carries a request id on every answer', async () => {
    const response = await app.app!.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(response.headers['x-request-id']).toBe('trace-123');
  });
});

describe('security headers', () => {
  const pagePolicy =
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';media-src 'self' blob:;object-src 'none';" +
    "base-uri 'self';form-action 'self';frame-ancestors 'none'";

  it('come with every page: a strict policy, no framing, no sniffing, no referrer', async () => {
    for (const url of ['/', '/studio', '/no-such-page']) {
      const { headers } = await app.app!.inject({ url });
      expect(headers['content-type'], url).toContain('text/html');
      expect(headers['content-security-policy'], url).toBe(pagePolicy);
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(headers['referrer-policy'], url).toBe('no-referrer');
      expect(headers['cross-origin-opener-policy'], url).toBe('same-origin');
      // Not in tests (NODE_ENV=test): HSTS would pin a developer's localhost to HTTPS.
      expect(headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('come with every API answer and error, allowing nothing since JSON is never a page', async () => {
    const user = await signUp(app);
    for (const request of [
      { url: '/api/me', headers: user.headers },
      { url: '/api/me' },
      { url: '/api/no-such-route' },
    ]) {
      const { headers, statusCode } = await app.app!.inject(request);
      expect(statusCode, request.url).not.toBe(500);
      expect(headers['content-security-policy'], request.url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(headers['x-content-type-options'], request.url).toBe('nosniff');
      expect(headers['x-frame-options'], request.url).toBe('DENY');
      expect(headers['referrer-policy'], request.url).toBe('no-referrer');
      expect(headers['cross-origin-resource-policy'], request.url).toBe('same-origin');
      expect(headers['strict-transport-security'], request.url).toBeUndefined();
      // Page-only headers stay off answers no browser renders.
      expect(headers['cross-origin-opener-policy'], request.url).toBeUndefined();
      expect(headers['x-xss-protection'], request.url).toBeUndefined();
    }
  });

  it('treat the API documentation as a page: its interface runs scripts', async () => {
    const { headers } = await app.app!.inject({ url: '/api/docs/' });
    expect(headers['content-security-policy']).not.toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('health and readiness', () => {
  it('is ready once the database answers and migrations are applied', async () => {
    const response = await app.app!.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });
});

describe('the signed-in user', () => {
  it('gets user, profile and the default subscription from /api/me', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({ url: '/api/me', headers: user.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { id: user.id, email: user.email, role: 'user' },
      profile: { trainingInProgress: false, selectedTrainingModelId: null },
      subscription: { active: false, tier: 'none', credits: 0, monthlyFreeTrainingsLeft: 1 },
    });
  });

  it('is 401 without a session', async () => {
    const response = await app.app!.inject({ url: '/api/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHORIZED');
  });

  it('publishes the OpenAPI document', async () => {
    const response = await app.app!.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toContain('/api/me');
  });
});
