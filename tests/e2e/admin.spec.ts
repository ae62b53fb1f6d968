import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OwnServer } from './support/own-server.ts';
import { signInInBrowser as signIn } from './support/people.ts';

// The operator's /admin page, on a server of its own (granting the admin role needs the
// database to itself; see OwnServer). Texts are written out (not imported from messages.ts):
// the tests check what a person reads.

const server = new OwnServer('admin', 98);
const dataDir = server.dataDir;
const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;
const userEmail = `user-${randomBytes(4).toString('hex')}@example.com`;
// A licensed portrait the repository ships (assets/seed/LICENSES.md), so CI needs nothing else.
const portrait = path.resolve('assets/seed/real-portraits/hopper.jpg');
const screenshotDir = 'test-results/screenshots';

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: server.origin });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  await server.startWithAdmin(adminEmail);
  await server.signUp(userEmail);
});

test.afterAll(async () => {
  await server.stop();
});

test('an admin creates a category and a preset with a picture, and visitors see it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const key = `e2e-${randomBytes(3).toString('hex')}`;
  const categoryName = `Studio ${key}`;
  const presetName = `Window Light ${key}`;

  await signIn(page, adminEmail);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog admin' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Professional' })).toBeVisible();

  await test.step('create a category', async () => {
    await page.getByRole('button', { name: 'New category' }).click();
    const dialog = page.getByRole('dialog', { name: 'New category' });
    // A key the server refuses shows its reason in the form.
    await dialog.getByLabel('Key').fill('Not A Key');
    await dialog.getByLabel('Display name').fill(categoryName);
    await dialog.getByLabel('Emoji').fill('🪟');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Use lowercase letters, digits');
    await dialog.getByLabel('Key').fill(key);
    await dialog.getByLabel('Featured').check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 3, name: categoryName })).toBeVisible();
  });

  await test.step('move it up one place', async () => {
    await page.getByRole('button', { name: `Move ${categoryName} up` }).click();
    await expect
      .poll(async () => {
        const response = await page.request.get('/api/admin/categories');
        const body = (await response.json()) as { categories: { manualId: string }[] };
        return body.categories.map((category) => category.manualId).slice(-2);
      })
      // Above the content pack's last category.
      .toEqual([key, 'dating']);
  });

  await test.step('create a preset in it and upload its picture', async () => {
    await page.getByRole('tab', { name: 'Presets' }).click();
    await page.getByLabel('Category', { exact: true }).selectOption(key);
    await expect(page.getByText('No presets in this category yet')).toBeVisible();
    await page.getByRole('button', { name: 'New preset' }).click();
    const form = page.getByRole('dialog', { name: 'New preset' });
    await form.getByLabel('Display name').fill(presetName);
    await form.getByLabel('Description').fill('Soft window light, calm and natural.');
    await form.getByLabel('Prompt').fill('portrait of {trigger} by a tall window, soft light');
    await form.getByRole('button', { name: 'Create' }).click();

    const pictures = page.getByRole('dialog', { name: `Pictures of ${presetName}` });
    await expect(pictures).toBeVisible();
    // Not an image: the server's reason is shown.
    const notAnImage = path.join(dataDir, 'not-an-image.jpg');
    await writeFile(notAnImage, 'hello, this is text');
    await pictures.getByTestId('upload-input').first().setInputFiles(notAnImage);
    await expect(pictures.getByRole('alert')).toContainText(
      'Not a supported image type (JPEG, PNG or WebP)',
    );
    // A real portrait becomes the featured picture.
    await pictures.getByTestId('upload-input').first().setInputFiles(portrait);
    await expect(pictures.getByRole('button', { name: 'Replace featured picture' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(pictures.getByRole('img', { name: presetName })).toBeVisible();
    await pictures.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(page.getByRole('heading', { level: 3, name: presetName })).toBeVisible();
  });

  await test.step('the landing API and the studio show it', async () => {
    const response = await page.request.get('/api/catalog/landing');
    const landing = (await response.json()) as {
      categories: { manualId: string; displayName: string; presets: { displayName: string }[] }[];
    };
    const category = landing.categories.find((item) => item.manualId === key);
    expect(category?.displayName).toBe(categoryName);
    expect(category?.presets.map((preset) => preset.displayName)).toEqual([presetName]);

    await page.goto('/dashboard');
    const section = page.getByRole('region', { name: new RegExp(`${categoryName} \\(`) });
    await expect(section.getByRole('link', { name: presetName })).toBeVisible();
  });

  await test.step('the landing page shows its tab and its picture', async () => {
    await page.goto('/');
    const showcase = page.getByRole('region', { name: 'Choose your style' });
    await showcase.scrollIntoViewIfNeeded();
    const tab = showcase.getByRole('tab', { name: new RegExp(categoryName) });
    await expect(tab).toBeVisible();
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const picture = showcase.getByRole('tabpanel').getByRole('img', { name: presetName });
    await expect(picture).toBeVisible();
    // The uploaded picture itself, really loaded, not an empty box.
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });

  await test.step('deactivating the category hides it from visitors', async () => {
    await page.goto('/admin');
    await page.getByRole('button', { name: `Deactivate ${categoryName}` }).click();
    // Exact: "Deactivate …" contains "activate …", and would match before the change is saved.
    await expect(
      page.getByRole('button', { name: `Activate ${categoryName}`, exact: true }),
    ).toBeVisible();
    const response = await page.request.get('/api/catalog/categories');
    const body = (await response.json()) as { categories: { manualId: string }[] };
    expect(body.categories.map((category) => category.manualId)).not.toContain(key);
    await page.goto('/');
    const showcase = page.getByRole('region', { name: 'Choose your style' });
    await showcase.scrollIntoViewIfNeeded();
    await expect(showcase.getByRole('tab', { name: /Fashion/ })).toBeVisible();
    await expect(showcase.getByRole('tab', { name: new RegExp(categoryName) })).toHaveCount(0);
  });
});

test('an admin edits an example photo caption, and the photo guidelines show it', async ({
  page,
}) => {
  const caption = `Even daylight, face the window ${randomBytes(3).toString('hex')}`;
  await signIn(page, adminEmail);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Example photos' }).click();
  const firstEdit = page.getByRole('button', { name: /^Edit Caption: / }).first();
  const before = ((await firstEdit.getAttribute('aria-label')) ?? '').replace('Edit Caption: ', '');
  await firstEdit.click();
  const field = page.getByLabel('Caption', { exact: true }).last();
  await expect(field).toHaveValue(before);
  await field.fill(caption);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: `Edit Caption: ${caption}` })).toBeVisible();
  await expect(page.getByText(before, { exact: true })).toHaveCount(0);

  const response = await page.request.get('/api/catalog/example-photos');
  const body = JSON.stringify(await response.json());
  expect(body).toContain(caption);
  expect(body).not.toContain(JSON.stringify(before));
  await page.goto('/example-photos');
  await expect(page.getByText(caption)).toBeVisible();
});

