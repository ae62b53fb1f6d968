import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '../../src/common/api/generation.ts';
import { startFakeReplicate, type FakeReplicate } from '../fakes/replicate-api.ts';
import { type EventStreamClient, openEventStream } from '../helpers/event-stream.ts';
import {
  type BrowserUser,
  freePort,
  type Proc,
  signUpOn,
  startProcess,
  until,
  waitUntilReady,
} from '../helpers/processes.ts';
import { usesPostgres } from '../helpers/test-app.ts';
import { uniqueEmail } from '../helpers/users.ts';

/**
 * Postgres restarting for real under load: a throwaway cluster of our own (never the shared
 * server), an app process on it, writes in flight (sign-ups and credit spends), then the server
 * stopped at once (`-m immediate`, as a crash or failover does) and started again. While it is
 * down the app must answer, in our error shape, and stay up; afterwards it must recover without a
 * restart: requests, a generation run by its worker, and event delivery (LISTEN reconnected).
 */

const binDir = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  const dir = version && path.join(root, version, 'bin');
  return dir && existsSync(path.join(dir, 'initdb')) ? dir : undefined;
})();

/** initdb and postgres refuse to run as root: the cluster belongs to the postgres user then. */
const owner = (() => {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
})();

const repoRoot = path.resolve(import.meta.dirname, '../..');
const clusterDir = path.join(repoRoot, '.tmp', `pg-restart-${process.pid}`);
const dataDir = path.join(clusterDir, 'data');
let port: number;

