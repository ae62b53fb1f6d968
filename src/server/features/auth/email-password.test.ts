import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authMessages,
  googleMessages,
  loginMessages,
  signupMessages,
} from '../../../common/messages/auth.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { sessionHeaders, signUp, uniqueEmail } from '../../../../tests/helpers/users.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return app.app!.inject({
    method: 'POST',
    url,
    headers: { origin: app.origin, 'content-type': 'application/json', ...headers },
    payload: payload as Record<string, unknown>,
  });
}

const validationError = (message: string) => ({ error: { code: 'VALIDATION_ERROR', message } });

describe('sign-up with email and password', () => {
  it('creates the account, signs in with an httpOnly SameSite=Lax cookie and shows no token', async () => {
    const email = uniqueEmail('new');
    const response = await post('/api/auth/sign-up/email', { email, password: 'studio-light-7' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ email, name: email.split('@')[0] });
    expect(JSON.stringify(body)).not.toMatch(/token/i);

    const cookie = [response.headers['set-cookie']].flat()[0]!;
    expect(cookie).toMatch(/^likeness\.session_token=/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/; Secure/);
    expect(response.headers['cache-control']).toBe('no-store');

    const me = await app.app!.inject({
      url: '/api/me',
      headers: sessionHeaders(app, response.headers['set-cookie']),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(email);
  });

  it('answers an already registered email (any letter case) with CONFLICT', async () => {
    const existing = await signUp(app);
    const response = await post('/api/auth/sign-up/email', {
      email: existing.email.toUpperCase(),
      password: 'another-password-1',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'CONFLICT', message: signupMessages.alreadyRegistered },
    });
  });

  it.each([
    ['a short password', { password: 'abc12' }, signupMessages.passwordTooShort],
    ['a long password', { password: 'x'.repeat(129) }, signupMessages.passwordTooLong],
    ['a common password', { password: 'password123' }, signupMessages.weakPassword],
    ['a run of characters', { password: '123456' }, signupMessages.weakPassword],
    ['one repeated character', { password: 'aaaaaaaa' }, signupMessages.weakPassword],
    ['a missing password', { password: undefined }, loginMessages.missingFields],
    ['an empty password', { password: '' }, loginMessages.missingFields],
    ['a missing email', { email: undefined }, loginMessages.missingFields],
    ['a malformed email', { email: 'not-an-email' }, authMessages.invalidEmail],
  ])('refuses %s with its message', async (_case, change, message) => {
    const response = await post('/api/auth/sign-up/email', {
      email: uniqueEmail('invalid'),
      password: 'fine-password-9',
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(validationError(message));
  });

  it('accepts the 6-character minimum', async () => {
    const response = await post('/api/auth/sign-up/email', {
      email: uniqueEmail('six'),
      password: 'k7#pQz',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses the password that is the email itself', async () => {
    const email = uniqueEmail('same');
    const response = await post('/api/auth/sign-up/email', { email, password: email });
    expect(response.json()).toEqual(validationError(signupMessages.weakPassword));
  });

  it('never lets a sign-up choose its own role', async () => {
    const response = await post('/api/auth/sign-up/email', {
      email: uniqueEmail('role'),
      password: 'studio-light-7',
      role: 'admin',
    });
    expect(response.statusCode).toBe(200);
    const me = await app.app!.inject({
      url: '/api/me',
      headers: sessionHeaders(app, response.headers['set-cookie']),
    });
    expect(me.json().user.role).toBe('user');
  });
});

describe('sign-in with email and password', () => {
  it('signs in with the right password (cookie, no token in the body)', async () => {
    const user = await signUp(app);
    const response = await post('/api/auth/sign-in/email', {
      email: user.email,
      password: user.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(user.id);
    expect(JSON.stringify(response.json())).not.toMatch(/token/i);
    const cookie = [response.headers['set-cookie']].flat()[0]!;
    expect(cookie).toMatch(/^likeness\.session_token=.+; .*HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('answers a wrong password and an unknown email exactly alike', async () => {
    const user = await signUp(app);
    const wrong = await post('/api/auth/sign-in/email', {
      email: user.email,
      password: 'not-the-password',
    });
    const unknown = await post('/api/auth/sign-in/email', {
      email: uniqueEmail('nobody'),
      password: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: loginMessages.invalidCredentials },
    });
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('asks for both fields', async () => {
    const response = await post('/api/auth/sign-in/email', { email: 'a@example.com' });
    expect(response.json()).toEqual(validationError(loginMessages.missingFields));
  });

  it('has no abuse limits when RATE_LIMIT_DISABLED=true (the test default)', async () => {
    const user = await signUp(app);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await post('/api/auth/sign-in/email', {
        email: user.email,
        password: 'not-the-password',
      });
      expect(response.statusCode).toBe(401);
    }
    const ok = await post('/api/auth/sign-in/email', {
      email: user.email,
      password: user.password,
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('requests from other sites', () => {
  it('refuses a cross-origin sign-in POST and sets no cookie', async () => {
    const user = await signUp(app);
    const response = await post(
      '/api/auth/sign-in/email',
      { email: user.email, password: user.password },
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a sign-in a browser marks as cross-site even without Origin', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      payload: { email: user.email, password: user.password },
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a form post (the only kind a page on another site can send without CORS)', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(user.email)}&password=${user.password}`,
    });
    expect(response.statusCode).toBe(415);
  });
});

describe('what /api/auth exposes', () => {
  it('says Google sign-in is unavailable when it is not configured', async () => {
    const response = await app.app!.inject({ url: '/api/auth-options' });
    expect(response.json()).toEqual({ google: false });
    const social = await post('/api/auth/sign-in/social', { provider: 'google' });
    expect(social.statusCode).toBe(404);
    expect(social.json().error.message).toBe(googleMessages.unavailable);
  });

  it.each([
    ['GET', '/api/auth/get-session'],
    ['GET', '/api/auth/list-sessions'],
    ['POST', '/api/auth/get-access-token'],
    ['POST', '/api/auth/update-user'],
    ['POST', '/api/auth/delete-user'],
    ['POST', '/api/auth/change-email'],
    ['POST', '/api/auth/link-social'],
  ] as const)(
    'does not expose Better Auth endpoints the web app does not use: %s %s',
    async (method, url) => {
      const user = await signUp(app);
      const response = await app.app!.inject({
        method,
        url,
        headers: { ...user.headers, 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode).toBe(404);
    },
  );
});

describe('cookies in production', () => {
  it('are Secure (and __Secure- prefixed), httpOnly and SameSite=Lax', async () => {
    const production = await createTestApp({
      env: {
        NODE_ENV: 'production',
        ALLOW_TEST_CHECKOUT: 'true',
        PUBLIC_URL: 'https://likeness.example',
        AUTH_SECRET: 'a-production-secret-of-at-least-32-characters',
      },
    });
    try {
      const response = await production.app!.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: production.origin, 'content-type': 'application/json' },
        payload: { email: uniqueEmail('prod'), password: 'studio-light-7' },
      });
      expect(response.statusCode).toBe(200);
      const cookie = [response.headers['set-cookie']].flat()[0]!;
      expect(cookie).toMatch(/^__Secure-likeness\.session_token=/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);

      // Signing out clears it with the same flags, or the browser would ignore the removal.
      const signOut = await production.app!.inject({
        method: 'POST',
        url: '/api/account/sign-out',
        headers: sessionHeaders(production, response.headers['set-cookie']),
      });
      expect(signOut.statusCode).toBe(204);
      const cleared = [signOut.headers['set-cookie']].flat();
      expect(cleared[0]).toMatch(/^__Secure-likeness\.session_token=; Max-Age=0; .*Secure/);
    } finally {
      await production.stop();
    }
  });
});
