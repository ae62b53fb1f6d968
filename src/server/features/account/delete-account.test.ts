import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../../common/messages/account.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import {
  type SignedInUser,
  signIn,
  signInElsewhere,
  signUp,
} from '../../../../tests/helpers/users.ts';
import { account, profiles, session, subscriptions, user } from '../../db/schema/index.ts';
import { type AccountDeletionParticipant, createAccountService } from './service.ts';
import { userStorageKey, userStoragePrefix } from './storage-keys.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);

/** A user with rows in every table we have and files under their storage prefix. */
async function userWithData(): Promise<SignedInUser & { files: string[] }> {
  const signedUp = await signUp(app);
  expect((await app.app!.inject({ url: '/api/me', headers: signedUp.headers })).statusCode).toBe(
    200,
  );
  const files = [
    userStorageKey(signedUp.id, 'photos', 'photo-1.jpg'),
    userStorageKey(signedUp.id, 'generations', 'g-1', 'image.jpg'),
  ];
  for (const key of files) await app.deps.storage.put(key, jpeg, 'image/jpeg');
  return { ...signedUp, files };
}

function deleteAccount(headers: Record<string, string>, payload?: unknown) {
  return app.app!.inject({
    method: 'DELETE',
    url: '/api/account',
    headers: { origin: app.origin, ...headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function rowCounts(userId: string) {
  const db = app.deps.database.db;
  const count = async (rows: Promise<unknown[]>) => (await rows).length;
  return {
    user: await count(db.select().from(user).where(eq(user.id, userId))),
    sessions: await count(db.select().from(session).where(eq(session.userId, userId))),
    accounts: await count(db.select().from(account).where(eq(account.userId, userId))),
    profiles: await count(db.select().from(profiles).where(eq(profiles.userId, userId))),
    subscriptions: await count(
      db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    ),
  };
}

const noRows = { user: 0, sessions: 0, accounts: 0, profiles: 0, subscriptions: 0 };

describe('storage keys', () => {
  it('put every file of a user under users/{userId}/', () => {
    expect(userStoragePrefix('abc123')).toBe('users/abc123/');
    expect(userStorageKey('abc123', 'photos', 'p.jpg')).toBe('users/abc123/photos/p.jpg');
    expect(() => userStorageKey('../etc', 'x')).toThrow();
  });
});

describe('DELETE /api/account', () => {
  it('deletes the files, the rows and the session, and leaves other users alone', async () => {
    const doomed = await userWithData();
    const otherDevice = await signInElsewhere(app, doomed);
    const bystander = await userWithData();
    expect(await rowCounts(doomed.id)).toEqual({
      user: 1,
      sessions: 2,
      accounts: 1,
      profiles: 1,
      subscriptions: 1,
    });

    const response = await deleteAccount(doomed.headers, { confirm: 'DELETE' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cleared = [response.headers['set-cookie']].flat();
    expect(cleared.find((c) => c?.startsWith('likeness.session_token='))).toMatch(/Max-Age=0/);

    for (const key of doomed.files) expect(await app.deps.storage.exists(key)).toBe(false);
    expect(await rowCounts(doomed.id)).toEqual(noRows);

    // The old cookies (this device and the other one) no longer work; nor does the password.
    expect((await app.app!.inject({ url: '/api/me', headers: doomed.headers })).statusCode).toBe(
      401,
    );
    expect((await app.app!.inject({ url: '/api/me', headers: otherDevice })).statusCode).toBe(401);
    const signInAgain = await signIn(app, doomed);
    expect(signInAgain.statusCode).toBe(401);

    // Someone else's files and account are untouched.
    for (const key of bystander.files) expect(await app.deps.storage.exists(key)).toBe(true);
    expect((await app.app!.inject({ url: '/api/me', headers: bystander.headers })).statusCode).toBe(
      200,
    );
    expect((await rowCounts(bystander.id)).user).toBe(1);
  });

  it.each([
    ['no body', undefined],
    ['an empty body', {}],
    ['another word', { confirm: 'delete' }],
  ])('asks for the confirmation word (%s) and deletes nothing', async (_case, payload) => {
    const kept = await userWithData();
    const response = await deleteAccount(kept.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toMatch(/VALIDATION_ERROR|BAD_REQUEST/);
    if (payload) {
      expect(response.json().error.message).toContain(accountMessages.deleteAccount.confirmPrompt);
    }
    expect((await rowCounts(kept.id)).user).toBe(1);
    for (const key of kept.files) expect(await app.deps.storage.exists(key)).toBe(true);
  });

  it('needs a session', async () => {
    const response = await deleteAccount({}, { confirm: 'DELETE' });
    expect(response.statusCode).toBe(401);
  });

  it('is refused from another site', async () => {
    const kept = await userWithData();
    const response = await deleteAccount(
      { cookie: kept.headers.cookie, origin: 'https://evil.example' },
      { confirm: 'DELETE' },
    );
    expect(response.statusCode).toBe(403);
    expect((await rowCounts(kept.id)).user).toBe(1);
  });
});

describe('account deletion participants', () => {
  it('run inside the deletion, before the user row goes', async () => {
    const doomed = await userWithData();
    const seen: { userId: string; userRowPresent: boolean }[] = [];
    const billing: AccountDeletionParticipant = {
      name: 'billing (test)',
      async beforeDelete(tx, userId) {
        const rows = await tx.select().from(user).where(eq(user.id, userId));
        seen.push({ userId, userRowPresent: rows.length === 1 });
      },
    };
    const service = createAccountService({
      db: app.deps.database.db,
      runPrepared: app.deps.database.runPrepared,
      storage: app.deps.storage,
      deletionParticipants: [billing],
    });
    await service.deleteAccount(doomed.id);
    expect(seen).toEqual([{ userId: doomed.id, userRowPresent: true }]);
    expect(await rowCounts(doomed.id)).toEqual(noRows);
  });

  it('can refuse a deletion, which then deletes nothing at all', async () => {
    const kept = await userWithData();
    const service = createAccountService({
      db: app.deps.database.db,
      runPrepared: app.deps.database.runPrepared,
      storage: app.deps.storage,
      deletionParticipants: [
        {
          name: 'refuses',
          beforeDelete: async () => {
            throw new Error('a payment is still pending');
          },
        },
      ],
    });
    await expect(service.deleteAccount(kept.id)).rejects.toThrow('a payment is still pending');
    expect((await rowCounts(kept.id)).user).toBe(1);
    for (const key of kept.files) expect(await app.deps.storage.exists(key)).toBe(true);
    expect((await app.app!.inject({ url: '/api/me', headers: kept.headers })).statusCode).toBe(200);
  });
});