test('a non-admin and a visitor get the 404 page at /admin, and 404 from the admin API', async ({
  page,
}) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  expect((await page.request.get('/api/admin/categories')).status()).toBe(404);

  await signIn(page, userEmail);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Catalog admin' })).toHaveCount(0);
  const response = await page.request.get('/api/admin/categories');
  expect(response.status()).toBe(404);
});

test('screenshots of /admin at 390 and 1280 px', async ({ page }) => {
  await mkdir(screenshotDir, { recursive: true });
  await signIn(page, adminEmail);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 3, name: 'Professional' })).toBeVisible();
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${screenshotDir}/admin-${width}.png`, fullPage: true });
    await page.getByRole('tab', { name: 'Presets' }).click();
    await expect(page.getByRole('heading', { level: 3, name: 'Corporate Headshot' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${screenshotDir}/admin-presets-${width}.png`, fullPage: true });
    // What the providers cost: nothing yet on the offline engines, said plainly.
    await page.getByRole('tab', { name: 'Costs' }).click();
    await expect(
      page.getByRole('heading', { level: 2, name: 'Provider costs, last 30 days' }),
    ).toBeVisible();
    await expect(page.getByText('No paid provider calls in the last 30 days.')).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}/admin-costs-${width}.png`, fullPage: true });
  }
});
