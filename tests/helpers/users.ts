import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app.ts';

export interface SignedInUser {
  id: string;
  email: string;
  password: string;
  /** Headers for `app.inject` (or fetch) as this user's browser: session cookie and Origin. */
  headers: { cookie: string; origin: string };
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Signs a new user up through the real auth endpoint and keeps the session cookie it sets. */
export async function signUp(
  app: TestApp,
  options: { email?: string; password?: string } = {},
): Promise<SignedInUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct-horse-battery';
  const response = await app.app!.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { email, password, name: email.split('@')[0] },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return {
    id: response.json<{ user: { id: string } }>().user.id,
    email,
    password,
    headers: sessionHeaders(app, response.headers['set-cookie']),
  };
}

export function sessionHeaders(
  app: TestApp,
  setCookie: string | string[] | undefined,
): { cookie: string; origin: string } {
  const cookies = [setCookie ?? []].flat().map((c) => c.split(';')[0]);
  return { cookie: cookies.join('; '), origin: app.origin };
}

/** Signs in through the real endpoint with an email and password; the answer as it comes. */
export function signIn(app: TestApp, credentials: { email: string; password: string }) {
  return app.app!.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { email: credentials.email, password: credentials.password },
  });
}

/** Deletes the user's account as the account page does (`DELETE /api/account`, confirmed). */
export function deleteAccount(app: TestApp, user: SignedInUser) {
  return app.app!.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { ...user.headers, 'content-type': 'application/json' },
    payload: { confirm: 'DELETE' },
  });
}

/** Another device of the same user: a second sign-in, and the headers of its own session. */
export async function signInElsewhere(app: TestApp, user: SignedInUser) {
  const response = await signIn(app, user);
  if (response.statusCode !== 200)
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return sessionHeaders(app, response.headers['set-cookie']);
}
