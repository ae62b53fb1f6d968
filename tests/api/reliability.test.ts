import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BulkJob } from '../../src/common/api/generation.ts';
import { signupMessages } from '../../src/common/messages/auth.ts';
import type { Notifications } from '../../src/server/db/client.ts';
import { bulkJobs, session as sessions } from '../../src/server/db/schema/index.ts';
import {
  createPostgresEventBus,
  type EndedSessions,
} from '../../src/server/features/events/event-bus.ts';
import {
  defineJobType,
  defineWorker,
  type JobQueue,
  type JobType,
  type JobWorker,
  startJobQueue,
} from '../../src/server/jobs/job-queue.ts';
import { addPreset, trainedUser } from '../helpers/hostile.ts';
import { apiCaller, waitFor } from '../helpers/studio.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { sessionHeaders, type SignedInUser, signUp, uniqueEmail } from '../helpers/users.ts';

/**
 * Hostile use and heavy load (issue 21): streams that outlive their session, a model deleted
 * under its bulk jobs, sign-up races, personal answers a proxy could keep, and one user's bulk
 * in front of everyone else's pictures.
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ listen: true });
});
afterAll(async () => {
  await app?.stop();
});

interface RawStream {
  /** Resolves once the server ended the stream (never when the test gives up first). */
  ended: Promise<boolean>;
  ready: Promise<void>;
  /** The data lines received after `ready`. */
  data: string[];
  close(): void;
}

/** An /api/events stream read as a browser's EventSource would, noting when the server ends it. */
function openStream(cookie: string, giveUpMs = 15_000): RawStream {
  const controller = new AbortController();
  const data: string[] = [];
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const ended = (async () => {
    const timer = setTimeout(() => controller.abort(), giveUpMs);
    try {
      const response = await fetch(`${app.url}/api/events`, {
        headers: { cookie, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        text += decoder.decode(read.value, { stream: true });
        if (text.includes('event: ready')) markReady();
        for (const line of text.split('\n').filter((l) => l.startsWith('data: {"type'))) {
          if (!data.includes(line)) data.push(line);
        }
      }
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  })();
  return { ended, ready, data, close: () => controller.abort() };
}

async function signIn(user: SignedInUser, rememberMe = true) {
  const response = await app.app!.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: app.origin, 'content-type': 'application/json' },
    payload: { email: user.email, password: user.password, rememberMe },
  });
  expect(response.statusCode).toBe(200);
  return sessionHeaders(app, response.headers['set-cookie']);
}

const marker = (n: number) =>
  ({ type: 'photo.updated', data: { photoId: `marker-${n}`, status: 'passed' } }) as const;

describe('an event stream is bound to its session', () => {
  it('ends when the user signs out, and a new sign-in does not revive it', async () => {
    const user = await signUp(app);
    const stream = openStream(user.headers.cookie);
    await stream.ready;
    await app.deps.events.publish(user.id, marker(1));

    const signOut = await app.app!.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: user.headers,
    });
    expect(signOut.statusCode).toBe(204);
    expect(await stream.ended).toBe(true);

    // Signed in again (a new session): the account's events go to new streams only.
    const again = await signIn(user);
    const fresh = openStream(again.cookie);
    await fresh.ready;
    await app.deps.events.publish(user.id, marker(2));
    await waitFor(
      async () => fresh.data.length,
      (n) => n === 1,
      10_000,
    );
    fresh.close();
    expect(stream.data).toEqual([`data: ${JSON.stringify(marker(1))}`]);
  });

  it('ends when the account is deleted', async () => {
    const user = await signUp(app);
    const stream = openStream(user.headers.cookie);
    await stream.ready;
    const deleted = await app.app!.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { confirm: 'DELETE' },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await stream.ended).toBe(true);
  });

  it('ends when its session expires, while another device of the user stays connected', async () => {
    const user = await signUp(app);
    // "Remember me" off: Better Auth never extends such a session, so it really ends.
    const shortLived = await signIn(user, false);
    const token = decodeURIComponent(
      /likeness\.session_token=([^.;]+)/.exec(shortLived.cookie)![1]!,
    );
    await app.deps.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 2_000) })
      .where(eq(sessions.token, token));
    const expiring = openStream(shortLived.cookie);
    const other = openStream(user.headers.cookie, 30_000);
    await Promise.all([expiring.ready, other.ready]);
    expect(await expiring.ended).toBe(true);

    await app.deps.events.publish(user.id, marker(3));
    await waitFor(
      async () => other.data.length,
      (n) => n === 1,
      10_000,
    );
    other.close();
    expect(expiring.data).toEqual([]);
  });

  it('hears of ended sessions from other processes, through the Postgres bus', async () => {
    // The NOTIFY channel played by a loop: what one process sends, every process receives.
    const listeners: ((payload: string) => void)[] = [];
    const notifications: Notifications = {
      notify: async (_channel, payloads) =>
        payloads.forEach((payload) => listeners.forEach((listen) => listen(payload))),
      listen: async (_channel, onPayload) => {
        listeners.push(onPayload);
        return async () => {};
      },
    };
    const senderProcess = createPostgresEventBus(notifications);
    const streamProcess = createPostgresEventBus(notifications);
    await Promise.all([senderProcess.start(), streamProcess.start()]);
    const heard: EndedSessions[] = [];
    streamProcess.onSessionsEnded('u1', (ended) => heard.push(ended));
    streamProcess.onSessionsEnded('u2', () => heard.push(['not mine']));
    await senderProcess.endSessions('u1', ['s1']);
    await senderProcess.endSessions('u1', 'all');
    expect(heard).toEqual([['s1'], 'all']);
  });
});

