import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { signInElsewhere, signUp } from '../../../../tests/helpers/users.ts';
import { session } from '../../db/schema/index.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

async function meStatus(headers: { cookie: string }) {
  return (await app.app!.inject({ url: '/api/me', headers })).statusCode;
}

async function sessionsOf(userId: string) {
  return app.deps.database.db.select().from(session).where(eq(session.userId, userId));
}

function expectCookieCleared(setCookie: string | string[] | undefined) {
  const cleared = [setCookie ?? []].flat();
  expect(cleared.find((c) => c.startsWith('likeness.session_token='))).toMatch(
    /^likeness\.session_token=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
  );
}

describe.each(['/api/account/sign-out', '/api/auth/sign-out'])('sign-out (%s)', (url) => {
  it('ends every session of the user, on every device, and clears the cookie', async () => {
    const user = await signUp(app);
    const laptop = user.headers;
    const phone = await signInElsewhere(app, user);
    const bystander = await signUp(app);
    expect(await sessionsOf(user.id)).toHaveLength(2);

    const response = await app.app!.inject({
      method: 'POST',
      url,
      headers: { ...laptop, 'content-type': 'application/json' },
      payload: {},
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectCookieCleared(response.headers['set-cookie']);

    expect(await sessionsOf(user.id)).toHaveLength(0);
    expect(await meStatus(laptop)).toBe(401);
    expect(await meStatus(phone)).toBe(401);
    // Someone else's session is not touched.
    expect(await meStatus(bystander.headers)).toBe(200);
  });

  it('still answers 204 and clears the cookie when the session is already gone', async () => {
    const user = await signUp(app);
    await app.app!.inject({ method: 'POST', url, headers: user.headers });
    const again = await app.app!.inject({ method: 'POST', url, headers: user.headers });
    expect(again.statusCode).toBe(204);
    expectCookieCleared(again.headers['set-cookie']);

    const anonymous = await app.app!.inject({
      method: 'POST',
      url,
      headers: { origin: app.origin },
    });
    expect(anonymous.statusCode).toBe(204);
    expectCookieCleared(anonymous.headers['set-cookie']);
  });

  it('is refused from another site', async () => {
    const user = await signUp(app);
    const response = await app.app!.inject({
      method: 'POST',
      url,
      headers: { cookie: user.headers.cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(await meStatus(user.headers)).toBe(200);
  });
});

describe('a session this process keeps in its cache', () => {
  it('is answered only to its signed cookie: the same token unsigned or signed wrongly is signed out', async () => {
    const user = await signUp(app);
    expect(await meStatus(user.headers)).toBe(200); // read, and kept
    const signed = decodeURIComponent(
      /likeness\.session_token=([^;]+)/.exec(user.headers.cookie)![1]!,
    );
    const token = signed.slice(0, signed.lastIndexOf('.'));
    const wrongSignature = `${token}.${Buffer.alloc(32, 7).toString('base64')}`;
    for (const value of [token, wrongSignature])
      expect(
        await meStatus({ cookie: `likeness.session_token=${encodeURIComponent(value)}` }),
      ).toBe(401);
    expect(await meStatus(user.headers)).toBe(200);
  });
});
