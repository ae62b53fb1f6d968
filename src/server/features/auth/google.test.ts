import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/messages/auth.ts';
import { type FakeGoogle, startFakeGoogle } from '../../../../tests/fakes/google-oauth.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { sessionHeaders, signUp, uniqueEmail } from '../../../../tests/helpers/users.ts';
import { account, session, user } from '../../db/schema/index.ts';

let google: FakeGoogle;
let app: TestApp;

beforeAll(async () => {
  google = await startFakeGoogle();
  app = await createTestApp({ env: google.env });
});
afterAll(async () => {
  await app?.stop();
  await google?.close();
});

function cookieNames(setCookie: string | string[] | undefined): string[] {
  return [setCookie ?? []].flat().map((cookie) => cookie.split('=')[0]!);
}

/** The browser's part: asks our API to start, follows it to "Google" and back. */
async function startGoogleSignIn(body: Record<string, unknown> = {}) {
  const response = await app.app!.inject({
    method: 'POST',
    url: '/api/auth/sign-in/social',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { provider: 'google', ...body },
  });
  expect(response.statusCode).toBe(200);
  const { url, redirect } = response.json<{ url: string; redirect: boolean }>();
  expect(redirect).toBe(true);
  return {
    authorizationUrl: new URL(url),
    browser: sessionHeaders(app, response.headers['set-cookie']),
  };
}

/** What Google's consent screen does: redirects back to our callback with a code and state. */
async function consentAtGoogle(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.origin).toBe(app.origin);
  return `${back.pathname}${back.search}`;
}

async function callback(path: string, cookie: string) {
  return app.app!.inject({ method: 'GET', url: path, headers: { cookie } });
}

describe('Google sign-in options', () => {
  it('tells the pages that Google sign-in is available when it is configured', async () => {
    const response = await app.app!.inject({ url: '/api/auth-options' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ google: true });
  });
});

