import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { uniqueEmail } from './users.ts';

/**
 * Separate web and worker processes on one Postgres, as production runs them (multi-process and
 * scale-out tests). Each process is the server's entry point (see `nodeArguments`) with its own
 * port.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const authSecret = randomBytes(32).toString('hex');

export interface Proc {
  name: string;
  child: ChildProcess;
  dataDir: string;
  url: string;
  /** stdout + stderr, shown when something goes wrong. */
  output: string[];
  exited: Promise<number | null>;
}

export interface BrowserUser {
  id: string;
  email: string;
  cookie: string;
}

const takenPorts = new Set<number>();

/**
 * A free port below the kernel's ephemeral range (32768+), so no `listen(0)` elsewhere on the
 * machine can take it between this check and the child binding it.
 */
export async function freePort(): Promise<number> {
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

/**
 * The server's entry points and their build (scripts/build-server.mjs). `npm test` builds first
 * and sets TEST_SERVER_BUILD=dist, so its child processes run what production runs, and each
 * starts in half the time and CPU it takes through tsx (5 s against 11 s to /readyz on a busy
 * two-core machine). A bare `vitest` run (no build assumed) runs the sources.
 */
const builtEntryPoints: Record<string, string> = {
  'src/server/main.ts': 'dist/server/main.mjs',
  'src/server/cli/admin.ts': 'dist/server/admin.mjs',
  'src/server/cli/content.ts': 'dist/server/content.mjs',
};

/** Node's arguments to run `script` (a path from the repository's root). */
export function nodeArguments(script: string): string[] {
  const built = process.env.TEST_SERVER_BUILD === 'dist' ? builtEntryPoints[script] : undefined;
  return built ? [built] : ['--import', 'tsx', script];
}

export function spawnNode(
  name: string,
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): { child: ChildProcess; output: string[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeArguments(script), ...args], {
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

export async function startProcess(
  name: string,
  role: 'web' | 'worker' | 'all',
  databaseUrl: string,
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<Proc> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // Processes that share files (local storage standing in for a bucket) share a data directory.
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `likeness-${name}-`));
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
    // Jobs and events are under test here, not pictures: no super-resolution.
    LOCAL_ENGINE_DRAFT: 'true',
    ...options.env,
  });
  return { name, dataDir, url, ...spawned };
}

/** Polls with a deadline: processes take a few seconds to start on a busy machine. */
export async function until<T>(
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

export async function waitUntilReady(proc: Proc): Promise<void> {
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(
      `${proc.name} exited with ${code} before it was ready:\n${proc.output.join('')}`,
    );
  });
  // Handled here so the exit at the end of the test is not an unhandled rejection.
  exitedEarly.catch(() => {});
  await Promise.race([
    until(
      `${proc.name} /readyz`,
      async () => {
        const response = await fetch(`${proc.url}/readyz`);
        // Only while the child is alive is the answer its own, not another listener's.
        return response.status === 200 && proc.child.exitCode === null ? true : undefined;
      },
      // Four processes starting from the sources at once, beside the browser tests, took over
      // 60 s to answer in a full CI run.
      180_000,
    ),
    exitedEarly,
  ]);
}

export async function signUpOn(web: Proc): Promise<BrowserUser> {
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

export function outboxOf(proc: Proc): { to: string; subject: string; text: string }[] {
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
