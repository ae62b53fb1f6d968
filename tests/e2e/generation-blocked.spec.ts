import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeReplicate, type FakeReplicate } from '../fakes/replicate-api.ts';
import { e2ePort } from './support/e2e-server.ts';
import { signUpInBrowser } from './support/people.ts';
import {
  generateImageThroughApi,
  subscribeThroughApi,
  trainModelThroughApi,
} from './support/studio-api.ts';

// An image the engine's safety checker flags, as a person sees it. The local engine never flags
// one, so this file runs its own server with the Replicate engine pointed at the Replicate fake
// (tests/fakes), which flags the prediction we script: "Couldn't Generate Photo" with More Info
// in the list, the Content Notice on the detail page, no download, and no file anywhere.
// Texts are written out (not imported from messages.ts): the tests check what a person reads.

const port = e2ePort + 1;
const origin = `http://127.0.0.1:${port}`;
const dataDir = path.resolve(`.tmp/e2e-blocked-${Date.now()}`);

let fake: FakeReplicate;
let server: ChildProcess | undefined;

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      ...fake.env,
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DISABLED: 'true',
      TRAINING_POLL_SECONDS: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The test server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  child.kill('SIGTERM');
  throw new Error('The test server did not start in time');
}

test.use({ baseURL: origin });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await mkdir(dataDir, { recursive: true });
  fake = await startFakeReplicate();
  server = await startServer();
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await fake?.close();
});

test('a flagged image shows the safety placeholder and the Content Notice, and cannot be downloaded', async ({
  page,
}) => {
  test.setTimeout(600_000);

  const { generationId, userId } =
    await test.step('a Pro user trains on Replicate, and the safety checker flags the image', async () => {
      await signUpInBrowser(page, 'flagged');
      await subscribeThroughApi(page, 'price_pro');
      const training = trainModelThroughApi(page, 'Flagged Look');
      // The fake runs the training when told to, as Replicate's GPUs would in their own time.
      await expect.poll(() => fake.trainings().length, { timeout: 240_000 }).toBeGreaterThan(0);
      await fake.completeTraining(String(fake.trainings()[0]!.id));
      const modelId = await training;
      fake.scriptPrediction({ outcome: 'nsfw' });
      const id = await generateImageThroughApi(page, modelId);
      const me = (await (await page.request.get('/api/me')).json()) as { user: { id: string } };
      return { generationId: id, userId: me.user.id };
    });

  await test.step("the generated tab shows Couldn't Generate Photo, with More Info", async () => {
    await page.goto('/dashboard?main=generation&sub=generated');
    const placeholder = page.getByTestId('blocked-placeholder');
    await expect(placeholder).toHaveCount(1);
    await expect(placeholder).toContainText("Couldn't Generate Photo");
    await expect(placeholder).toContainText('This content was blocked by our safety filters');
    await placeholder.getByRole('button', { name: 'More Info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Why was this blocked?' });
    await expect(dialog).toContainText('Our service does not allow NSFW content.');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  await test.step('the detail page shows the Content Notice and offers no download', async () => {
    await page.goto(`/generations/${generationId}`);
    await expect(page.getByText('Content Notice')).toBeVisible();
    await expect(
      page.getByText('This generation was flagged by our safety filters and cannot be displayed.'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
    await expect(page.locator('main img')).toHaveCount(0);
  });

  await test.step('there is no file to fetch: no address, and nothing stored', async () => {
    const detail = (await (await page.request.get(`/api/generations/${generationId}`)).json()) as {
      generation: Record<string, unknown>;
    };
    expect(detail.generation).toMatchObject({
      status: 'complete',
      hasNsfwContent: true,
      imageUrl: null,
      thumbnailUrl: null,
      downloadUrl: null,
    });
    const folder = path.join(dataDir, 'storage', 'users', userId, 'generations');
    const stored = existsSync(folder) ? readdirSync(folder) : [];
    expect(stored.filter((file) => file.startsWith(generationId))).toEqual([]);
    // Where its image would be, even the owner finds nothing.
    const guessed = await page.request.get(
      `/api/files/users/${userId}/generations/${generationId}.jpg`,
    );
    expect(guessed.ok()).toBe(false);
  });
});
