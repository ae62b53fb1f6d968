import { readFileSync, rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../src/common/messages/account.ts';
import { startFakeFashn, type FakeFashn } from '../fakes/fashn-api.ts';
import { type EventStreamClient, openEventStream } from '../helpers/event-stream.ts';
import {
  type BrowserUser,
  outboxOf,
  type Proc,
  signUpOn,
  spawnNode,
  startProcess,
  until,
  waitUntilReady,
} from '../helpers/processes.ts';
import { photoFixtures } from '../helpers/studio.ts';
import { createTestDatabase, dropTestDatabase, usesPostgres } from '../helpers/test-app.ts';

/**
 * The production topology for real: two stateless web processes and one worker, separate
 * operating-system processes sharing nothing but Postgres. Only Postgres proves this (PGlite
 * lives inside one process), so the file is skipped without TEST_DATABASE_URL.
 */

/** A JSON POST as the browser sends it; answers the parsed body after checking it succeeded. */
async function postJson(web: Proc, user: BrowserUser, url: string, body?: unknown) {
  const response = await fetch(`${web.url}${url}`, {
    method: 'POST',
    headers: {
      origin: web.url,
      cookie: user.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

describe.skipIf(!usesPostgres)('web and worker as separate processes on one Postgres', () => {
  let databaseUrl: string;
  let web1: Proc;
  let web2: Proc;
  let worker: Proc;
  const processes: Proc[] = [];
  let alice: BrowserUser;
  let bob: BrowserUser;
  const streams: EventStreamClient[] = [];
  let fashn: FakeFashn;
  const metricsToken = 'multi-process-scrape';

  beforeAll(async () => {
    // Try-on with FASHN is the cheapest way to make an engine fail inside the worker.
    fashn = await startFakeFashn();
    // Sessions kept for an hour: a web process can only refuse a revoked one it has cached by
    // hearing of the revocation.
    const env = { ...fashn.env, METRICS_TOKEN: metricsToken, SESSION_CACHE_SECONDS: '3600' };
    databaseUrl = await createTestDatabase();
    // All three start at once, as a deploy would: migrations and pg-boss's schema must cope.
    web1 = await startProcess('web1', 'web', databaseUrl, { env });
    processes.push(web1);
    web2 = await startProcess('web2', 'web', databaseUrl, { env });
    processes.push(web2);
    worker = await startProcess('worker', 'worker', databaseUrl, { env });
    processes.push(worker);
    await Promise.all([waitUntilReady(web1), waitUntilReady(web2)]);
  }, 120_000);

  afterEach((context) => {
    // A failure across processes is only explicable with what the processes said.
    if (context.task.result?.state === 'fail') {
      for (const proc of processes)
        console.error(proc.output.join('') || `[${proc.name}] (no output)`);
    }
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const proc of processes) {
      if (proc.child.exitCode === null && proc.child.signalCode === null)
        proc.child.kill('SIGKILL');
    }
    await Promise.all(processes.map((proc) => proc.exited));
    for (const proc of processes) rmSync(proc.dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    await fashn?.close();
  }, 60_000);

  it('signs users up on either web process', async () => {
    alice = await signUpOn(web1);
    bob = await signUpOn(web2);
    expect(alice.cookie).toContain('session_token=');
    expect(bob.cookie).toContain('session_token=');
  });

  it("accepts a session on any web process and delivers another process's event to its user only", async () => {
    // Each stream is held by the web process the user did not sign up on: the session lives in
    // the shared database, so a stream that opens (`ready`) proves any web process accepts it.
    const aliceStream = openEventStream(web2.url, alice.cookie);
    const bobStream = openEventStream(web1.url, bob.cookie);
    streams.push(aliceStream, bobStream);
    await Promise.all([aliceStream.ready, bobStream.ready]);

    const forAlice = {
      type: 'generation.updated',
      data: { generationId: 'g-1', status: 'complete', bulkJobId: null },
    } as const;
    const forBob = { type: 'photo.updated', data: { photoId: 'bob', status: 'passed' } } as const;
    const publisher = spawnNode(
      'publisher',
      'tests/helpers/publish-event.ts',
      { DATABASE_URL: databaseUrl },
      [alice.id, JSON.stringify(forAlice), bob.id, JSON.stringify(forBob)],
    );
    expect(await publisher.exited, publisher.output.join('')).toBe(0);

    expect(await aliceStream.waitFor((event) => event.type === forAlice.type, 20_000)).toEqual(
      forAlice,
    );
    // Bob's marker was published after Alice's event: once it is here, hers would be too.
    await bobStream.waitFor((event) => event.type === forBob.type, 20_000);
    expect(bobStream.events).toEqual([forBob]);
    expect(aliceStream.events).toEqual([forAlice]);
  }, 60_000);

  it('runs a job sent by a web process on the worker process', async () => {
    const response = await fetch(`${web1.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { origin: web1.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: alice.email, redirectTo: '/reset-password' }),
    });
    expect(response.status, await response.clone().text()).toBe(200);

    const email = await until(
      'the reset email in the worker outbox',
      async () => outboxOf(worker).find((message) => message.to === alice.email),
      30_000,
    );
    expect(email.subject).toBe('Reset your Likeness password');
    expect(email.text).toContain(`${web1.url}/api/auth/reset-password/`);
    // Web processes have no workers: the email was not sent by them.
    expect(outboxOf(web1)).toEqual([]);
    expect(outboxOf(web2)).toEqual([]);
  }, 60_000);

  it("serves the worker's health and metrics from the worker: the jobs it ran and an engine's failure", async () => {
    // The same probe the Dockerfile's HEALTHCHECK uses answers for a worker too.
    await waitUntilReady(worker);
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    // Only health and metrics: the API stays on the web processes.
    const api = await fetch(`${worker.url}/api/studio/models`, {
      headers: { cookie: alice.cookie },
    });
    expect(api.status).toBe(404);
    expect(await api.json()).toHaveProperty('error.code', 'NOT_FOUND');
    expect((await fetch(`${worker.url}/metrics`)).status).toBe(404);

    // A try-on whose start FASHN refuses (a final 400): the worker's engine fails once.
    const checkout = await postJson(web1, alice, '/api/billing/checkout', { priceId: 'price_pro' });
    const checkoutId = decodeURIComponent(
      /\/test-checkout\/([^/?]+)$/.exec(checkout.url as string)![1]!,
    );
    await postJson(web1, alice, `/api/billing/test-checkout/${checkoutId}/pay`);
    fashn.failNext({ match: 'POST /v1/run', status: 400 });
    const form = new FormData();
    const photo = (n: number) =>
      new Blob([readFileSync(photoFixtures.personA(n))], { type: 'image/jpeg' });
    form.append('person', photo(1), 'person.jpg');
    form.append('garment', photo(2), 'garment.jpg');
    const started = await fetch(`${web2.url}/api/tryons`, {
      method: 'POST',
      headers: { origin: web2.url, cookie: alice.cookie },
      body: form,
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const { tryOn } = (await started.json()) as { tryOn: { id: string } };
    await until(
      'the try-on to fail',
      async () => {
        const response = await fetch(`${web1.url}/api/tryons/${tryOn.id}`, {
          headers: { cookie: alice.cookie },
        });
        const body = (await response.json()) as { tryOn: { status: string } };
        return body.tryOn.status === 'failed' ? true : undefined;
      },
      30_000,
    );

    const scrape = async (proc: Proc) => {
      const response = await fetch(`${proc.url}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    // The row turns failed inside the job; the job is counted once its handler returns.
    const fromWorker = await until(
      'the worker to count the try-on job',
      async () => {
        const text = await scrape(worker);
        return /likeness_jobs_total\{queue="tryon\.run"/.test(text) ? text : undefined;
      },
      10_000,
    );
    // The reset email of the test before, and the try-on: each counted where it ran.
    expect(fromWorker).toMatch(
      /likeness_jobs_total\{queue="email\.send",outcome="completed"\} 1\n/,
    );
    expect(fromWorker).toMatch(/likeness_jobs_total\{queue="tryon\.run",outcome="completed"\} 1\n/);
    expect(fromWorker).toMatch(/likeness_job_duration_seconds_count\{queue="tryon\.run"\} 1\n/);
    expect(fromWorker).toMatch(
      /likeness_engine_errors_total\{engine="fashn",operation="tryon",kind="final"\} 1\n/,
    );
    // The worker's runtime too: face analysis and image work run there.
    expect(fromWorker).toMatch(/^nodejs_eventloop_lag_seconds [\d.e+-]+$/m);
    expect(fromWorker).toMatch(/^nodejs_heap_size_used_bytes \d+$/m);
    // Web processes ran no job and called no engine: their series stay empty.
    for (const web of [web1, web2]) {
      const text = await scrape(web);
      expect(text).not.toMatch(/^likeness_jobs_total\{/m);
      expect(text).not.toMatch(/^likeness_engine_errors_total\{/m);
    }
  }, 60_000);

  it('refuses a signed-out or deleted account on every web process, though each had its session cached', async () => {
    const status = async (web: Proc, user: BrowserUser) =>
      (await fetch(`${web.url}/api/me`, { headers: { cookie: user.cookie } })).status;
    const carol = await signUpOn(web1);
    const dave = await signUpOn(web2);
    for (const user of [carol, dave])
      expect([await status(web1, user), await status(web2, user)]).toEqual([200, 200]);

    const signOut = await fetch(`${web1.url}/api/account/sign-out`, {
      method: 'POST',
      headers: { origin: web1.url, cookie: carol.cookie },
    });
    expect(signOut.status).toBe(204);
    // The copied cookie is refused at once where the sign-out happened, and by the other
    // process as soon as the announcement reaches it (the cache would have kept it an hour).
    expect(await status(web1, carol)).toBe(401);
    await until('web2 to refuse the signed-out session', async () =>
      (await status(web2, carol)) === 401 ? true : undefined,
    );

    const deleted = await fetch(`${web2.url}/api/account`, {
      method: 'DELETE',
      headers: { origin: web2.url, cookie: dave.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: accountMessages.deleteAccount.confirmWord }),
    });
    expect(deleted.status).toBe(204);
    expect(await status(web2, dave)).toBe(401);
    await until('web1 to refuse the deleted account', async () =>
      (await status(web1, dave)) === 401 ? true : undefined,
    );
    // Nobody else was signed out.
    expect([await status(web1, alice), await status(web2, alice)]).toEqual([200, 200]);
  });

  it('shuts every process down cleanly on SIGTERM, open streams included', async () => {
    expect(streams.length).toBeGreaterThan(0);
    for (const proc of processes) proc.child.kill('SIGTERM');
    const codes = await Promise.all(
      processes.map((proc) =>
        Promise.race([
          proc.exited,
          new Promise<string>((resolve) =>
            setTimeout(() => resolve(`${proc.name} still running after 15 s`), 15_000).unref(),
          ),
        ]),
      ),
    );
    expect(codes, processes.map((proc) => proc.output.join('')).join('')).toEqual([0, 0, 0]);
  }, 30_000);
});
