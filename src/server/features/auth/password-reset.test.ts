import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authMessages,
  passwordResetMessages,
  signupMessages,
} from '../../../common/messages/auth.ts';
import { emailMessages } from '../../../common/messages/email.ts';
import { auth as authLimits } from '../../../common/product/auth.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { type SignedInUser, signUp, uniqueEmail } from '../../../../tests/helpers/users.ts';
import { verification } from '../../db/schema/index.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
}

async function outbox(): Promise<OutboxEmail[]> {
  const dir = app.config.email.outboxDir;
  const files = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(
    files
      .filter((file) => file.endsWith('.json'))
      .map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as OutboxEmail),
  );
}

/** The email worker writes the message shortly after the request; wait for it. */
async function waitForEmail(to: string, timeoutMs = 15_000): Promise<OutboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outbox()).find((email) => email.to === to);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function requestReset(email: string) {
  return app.app!.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { email },
  });
}

function resetPassword(token: string, newPassword: string) {
  return app.app!.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { token, newPassword },
  });
}

function signIn(email: string, password: string) {
  return app.app!.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { email, password },
  });
}

/** Requests a reset and follows the emailed link the way a browser would. */
async function resetLinkFor(user: SignedInUser) {
  expect((await requestReset(user.email)).statusCode).toBe(200);
  const email = await waitForEmail(user.email);
  const link = new URL(email.text.match(/https?:\/\/\S+/)![0]);
  return { email, link };
}

async function openLink(link: URL) {
  const response = await app.app!.inject({ url: `${link.pathname}${link.search}` });
  expect(response.statusCode).toBe(302);
  return new URL(response.headers.location!);
}

describe('asking for a password reset', () => {
  it('answers a known and an unknown email identically, and emails only the known one', async () => {
    const user = await signUp(app);
    const stranger = uniqueEmail('stranger');
    const known = await requestReset(user.email);
    const unknown = await requestReset(stranger);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ status: true, message: passwordResetMessages.sent });

    const email = await waitForEmail(user.email);
    expect(email.subject).toBe(emailMessages.passwordResetSubject);
    expect((await outbox()).some((message) => message.to === stranger)).toBe(false);
  });

  it('refuses a malformed email with a message', async () => {
    const response = await requestReset('not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(authMessages.invalidEmail);
  });
});

describe('the emailed reset link', () => {
  it('leads to /reset-password?token=..., sets the new password once and signs out everywhere', async () => {
    const user = await signUp(app);
    const { link } = await resetLinkFor(user);
    expect(link.origin).toBe(app.config.publicUrl);

    const page = await openLink(link);
    expect(`${page.origin}${page.pathname}`).toBe(`${app.config.publicUrl}/reset-password`);
    const token = page.searchParams.get('token')!;
    expect(token).toBeTruthy();

    const reset = await resetPassword(token, 'a-brand-new-secret');
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ status: true });

    // Every session that existed before the reset is over.
    const me = await app.app!.inject({ url: '/api/me', headers: user.headers });
    expect(me.statusCode).toBe(401);
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);
    expect((await signIn(user.email, 'a-brand-new-secret')).statusCode).toBe(200);

    // The link works once.
    const again = await resetPassword(token, 'yet-another-secret');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: passwordResetMessages.invalidLink },
    });
    const reopened = await openLink(link);
    expect(reopened.pathname).toBe('/reset-password');
    expect(reopened.searchParams.get('error')).toBe('INVALID_TOKEN');
    expect(reopened.searchParams.get('token')).toBeNull();
  });

  it('expires after one hour', async () => {
    const user = await signUp(app);
    const { link } = await resetLinkFor(user);
    const token = (await openLink(link)).searchParams.get('token')!;
    const db = app.deps.database.db;
    const [row] = await db
      .select()
      .from(verification)
      .where(like(verification.identifier, `reset-password:${token}`));
    const lifetimeMs = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetimeMs - authLimits.passwordResetTokenTtlSeconds * 1000)).toBeLessThan(
      5_000,
    );

    // An hour later (moved in the database rather than waited for).
    await db
      .update(verification)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(like(verification.identifier, `reset-password:${token}`));
    const expired = await openLink(link);
    expect(expired.searchParams.get('error')).toBe('INVALID_TOKEN');
    const reset = await resetPassword(token, 'a-brand-new-secret');
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.message).toBe(passwordResetMessages.invalidLink);
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
  });

  it('keeps the link usable after a refused new password', async () => {
    const user = await signUp(app);
    const { link } = await resetLinkFor(user);
    const token = (await openLink(link)).searchParams.get('token')!;
    const short = await resetPassword(token, 'abc');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe(signupMessages.passwordTooShort);
    const weak = await resetPassword(token, 'qwerty123');
    expect(weak.json().error.message).toBe(signupMessages.weakPassword);
    expect((await resetPassword(token, 'a-brand-new-secret')).statusCode).toBe(200);
  });

  it('never redirects anywhere but our reset page, whatever the link says', async () => {
    const user = await signUp(app);
    const { link } = await resetLinkFor(user);
    link.searchParams.set('callbackURL', 'https://evil.example/steal');
    const page = await openLink(link);
    expect(page.origin).toBe(app.config.publicUrl);
    expect(page.pathname).toBe('/reset-password');
  });
});
