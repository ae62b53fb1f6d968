import { expect, type Page } from '@playwright/test';

/** Small reads the generation journeys share (the user's balance, the catalog's preset ids). */

export async function readCredits(page: Page): Promise<number> {
  const response = await page.request.get('/api/billing/subscription');
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { credits: number }).credits;
}

/** The ids of a category's presets (or of every preset), in page order (the public catalog API). */
export async function presetIdsOf(page: Page, categoryId?: string): Promise<string[]> {
  const response = await page.request.get(
    categoryId ? `/api/catalog/presets?category=${categoryId}` : '/api/catalog/presets',
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { presets: { id: string }[] }).presets.map(
    (preset) => preset.id,
  );
}
