import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startFakeReplicate, type FakeReplicate } from '../fakes/replicate-api.ts';
import { OwnServer } from './support/own-server.ts';
import { signUpInBrowser } from './support/people.ts';
import {
  generateImageThroughApi,
  subscribeThroughApi,
  trainModelThroughApi,
} from './support/studio-api.ts';

// Generation on a GPU service, as a person sees it. This file runs its own server with the
// Replicate engine pointed at the Replicate fake (tests/fakes), whose predictions we script:
// - an image the safety checker flags (the local engine never flags one): "Couldn't Generate
//   Photo" with More Info in the list, the Content Notice on the detail page, no download, and
//   no file anywhere;
// - more images than a page (flagged ones: the fake makes them at once): Load more.
// Texts are written out (not imported from messages.ts): the tests check what a person reads.

let fake: FakeReplicate;
const server = new OwnServer('blocked', 1);
let context: BrowserContext;
let page: Page;
let modelId: string;

test.use({ baseURL: server.origin });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(600_000);
  fake = await startFakeReplicate();
  await server.start({ ...fake.env, TRAINING_POLL_SECONDS: '1' });
  // One person for the whole file, with a model trained on "Replicate".
  context = await browser.newContext({ baseURL: server.origin });
  page = await context.newPage();
  await signUpInBrowser(page, 'gpu');
  await subscribeThroughApi(page, 'price_pro');
  const training = trainModelThroughApi(page, 'GPU Look');
  // The fake runs the training when told to, as Replicate's GPUs would in their own time.
  await expect.poll(() => fake.trainings().length, { timeout: 240_000 }).toBeGreaterThan(0);
  await fake.completeTraining(String(fake.trainings()[0]!.id));
  modelId = await training;
});

test.afterAll(async () => {
  await context?.close();
  await server.stop();
  await fake?.close();
});

test('a flagged image shows the safety placeholder and the Content Notice, and cannot be downloaded', async () => {
  test.setTimeout(300_000);

  const { generationId, userId } =
    await test.step('the safety checker flags the image', async () => {
      fake.scriptPrediction({ outcome: 'nsfw' });
      const id = await generateImageThroughApi(page, modelId);
      const me = (await (await page.request.get('/api/me')).json()) as { user: { id: string } };
      return { generationId: id, userId: me.user.id };
    });

  await test.step("the generated tab shows Couldn't Generate Photo, with More Info", async () => {
    await page.goto('/dashboard?main=generation&sub=generated');
    const placeholder = page.getByTestId('blocked-placeholder');
    // It arrives live once the worker has the provider's answer (seconds on a busy machine).
    await expect(placeholder).toHaveCount(1, { timeout: 30_000 });
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
    const folder = path.join(server.dataDir, 'storage', 'users', userId, 'generations');
    const stored = existsSync(folder) ? readdirSync(folder) : [];
    expect(stored.filter((file) => file.startsWith(generationId))).toEqual([]);
    // Where its image would be, even the owner finds nothing.
    const guessed = await page.request.get(
      `/api/files/users/${userId}/generations/${generationId}.jpg`,
    );
    expect(guessed.ok()).toBe(false);
  });
});

test('the generated tab shows 50 images, and Load more brings the rest', async () => {
  test.setTimeout(300_000);
  const { presets } = (await (await page.request.get('/api/catalog/presets')).json()) as {
    presets: { id: string }[];
  };
  // With the one above, 52 single images: a full page and two more.
  for (let n = 0; n < 51; n += 1) {
    fake.scriptPrediction({ outcome: 'nsfw' });
    const started = await page.request.post('/api/generations', {
      data: { userModelId: modelId, presetId: presets[n % presets.length]!.id },
    });
    expect(started.status(), await started.text()).toBe(201);
  }
  await page.goto('/dashboard?main=generation&sub=generated');
  const cards = page.getByTestId('generation-card');
  await expect(cards).toHaveCount(50);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards).toHaveCount(52);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});
