import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LandingResponse } from '../../../common/api/catalog.ts';
import {
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  type TestApp,
  usesPostgres,
} from '../../../../tests/helpers/test-app.ts';
import { sessionHeaders, signUp } from '../../../../tests/helpers/users.ts';
import { nodeArguments } from '../../../../tests/helpers/processes.ts';

// The operator commands run as their own processes against the app's data, as an operator
// would run them: the app is stopped first when the database is the embedded one.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'likeness-cli-'));
let databaseUrl: string | undefined;

async function cli(script: 'admin' | 'content', ...args: string[]) {
  // Only what the command needs: the configuration of this test's data, nothing inherited.
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl ?? '',
  };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...nodeArguments(`src/server/cli/${script}.ts`), ...args],
      { cwd: root, env, timeout: 120_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const startApp = () =>
  createTestApp({ dataDir, persistent: true, ...(databaseUrl ? { databaseUrl } : {}) });

let email: string;
let password: string;

beforeAll(async () => {
  if (usesPostgres) databaseUrl = await createTestDatabase();
  const app = await startApp();
  ({ email, password } = await signUp(app));
  await app.stop();
}, 120_000);
afterAll(async () => {
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
});

function writeContentFolder(manifest: unknown, pictures: Record<string, string>): string {
  const folder = mkdtempSync(path.join(dataDir, 'content-'));
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
  for (const [name, source] of Object.entries(pictures)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    copyFileSync(path.join(root, source), path.join(folder, name));
  }
  return folder;
}

const manifest = {
  categories: [{ manualId: 'imported', displayName: 'Imported', emoji: '📦', featured: true }],
  presets: [
    {
      manualId: 'imported-look',
      categoryId: 'imported',
      displayName: 'Imported Look',
      description: 'Made by the import.',
      prompt: 'portrait of {trigger}, imported',
      featuredImage: 'pictures/look.jpg',
      additionalImages: ['pictures/look-2.jpg'],
    },
  ],
  examplePhotos: [{ image: 'pictures/look.jpg', goodOrBad: 'good', caption: 'Imported example' }],
  quizImages: [{ image: 'pictures/look-2.jpg', isAi: false }],
};

describe('npm run admin', () => {
  it('says clearly that an unknown email has to sign up first', async () => {
    const result = await cli('admin', 'grant', 'nobody@example.com');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'No user has the email nobody@example.com. They need to sign up first, then run this again.',
    );
  }, 120_000);

  it('grants, lists and revokes the admin role', async () => {
    const granted = await cli('admin', 'grant', email.toUpperCase());
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout.trim()).toBe(`${email} is now an admin.`);
    const listed = await cli('admin', 'list');
    expect(listed.stdout.trim()).toBe(email);
    const usage = await cli('admin', 'promote');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('npm run admin -- grant <email>');
  }, 120_000);
});

describe('npm run content -- import', () => {
  it('imports a folder, and importing it again changes nothing', async () => {
    const folder = writeContentFolder(manifest, {
      'pictures/look.jpg': 'assets/seed/person-a/a-01.jpg',
      'pictures/look-2.jpg': 'assets/seed/person-a/a-02.jpg',
    });
    // Each import's report, line by line: the first creates and adds, the second finds it all.
    for (const report of [
      [
        'categories: 1 created, 0 updated',
        'presets: 1 created, 0 updated, 2 pictures added',
        'example photos: 1 added, 0 already there',
        'quiz images: 1 added, 0 already there',
      ],
      [
        'categories: 0 created, 1 updated',
        'presets: 0 created, 1 updated, 0 pictures added',
        'example photos: 0 added, 1 already there',
        'quiz images: 0 added, 1 already there',
      ],
    ]) {
      const imported = await cli('content', 'import', folder);
      expect(imported.code, imported.stderr).toBe(0);
      for (const line of report) expect(imported.stdout).toContain(line);
    }
  }, 240_000);

  it('refuses a folder with a picture that is not a photo, before changing anything', async () => {
    const folder = writeContentFolder(
      { ...manifest, presets: [{ ...manifest.presets[0], featuredImage: 'drawing.svg' }] },
      {
        'drawing.svg': 'tests/fixtures/photos/bad-files/svg-with-script.svg',
        'pictures/look-2.jpg': 'assets/seed/person-a/a-02.jpg',
        'pictures/look.jpg': 'assets/seed/person-a/a-01.jpg',
      },
    );
    const result = await cli('content', 'import', folder);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'drawing.svg: Not a supported image type (JPEG, PNG or WebP)',
    );
  }, 120_000);

  it('leaves the app with the admin and the imported content', async () => {
    let app: TestApp | undefined;
    try {
      app = await startApp();
      const signIn = await app.app!.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: app.origin, 'content-type': 'application/json' },
        payload: { email, password },
      });
      const headers = sessionHeaders(app, signIn.headers['set-cookie']);
      const me = await app.app!.inject({ url: '/api/me', headers });
      expect(me.json().user.role).toBe('admin');
      const landing = (
        await app.app!.inject({ url: '/api/catalog/landing' })
      ).json<LandingResponse>();
      expect(landing.categories).toEqual([
        {
          manualId: 'imported',
          displayName: 'Imported',
          emoji: '📦',
          presets: [expect.objectContaining({ manualId: 'imported-look' })],
        },
      ]);
    } finally {
      await app?.stop();
    }
    const revoked = await cli('admin', 'revoke', email);
    expect(revoked.stdout.trim()).toBe(`${email} is no longer an admin.`);
  }, 240_000);
});
