import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, request } from '@playwright/test';
import { e2ePort } from './e2e-server.ts';
import { password } from './people.ts';

/**
 * A server of the test's own, on its own data directory, for tests that need an operator or a
 * configuration of their own (an engine pointed at a provider's fake).
 * Granting the admin role takes the command line (`npm run admin -- grant <email>`), which opens
 * the embedded database itself; PGlite allows one process at a time, so it cannot run beside the
 * shared e2e server: sign up, stop the server, grant, start it again.
 */
export class OwnServer {
  readonly origin: string;
  readonly dataDir: string;
  private child: ChildProcess | undefined;

  /** `offset` from the shared server's port keeps two checkouts' test runs apart. */
  constructor(name: string, offset: number) {
    this.origin = `http://127.0.0.1:${e2ePort + offset}`;
    this.dataDir = path.resolve(`.tmp/e2e-${name}-${Date.now()}`);
  }

  /** `env` adds to or overrides the server's environment (an engine and its fake, say). */
  async start(env: Record<string, string> = {}) {
    await mkdir(this.dataDir, { recursive: true });
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env,
        PORT: new URL(this.origin).port,
        PUBLIC_URL: this.origin,
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_DISABLED: 'true',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    this.child = child;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`The test's server exited (${child.exitCode})`);
      try {
        if ((await fetch(`${this.origin}/readyz`)).ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    child.kill('SIGTERM');
    throw new Error("The test's server did not start in time");
  }

  /** A clean stop, so PGlite releases the database for the command line. */
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }

  async signUp(email: string) {
    const context = await request.newContext({ baseURL: this.origin });
    const response = await context.post('/api/auth/sign-up/email', {
      data: { email, password, name: 'Catalog Operator' },
      headers: { origin: this.origin },
    });
    expect(response.status(), await response.text()).toBe(200);
    await context.dispose();
  }

  /** Signs `email` up, then makes it an admin through the command line (a restart). */
  async startWithAdmin(email: string) {
    await this.start();
    await this.signUp(email);
    await this.stop();
    const grant = spawnSync(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'src/server/cli/admin.ts', 'grant', email],
      { env: { ...process.env, DATA_DIR: this.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
    );
    expect(grant.status, `${grant.stdout}\n${grant.stderr}`).toBe(0);
    expect(grant.stdout).toContain(`${email} is now an admin.`);
    await this.start();
  }
}