describe('sign-up races', () => {
  it('answer 409 with the duplicate message, never 500, for one email signed up at once', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.app!.inject({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          headers: { origin: app.origin, 'content-type': 'application/json' },
          payload: { email, password: 'correct-horse-battery', name: 'race' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.statusCode === 409))
      expect(answer.json()).toEqual({
        error: { code: 'CONFLICT', message: signupMessages.alreadyRegistered },
      });
  });
});

describe('personal answers', () => {
  const personal = [
    '/api/me',
    '/api/billing/subscription',
    '/api/billing/ledger',
    '/api/studio/photos',
    '/api/studio/draft',
    '/api/studio/models',
    '/api/studio/settings',
    '/api/generations',
    '/api/bulk-jobs',
    '/api/tryons',
  ];

  it.each(personal)('GET %s is never stored by a browser or proxy', async (url) => {
    const user = await signUp(app);
    const response = await app.app!.inject({ url, headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('deleting a model', () => {
  it('settles its bulk jobs instead of leaving them processing with 0 of N', async () => {
    const api = apiCaller(app);
    const { user, model } = await trainedUser(app, api);
    const { presetId } = await addPreset(app);
    const bulk = await api.call<{ bulkJob: BulkJob }>(user, 'POST', '/api/bulk-jobs', {
      kind: 'presets',
      userModelId: model.id,
      presetIds: [presetId, presetId, presetId],
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(201);
    const deleted = await api.call(user, 'DELETE', `/api/studio/models/${model.id}`);
    expect(deleted.status).toBe(204);

    const left = await app.deps.database.db
      .select()
      .from(bulkJobs)
      .where(eq(bulkJobs.userId, user.id));
    expect(left).toEqual([]);
    expect((await api.call(user, 'GET', `/api/bulk-jobs/${bulk.body.bulkJob.id}`)).status).toBe(
      404,
    );
    expect((await api.call<{ bulkJobs: BulkJob[] }>(user, 'GET', '/api/bulk-jobs')).body).toEqual({
      bulkJobs: [],
    });
  }, 180_000);
});

describe('fair scheduling', () => {
  const fairType = defineJobType('test.fairness', z.object({ owner: z.string(), n: z.number() }));
  let queue: JobQueue;
  const done: string[] = [];

  beforeAll(async () => {
    queue = await startJobQueue({
      database: app.deps.database,
      types: [fairType as JobType<unknown>],
      pollSeconds: 0.5,
      supervise: false,
      heartbeatSeconds: 30,
      monitorSeconds: 30,
      onError: () => {},
    });
  });
  afterAll(async () => {
    await queue?.stop({ graceful: false, timeoutMs: 1_000 });
  });

  it("serves one user's single job right after the head of another's bulk", async () => {
    const bulk = 20;
    await queue.sendMany(
      fairType,
      Array.from({ length: bulk }, (_, n) => ({ owner: 'a', n })),
      { owner: 'user-a' },
    );
    await queue.send(fairType, { owner: 'b', n: 0 }, { owner: 'user-b' });
    // A second bulk of A's queues behind A's first, not in front of B.
    await queue.sendMany(
      fairType,
      Array.from({ length: 5 }, (_, n) => ({ owner: 'a', n: bulk + n })),
      { owner: 'user-a' },
    );
    await queue.work([
      defineWorker(
        fairType,
        async ({ owner, n }) => {
          done.push(`${owner}${n}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        },
        1,
      ) as JobWorker<unknown>,
    ]);
    await waitFor(
      async () => done.length,
      (count) => count === bulk + 6,
      60_000,
    );
    // Where B's job ran among the 66, as a share of A's backlog ahead of it: at most one of A's.
    expect(done.indexOf('b0')).toBeLessThanOrEqual(1);
    // A's own jobs keep their order, the second bulk after the first.
    const aOrder = done.filter((id) => id.startsWith('a')).map((id) => Number(id.slice(1)));
    expect(aOrder).toEqual([...aOrder].sort((x, y) => x - y));
    // Nothing is left with a priority pg-boss would have to skip.
    const left = await app.deps.database.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = ${fairType.name} and state < 'active'`,
    );
    expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  }, 90_000);
});
