import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EventStreamClient, openEventStream } from '../helpers/event-stream.ts';
import { createTestDatabase, dropTestDatabase, usesPostgres } from '../helpers/test-app.ts';
import { uniqueEmail } from '../helpers/users.ts';

/**
 * The production topology for real: two stateless web processes and one worker, separate
 * operating-system processes sharing nothing but Postgres. Only Postgres proves this (PGlite
 * lives inside one process), so the file is skipped without TEST_DATABASE_URL.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const authSecret = randomBytes(32).toString('hex');

interface Proc {
  name: string;
  child: ChildProcess;
  dataDir: string;
  url: string;
  /** stdout + stderr, shown when something goes wrong. */
  output: string[];
  exited: Promise<number | null>;
}

interface BrowserUser {
  id: string;
  email: string;
  cookie: string;
}

const takenPorts = new Set<number>();

/**
 * A free port below the kernel's ephemeral range (32768+), so no `listen(0)` elsewhere on the
 * machine can take it between this check and the child binding it.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (takenPorts.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      takenPorts.add(port);
      return port;
    }
  }
}

function spawnNode(
  name: string,
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): { child: ChildProcess; output: string[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(`[${name}] ${chunk.toString()}`));
  child.stderr!.on('data', (chunk: Buffer) => output.push(`[${name}] ${chunk.toString()}`));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? null : code)),
  );
  return { child, output, exited };
}

async function startProcess(
  name: string,
  role: 'web' | 'worker',
  databaseUrl: string,
): Promise<Proc> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `likeness-${name}-`));
  const spawned = spawnNode(name, 'src/server/main.ts', {
    ROLE: role,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    NODE_ENV: 'test',
    AUTH_SECRET: authSecret,
    JOB_POLL_SECONDS: '0.5',
    SHUTDOWN_TIMEOUT_MS: '5000',
  });
  return { name, dataDir, url, ...spawned };
}

/** Polls with a deadline: processes take a few seconds to start on a busy machine. */
async function until<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function waitUntilReady(proc: Proc): Promise<void> {
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(
      `${proc.name} exited with ${code} before it was ready:\n${proc.output.join('')}`,
    );
  });
  // Handled here so the exit at the end of the test is not an unhandled rejection.
  exitedEarly.catch(() => {});
  await Promise.race([
    until(`${proc.name} /readyz`, async () => {
      const response = await fetch(`${proc.url}/readyz`);
      // Only while the child is alive is the answer its own, not another listener's.
      return response.status === 200 && proc.child.exitCode === null ? true : undefined;
    }),
    exitedEarly,
  ]);
}

async function signUpOn(web: Proc): Promise<BrowserUser> {
  const email = uniqueEmail('multi');
  const response = await fetch(`${web.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: web.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'Multi' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { id: body.user.id, email, cookie };
}

function outboxOf(proc: Proc): { to: string; subject: string; text: string }[] {
  const dir = path.join(proc.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map(
      (name) =>
        JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as {
          to: string;
          subject: string;
          text: string;
        },
    );
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

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // All three start at once, as a deploy would: migrations and pg-boss's schema must cope.
    web1 = await startProcess('web1', 'web', databaseUrl);
    processes.push(web1);
    web2 = await startProcess('web2', 'web', databaseUrl);
    processes.push(web2);
    worker = await startProcess('worker', 'worker', databaseUrl);
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

    const forAlice = { type: 'generation.updated', data: { id: 'g-1', status: 'complete' } };
    const forBob = { type: 'marker', data: { for: 'bob' } };
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