describe('the Google authorization URL', () => {
  it('asks Google for offline access with a forced consent prompt, PKCE and our callback', async () => {
    const { authorizationUrl } = await startGoogleSignIn({ callbackURL: '/dashboard' });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      google.env.GOOGLE_AUTHORIZATION_URL,
    );
    const params = authorizationUrl.searchParams;
    expect(params.get('client_id')).toBe(google.clientId);
    expect(params.get('redirect_uri')).toBe(`${app.config.publicUrl}/api/auth/callback/google`);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('access_type')).toBe('offline');
    expect(params.get('prompt')?.split(' ')).toContain('consent');
    expect(params.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'email', 'profile']),
    );
    expect(params.get('state')).toMatch(/^.{16,}$/);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toBeTruthy();
  });

  it.each([
    'https://evil.example/dashboard',
    '//evil.example/dashboard',
    '/\\evil.example',
    'javascript:alert(1)',
    `${'http://localhost:3000'}/dashboard`,
  ])('refuses a callback URL that is not a path on this site: %s', async (callbackURL) => {
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { origin: app.origin, 'content-type': 'application/json' },
      payload: { provider: 'google', callbackURL },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: authMessages.invalidRedirect },
    });
  });

  it('refuses an error callback URL on another site too', async () => {
    const response = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { origin: app.origin, 'content-type': 'application/json' },
      payload: { provider: 'google', errorCallbackURL: 'https://evil.example/' },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('the whole Google round trip (against a local fake of Google)', () => {
  it('signs a new user up, lands on the callback page and keeps an encrypted refresh token', async () => {
    const email = uniqueEmail('google');
    google.signInAs({ sub: '200000000000000000001', email, email_verified: true, name: 'Ada G' });
    const { authorizationUrl, browser } = await startGoogleSignIn({
      callbackURL: '/payment-success?offer=yearly',
    });
    const back = await consentAtGoogle(authorizationUrl);
    expect(back.startsWith('/api/auth/callback/google?')).toBe(true);

    const response = await callback(back, browser.cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/payment-success?offer=yearly');
    expect(cookieNames(response.headers['set-cookie'])).toContain('likeness.session_token');

    const signedIn = sessionHeaders(app, response.headers['set-cookie']);
    const me = await app.app!.inject({ url: '/api/me', headers: signedIn });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { email, name: 'Ada G' },
      subscription: { active: false, tier: 'none', credits: 0, monthlyFreeTrainingsLeft: 1 },
    });

    // The code went back to Google once, with the PKCE verifier and our client secret.
    const exchange = google.tokenRequests.at(-1)!;
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(exchange.get('code_verifier')).toBeTruthy();
    expect(exchange.get('redirect_uri')).toBe(`${app.config.publicUrl}/api/auth/callback/google`);

    const db = app.deps.database.db;
    const [row] = await db
      .select()
      .from(account)
      .where(eq(account.userId, me.json<{ user: { id: string } }>().user.id));
    expect(row).toMatchObject({ providerId: 'google', accountId: '200000000000000000001' });
    // Offline access: a refresh token was issued and is not stored in clear.
    expect(row!.refreshToken).toBeTruthy();
    expect(row!.refreshToken).not.toBe(google.refreshTokens.at(-1));
  });

  it('signs the same Google account in again as the same user', async () => {
    const email = uniqueEmail('google-again');
    google.signInAs({ sub: '200000000000000000002', email, email_verified: true, name: 'Bo' });
    const first = await startGoogleSignIn();
    const firstResponse = await callback(
      await consentAtGoogle(first.authorizationUrl),
      first.browser.cookie,
    );
    expect(firstResponse.headers.location).toBe('/dashboard');
    const second = await startGoogleSignIn();
    const secondResponse = await callback(
      await consentAtGoogle(second.authorizationUrl),
      second.browser.cookie,
    );
    expect(secondResponse.statusCode).toBe(302);
    expect(secondResponse.headers.location).toBe('/dashboard');

    const users = await app.deps.database.db.select().from(user).where(eq(user.email, email));
    expect(users).toHaveLength(1);
  });

  it('does not attach Google to an existing password account whose email was never verified', async () => {
    // Otherwise whoever registered someone's address with a password first would keep access
    // to the account after its real owner signs in with Google.
    const existing = await signUp(app, { email: uniqueEmail('taken') });
    google.signInAs({ sub: '200000000000000000003', email: existing.email, email_verified: true });
    const { authorizationUrl, browser } = await startGoogleSignIn({ errorCallbackURL: '/signup' });
    const response = await callback(await consentAtGoogle(authorizationUrl), browser.cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/signup\?error=account_not_linked/);
    expect(cookieNames(response.headers['set-cookie'])).not.toContain('likeness.session_token');
  });
});

describe('a Google callback that cannot be trusted fails cleanly', () => {
  async function sessionCount() {
    return (await app.deps.database.db.select().from(session)).length;
  }

  it('redirects to the login page with an error for a state nobody issued, and signs no one in', async () => {
    const before = await sessionCount();
    const response = await callback('/api/auth/callback/google?code=4/whatever&state=forged', '');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/login\?error=state_mismatch/);
    expect(cookieNames(response.headers['set-cookie'])).not.toContain('likeness.session_token');
    expect(await sessionCount()).toBe(before);
  });

  it('refuses a genuine state arriving in another browser (no state cookie): login CSRF', async () => {
    const { authorizationUrl } = await startGoogleSignIn();
    const back = await consentAtGoogle(authorizationUrl);
    const before = await sessionCount();
    const response = await callback(back, '');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/\?error=state_mismatch/);
    expect(cookieNames(response.headers['set-cookie'])).not.toContain('likeness.session_token');
    expect(await sessionCount()).toBe(before);
  });

  it('redirects with the error when the user cancels at Google', async () => {
    google.denyNext();
    const { authorizationUrl, browser } = await startGoogleSignIn({ errorCallbackURL: '/signup' });
    const response = await callback(await consentAtGoogle(authorizationUrl), browser.cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/signup\?error=access_denied/);
    expect(cookieNames(response.headers['set-cookie'])).not.toContain('likeness.session_token');
  });

  it('redirects with an error when the code does not exchange', async () => {
    const { authorizationUrl, browser } = await startGoogleSignIn();
    const back = new URL(await consentAtGoogle(authorizationUrl), app.origin);
    back.searchParams.set('code', '4/not-a-code-google-issued');
    const response = await callback(`${back.pathname}${back.search}`, browser.cookie);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/login\?error=invalid_code/);
    expect(cookieNames(response.headers['set-cookie'])).not.toContain('likeness.session_token');
  });
});