function pgTool(tool: string, args: string[]) {
  const result = spawnSync(path.join(binDir!, tool), args, {
    ...owner,
    env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`${tool} failed (${result.status}): ${result.stderr}${result.stdout}`);
}

const startPostgres = () =>
  pgTool('pg_ctl', [
    'start',
    '-w',
    '-D',
    dataDir,
    '-l',
    path.join(clusterDir, 'postgres.log'),
    '-o',
    `-p ${port} -k ${clusterDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
  ]);
const stopPostgres = (mode: 'immediate' | 'fast') =>
  pgTool('pg_ctl', ['stop', '-w', '-D', dataDir, '-m', mode]);

describe.skipIf(!usesPostgres || !binDir)('Postgres restarting under load', () => {
  let fake: FakeReplicate;
  let app: Proc;
  let alice: BrowserUser;
  let modelId: string;
  let stream: EventStreamClient | undefined;
  let clusterStarted = false;

  async function call(method: string, url: string, body?: unknown) {
    const response = await fetch(`${app.url}${url}`, {
      method,
      headers: {
        origin: app.url,
        cookie: alice.cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text };
  }

  const generate = () =>
    call('POST', '/api/generations/custom', { userModelId: modelId, prompt: 'photo of TOK' });

  beforeAll(async () => {
    mkdirSync(clusterDir, { recursive: true });
    if (owner.uid !== undefined) chownSync(clusterDir, owner.uid, owner.gid!);
    port = await freePort();
    pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
    startPostgres();
    clusterStarted = true;
    fake = await startFakeReplicate();
    app = await startProcess('app', 'all', `postgres://postgres@127.0.0.1:${port}/postgres`, {
      env: { ...fake.env, TRAINING_POLL_SECONDS: '1' },
    });
    await waitUntilReady(app);

    alice = await signUpOn(app);
    const checkout = await call('POST', '/api/billing/checkout', { priceId: 'price_pro' });
    const checkoutId = decodeURIComponent(
      /\/test-checkout\/([^/?]+)$/.exec((JSON.parse(checkout.text) as { url: string }).url)![1]!,
    );
    expect((await call('POST', `/api/billing/test-checkout/${checkoutId}/pay`)).status).toBe(200);
    // A model trained at the provider (its version exists there), written as training leaves it.
    const db = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    await db.connect();
    modelId = `restart-model-${process.pid}`;
    await db.query(
      `insert into user_models (id, user_id, name, gender, status, paid_with, photo_count, engine,
         engine_reference, weights, trigger_word, completed_at)
       values ($1, $2, 'Restart', 'woman', 'complete', 'credits', 8, 'replicate', $1, $3, 'TOK', now())`,
      [modelId, alice.id, fake.addVersion()],
    );
    await db.end();
  }, 180_000);

  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.error(app?.output.join('').slice(-6000));
  });

  afterAll(async () => {
    stream?.close();
    if (app && app.child.exitCode === null && app.child.signalCode === null)
      app.child.kill('SIGKILL');
    await app?.exited;
    await fake?.close();
    if (clusterStarted) stopPostgres('immediate');
    rmSync(clusterDir, { recursive: true, force: true });
    if (app) rmSync(app.dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers cleanly while the database is down and recovers without a restart', async () => {
    stream = openEventStream(app.url, alice.cookie);
    await stream.ready;
    // Before: a generation completes and its event arrives.
    const first = await generate();
    expect(first.status, first.text).toBe(201);
    const firstId = (JSON.parse(first.text) as { generation: Generation }).generation.id;
    await stream.waitFor(
      (e) =>
        e.type === 'generation.updated' &&
        e.data.generationId === firstId &&
        e.data.status === 'complete',
      60_000,
    );

    // Writes in flight: sign-ups and credit spends, one after another, until told to stop.
    const answers: { status: number; text: string }[] = [];
    let running = true;
    const load = (async () => {
      for (let n = 0; running; n += 1) {
        const answer =
          n % 2
            ? await generate().catch(() => ({ status: 0, text: '' }))
            : await fetch(`${app.url}/api/auth/sign-up/email`, {
                method: 'POST',
                headers: { origin: app.url, 'content-type': 'application/json' },
                body: JSON.stringify({
                  email: uniqueEmail('restart'),
                  password: 'correct-horse-battery',
                  name: 'Load',
                }),
              }).then(
                async (response) => ({ status: response.status, text: await response.text() }),
                () => ({ status: 0, text: '' }),
              );
        answers.push(answer);
      }
    })();
    await until('some writes before the stop', async () =>
      answers.length >= 4 ? true : undefined,
    );

    stopPostgres('immediate');
    const atStop = answers.length;
    await until(
      'failed writes while the database is down',
      async () =>
        answers.slice(atStop).filter((answer) => answer.status >= 500).length >= 4
          ? true
          : undefined,
      30_000,
    );
    // The process is up and says it cannot work: liveness yes, readiness no.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
    const during = answers.slice(atStop);

    startPostgres();
    await until(
      'writes to succeed again',
      async () =>
        answers.slice(atStop).some((a, i) => i >= during.length && a.status < 300)
          ? true
          : undefined,
      60_000,
    );
    running = false;
    await load;

    // Every request got an answer (no reset connection); one that failed was a clean 5xx in our
    // shape, never a 4xx blaming the user's input (one in flight at the stop may have succeeded).
    for (const answer of during.filter((a) => a.status >= 300 || a.status === 0)) {
      expect([500, 503], answer.text).toContain(answer.status);
      expect(JSON.parse(answer.text), answer.text).toHaveProperty('error.code');
    }
    expect(app.child.exitCode).toBeNull();

    // The same process recovers: ready again, a generation completes, and its event is delivered
    // through the LISTEN connection the app had to open again.
    await until('readiness', async () =>
      (await fetch(`${app.url}/readyz`)).status === 200 ? true : undefined,
    );
    const after = await generate();
    expect(after.status, after.text).toBe(201);
    const afterId = (JSON.parse(after.text) as { generation: Generation }).generation.id;
    // The stream opened before the outage, as a browser's EventSource would still hold it.
    await stream.waitFor(
      (e) =>
        e.type === 'generation.updated' &&
        e.data.generationId === afterId &&
        e.data.status === 'complete',
      90_000,
    );
  }, 300_000);
});
