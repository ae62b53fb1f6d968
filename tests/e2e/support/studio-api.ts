import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIResponse, type Page } from '@playwright/test';

/**
 * Setting a test person up through the API (the browser's cookies, the server's real rules) when
 * a journey needs a plan, a trained model or a generated image but is not about making them:
 * the UI for those has its own journeys (billing.spec.ts, model-creation.spec.ts).
 */

const seedPhotos = Array.from({ length: 8 }, (_, index) =>
  path.resolve('assets/seed/person-a', `a-0${index + 1}.jpg`),
);

/** Validation (face detection on two shared cores) and local training take a while. */
const validationTimeoutMs = 150_000;
const trainingTimeoutMs = 240_000;
const generationTimeoutMs = 120_000;

async function json<T>(response: APIResponse): Promise<T> {
  expect(
    response.ok(),
    `${response.url()} answered ${response.status()}: ${await response.text()}`,
  ).toBe(true);
  return (await response.json()) as T;
}

/** Buys a plan with the test-mode provider (BILLING=local), as its checkout page would. */
export async function subscribeThroughApi(page: Page, priceId: 'price_basic' | 'price_pro') {
  const checkout = await json<{ url: string }>(
    await page.request.post('/api/billing/checkout', { data: { priceId } }),
  );
  const id = new URL(checkout.url, 'http://localhost').pathname.split('/').pop() ?? '';
  expect(id, `checkout URL ${checkout.url}`).not.toBe('');
  await json(await page.request.post(`/api/billing/test-checkout/${encodeURIComponent(id)}/pay`));
  await expect
    .poll(
      async () =>
        (
          await json<{ active: boolean; tier: string }>(
            await page.request.get('/api/billing/subscription'),
          )
        ).active,
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Uploads the eight seed selfies, waits for them to pass, and trains a model to completion. */
export async function trainModelThroughApi(page: Page, name: string): Promise<string> {
  await uploadPhotosThroughApi(page);
  const { model } = await json<{ model: { id: string } }>(
    await page.request.post('/api/studio/models', { data: { name, gender: 'woman' } }),
  );
  await expect
    .poll(
      async () => {
        const { models } = await json<{ models: { id: string; status: string }[] }>(
          await page.request.get('/api/studio/models'),
        );
        return models.find((candidate) => candidate.id === model.id)?.status;
      },
      { timeout: trainingTimeoutMs, intervals: [3_000] },
    )
    .toBe('complete');
  return model.id;
}

/** Uploads the eight seed selfies into the draft and waits until every one has passed. */
export async function uploadPhotosThroughApi(page: Page): Promise<void> {
  for (const file of seedPhotos) {
    const response = await page.request.post('/api/studio/photos', {
      multipart: {
        file: { name: path.basename(file), mimeType: 'image/jpeg', buffer: await readFile(file) },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await expect
    .poll(
      async () => {
        const { counts } = await json<{ counts: { passed: number; pending: number } }>(
          await page.request.get('/api/studio/photos'),
        );
        return counts.pending === 0 ? counts.passed : -1;
      },
      { timeout: validationTimeoutMs, intervals: [2_000] },
    )
    .toBe(seedPhotos.length);
}

/** Generates one image of a preset with the model and waits until it is complete. */
export async function generateImageThroughApi(page: Page, userModelId: string): Promise<string> {
  const { presets } = await json<{ presets: { id: string; manualId: string }[] }>(
    await page.request.get('/api/catalog/presets'),
  );
  const preset =
    presets.find((candidate) => candidate.manualId === 'corporate-headshot') ?? presets[0];
  expect(preset, 'the default catalog content has presets').toBeDefined();
  const { generation } = await json<{ generation: { id: string } }>(
    await page.request.post('/api/generations', { data: { userModelId, presetId: preset!.id } }),
  );
  await expect
    .poll(
      async () =>
        (
          await json<{ generation: { status: string } }>(
            await page.request.get(`/api/generations/${generation.id}`),
          )
        ).generation.status,
      { timeout: generationTimeoutMs, intervals: [1_000] },
    )
    .toBe('complete');
  return generation.id;
}
