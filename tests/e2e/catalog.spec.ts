import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { OwnServer } from './support/own-server.ts';
import {
  expectNoSeriousA11yViolations,
  screenshotDir,
  signInInBrowser,
  signUpInBrowser,
} from './support/people.ts';

// The signed-in studio's presets: the dashboard's Presets tab, /category/{id} and /model/{id},
// against the default catalog the server seeds at start (five categories, seven presets each).
// Texts are written out (not imported from messages.ts) on purpose: the tests check what a
// person reads.

const seededCategories = ['Professional', '80s', 'Classy', 'Fantasy', 'Fashion'];

/** From the plan page, through the test-mode checkout, to the confirmed plan. */
async function subscribe(page: Page, plan: 'Basic' | 'Pro' | 'Premium', price: string) {
  await page.goto('/subscription');
  await page
    .getByRole('article', { name: plan, exact: true })
    .getByRole('button', { name: 'Select Plan' })
    .click();
  await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
  await page.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible({
    timeout: 30_000,
  });
}

function categoryToggle(page: Page, name: string) {
  return page.getByRole('button', { name: new RegExp(`^(\\S+ )?${name} \\(`) });
}

function categorySection(page: Page, name: string) {
  return page.getByRole('region', { name: new RegExp(`^(\\S+ )?${name} \\(`) });
}

async function expectPictureLoaded(picture: ReturnType<Page['locator']>) {
  await picture.scrollIntoViewIfNeeded();
  await expect(picture).toHaveAttribute('alt', /.+/);
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
}

async function firstPresetId(page: Page, category: string): Promise<string> {
  const response = await page.request.get(`/api/catalog/presets?category=${category}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { presets: { id: string }[] };
  return body.presets[0]!.id;
}

test('the dashboard presets tab shows the seeded categories with cards and real pictures', async ({
  page,
}) => {
  await signUpInBrowser(page);
  await page.goto('/dashboard');

  await expect(page).toHaveTitle('AI Studio | Likeness');
  await expect(page.getByRole('tab', { name: 'Presets' })).toHaveAttribute('aria-selected', 'true');
  for (const name of seededCategories) {
    await expect(categoryToggle(page, name)).toHaveAttribute('aria-expanded', 'true');
    const section = categorySection(page, name);
    await expect(section.getByRole('link', { name: /View All/ })).toBeVisible();
    // The content pack's eight presets a category.
    await expect(section.getByRole('listitem')).toHaveCount(8);
  }
  // The seeded pictures really arrive (not the "Image not available" box).
  const professional = categorySection(page, 'Professional');
  await expectPictureLoaded(professional.getByRole('img').first());
  await expect(professional.locator('[data-image-state="unavailable"]')).toHaveCount(0);

  // A card opens its preset.
  await professional.getByRole('link', { name: /Corporate Headshot/ }).click();
  await expect(page).toHaveURL(/\/model\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Corporate Headshot' })).toBeVisible();
});

test('a category collapses and expands, and View All opens its page', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/dashboard');

  const toggle = categoryToggle(page, 'Classy');
  const section = categorySection(page, 'Classy');
  await expect(section.getByRole('listitem').first()).toBeVisible();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(section.getByRole('listitem')).toHaveCount(0);
  // From the keyboard too.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(section.getByRole('listitem').first()).toBeVisible();

  await categorySection(page, 'Professional')
    .getByRole('link', { name: /View All/ })
    .click();
  await expect(page).toHaveURL('/category/professional');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Professional');
  await expect(page.getByTestId('preset-card')).toHaveCount(8);
  await page.getByRole('link', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL('/dashboard');
});

test('category multi-select: Bulk Generate counts the selection, and without Pro shows the gate', async ({
  page,
}) => {
  await signUpInBrowser(page);
  await page.goto('/category/professional');

  const gate = page.getByRole('note');
  await expect(gate).toContainText(
    'Bulk generation is only available for Pro and Premium subscribers',
  );
  await expect(gate.getByRole('link', { name: 'Upgrade' })).toHaveAttribute(
    'href',
    /^\/subscription/,
  );

  await page.getByRole('checkbox', { name: 'Select Corporate Headshot' }).check();
  await page.getByRole('checkbox', { name: 'Select Executive Portrait' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  const bulk = page.getByRole('button', { name: /Bulk Generate/ });
  await expect(bulk).toContainText('2');

  await bulk.click();
  await expect(
    page
      .locator('[data-sonner-toast]')
      .getByText('Bulk generation is only available for Pro and Premium subscribers'),
  ).toBeVisible();
  // Nothing pretends to have been queued.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'Select Corporate Headshot' }).uncheck();
  await expect(page.getByText('1 selected')).toBeVisible();
});

test('a Pro subscriber can bulk-select; without a trained model the dialog says what to do first', async ({
  page,
}) => {
  test.slow();
  await signUpInBrowser(page);
  await subscribe(page, 'Pro', '$49');
  await page.goto('/category/professional');

  await expect(page.getByRole('heading', { level: 1 })).toContainText('Professional');
  await expect(page.getByRole('note')).toHaveCount(0);
  const bulk = page.getByRole('button', { name: /Bulk Generate/ });
  await expect(bulk).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Select Corporate Headshot' }).check();
  await page.getByRole('checkbox', { name: 'Select Executive Portrait' }).check();
  await expect(bulk).toBeEnabled();
  await expect(bulk).toContainText('2');
  await bulk.click();

  const dialog = page.getByRole('dialog', { name: 'Bulk Generate' });
  await expect(dialog).toContainText('Generate 2 selected styles at once');
  await expect(dialog).toContainText('This uses 2 credits (1 credit per selected model).');
  await expect(dialog.getByText('Create an AI Model First')).toBeVisible();
  // Nothing can be queued without a trained model.
  await expect(dialog.getByRole('button', { name: 'Generate 2 images' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});

test('the preset page shows pictures, description, category and the Generate state; Back returns to the category', async ({
  page,
}) => {
  await signUpInBrowser(page);
  await page.goto('/category/professional');
  await page.getByRole('link', { name: /Executive Portrait/ }).click();
  await expect(page).toHaveURL(/\/model\/[^/]+$/);

  await expect(page.getByRole('heading', { level: 1, name: 'Executive Portrait' })).toBeVisible();
  await expect(page.getByText(/deep navy tones/)).toBeVisible();
  await expect(page.getByTestId('category-badge')).toContainText('Professional');

  // The carousel: featured picture first, Next shows the additional ones (two other people).
  const carousel = page.getByRole('group', { name: 'Executive Portrait' });
  await expectPictureLoaded(carousel.getByRole('img'));
  await expect(carousel.getByText('1 / 3')).toBeVisible();
  await carousel.getByRole('button', { name: 'Next image' }).click();
  await expect(carousel.getByText('2 / 3')).toBeVisible();
  await expectPictureLoaded(carousel.getByRole('img'));

  // Examples grid.
  const examples = page.getByRole('region', { name: 'Examples' });
  await expect(examples.getByRole('button', { name: /Show image/ })).toHaveCount(3);
  await examples.getByRole('button', { name: 'Show image 1 of 3' }).click();
  await expect(carousel.getByText('1 / 3')).toBeVisible();

  // No trained model yet: the picker and the button say what to do.
  await expect(page.getByText('Choose your AI model')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create an AI Model First' })).toBeVisible();

  await page.getByRole('link', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL('/category/professional');
});

test('Back from a preset opened from the dashboard (or directly) goes to /dashboard', async ({
  page,
}) => {
  await signUpInBrowser(page);
  await page.goto('/dashboard');
  await categorySection(page, 'Fashion').getByRole('link').nth(1).click();
  await expect(page).toHaveURL(/\/model\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL('/dashboard');

  const id = await firstPresetId(page, 'fantasy-personas');
  await page.goto(`/model/${id}`);
  await expect(page.getByRole('link', { name: 'Back', exact: true })).toHaveAttribute(
    'href',
    '/dashboard',
  );
});

test('the dashboard query selects its tab, older forms included', async ({ page }) => {
  await signUpInBrowser(page);

  await page.goto('/dashboard?tab=generated');
  await expect(page.getByRole('tab', { name: 'Generated' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('heading', { name: 'No generated images yet' })).toBeVisible();

  await page.goto('/dashboard?main=generation&sub=custom');
  await expect(page.getByRole('tab', { name: 'Custom' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Custom Image Generation' })).toBeVisible();

  await page.goto('/dashboard?view=bulk');
  await expect(page.getByRole('tab', { name: 'Custom' })).toHaveAttribute('aria-selected', 'true');

  await page.goto('/dashboard?tab=tryon');
  await expect(page.getByRole('tab', { name: 'Try-On' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('link', { name: 'See how try-on works' })).toHaveAttribute(
    'href',
    '/tryon',
  );

  // Choosing a tab writes the canonical address.
  await page.getByRole('tab', { name: 'Generate' }).click();
  await page.getByRole('tab', { name: 'Presets' }).click();
  await expect(page).toHaveURL('/dashboard?main=generation&sub=presets');
  await expect(categoryToggle(page, 'Professional')).toBeVisible();
});

test('a bogus preset id shows Model not found with Go back', async ({ page }) => {
  await signUpInBrowser(page);
  await page.goto('/model/not-a-real-preset');
  await expect(page.getByText('Model not found')).toBeVisible();
  await page.getByRole('link', { name: 'Go back' }).click();
  await expect(page).toHaveURL('/dashboard');
});

test('a failed catalog load says so and offers Try again', async ({ page }) => {
  await signUpInBrowser(page);
  let fail = true;
  await page.route('**/api/catalog/categories', (route) =>
    fail
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Catalog unavailable' } }),
        })
      : route.continue(),
  );
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByText('Catalog unavailable')).toBeVisible();
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(categoryToggle(page, 'Professional')).toBeVisible();
});

test('a failed model load toasts its reason, on the dashboard and on a category page', async ({
  page,
}) => {
  await signUpInBrowser(page);
  const failure = (message: string) => ({
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'INTERNAL', message } }),
  });
  await page.route('**/api/catalog/presets', (route) => route.fulfill(failure('Presets offline')));
  await page.goto('/dashboard');
  await expect(page.getByText('Failed to load models: Presets offline')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();

  await page.route('**/api/catalog/categories/classy', (route) =>
    route.fulfill(failure('Classy offline')),
  );
  await page.goto('/category/classy');
  await expect(page.getByText('Failed to load models: Classy offline')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test.describe('a catalog the operator has emptied', () => {
  // Real empty states need real data: an operator changes the catalog through the admin API, on
  // a server of this block's own so the shared seeded catalog stays as other tests expect it.
  const server = new OwnServer('catalog-empty', 99);
  const adminEmail = `operator-${Date.now()}@example.com`;
  test.describe.configure({ mode: 'serial' });
  test.use({ baseURL: server.origin });

  test.beforeAll(async () => {
    test.setTimeout(600_000);
    await server.startWithAdmin(adminEmail);
  });

  test.afterAll(async () => {
    await server.stop();
  });

  /** An admin API call from the signed-in page (same origin, so its Origin header passes). */
  async function admin(page: Page, method: string, url: string, json?: unknown) {
    const status = await page.evaluate(
      async ({ method, url, json }) => {
        const response = await fetch(url, {
          method,
          headers: json ? { 'content-type': 'application/json' } : {},
          body: json ? JSON.stringify(json) : undefined,
        });
        return response.status;
      },
      { method, url, json },
    );
    expect(status, `${method} ${url}`).toBeLessThan(300);
  }

  test('a category without presets says so, and Add Model says it is coming', async ({ page }) => {
    await signInInBrowser(page, adminEmail);
    await admin(page, 'POST', '/api/admin/categories', {
      manualId: 'holiday-specials',
      displayName: 'Holiday specials',
    });
    await page.goto('/dashboard');
    const holidays = categorySection(page, 'Holiday specials');
    await expect(
      holidays.getByRole('heading', { name: 'No models in this category' }),
    ).toBeVisible();
    await holidays.getByRole('button', { name: 'Add Model' }).click();
    await expect(page.getByText('Create model feature coming soon!')).toBeVisible();
    // The seeded categories around it still show their presets.
    await expect(categorySection(page, 'Fashion').getByRole('listitem')).toHaveCount(8);

    await page.goto('/category/holiday-specials');
    await expect(page.getByRole('heading', { name: 'No models in this category' })).toBeVisible();
  });

  test('with no categories the dashboard says so, and Refresh fetches them again', async ({
    page,
  }) => {
    await signInInBrowser(page, adminEmail);
    const response = await page.request.get('/api/admin/categories');
    const { categories } = (await response.json()) as { categories: { manualId: string }[] };
    for (const { manualId } of categories) {
      await admin(page, 'PATCH', `/api/admin/categories/${manualId}`, { active: false });
    }
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'No categories found' })).toBeVisible();
    await expect(page.getByText('Start by creating some categories and models')).toBeVisible();

    // The operator brings one back; Refresh shows it without reloading the page.
    await admin(page, 'PATCH', '/api/admin/categories/professional', { active: true });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(categorySection(page, 'Professional').getByRole('listitem')).toHaveCount(8);
    await expect(page.getByRole('heading', { name: 'No categories found' })).toHaveCount(0);
  });
});

test('the dashboard passes an accessibility scan', async ({ page }) => {
  // Three pages scanned, each after its pictures: past 30 s on a loaded machine.
  test.setTimeout(120_000);
  await signUpInBrowser(page);
  await page.goto('/dashboard');
  await expect(categoryToggle(page, 'Fashion')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const id = await firstPresetId(page, 'classy');
  await page.goto(`/model/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.goto('/category/professional');
  await expect(page.getByTestId('preset-card').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the studio pages never scroll sideways, and carousels show two cards', async ({ page }) => {
    await signUpInBrowser(page);
    await page.goto('/dashboard');
    await expect(categoryToggle(page, 'Professional')).toBeVisible();
    const card = categorySection(page, 'Professional').getByRole('listitem').first();
    const width = (await card.boundingBox())!.width;
    // Two per view in a 390 px screen with the page padding and one gap.
    expect(width).toBeGreaterThan(140);
    expect(width).toBeLessThan(190);
    for (const path of ['/dashboard', '/category/professional']) {
      await page.goto(path);
      await expect(page.getByTestId('preset-card').first()).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    }
  });
});

test('screenshots of the studio pages at 390 and 1280 px', async ({ page }) => {
  // Several pages at two widths: past 30 s on a loaded machine.
  test.setTimeout(120_000);
  await signUpInBrowser(page);
  await mkdir(screenshotDir, { recursive: true });
  const id = await firstPresetId(page, 'professional');

  async function shoot(name: string, path: string, ready: () => Promise<void>) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(path);
      await ready();
      // Scrolls through once so the lazy pictures below the fold load for the full-page picture.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        window.scrollTo(0, 0);
      });
      // Lazy pictures in view finish, and the layout settles at the new width.
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${screenshotDir}/${name}-${width}.png`, fullPage: true });
    }
  }

  await shoot('dashboard', '/dashboard', () =>
    expect(categoryToggle(page, 'Fashion')).toBeVisible(),
  );
  await shoot('category-professional', '/category/professional', () =>
    expect(page.getByTestId('preset-card').first()).toBeVisible(),
  );
  await shoot('model', `/model/${id}`, () =>
    expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  );
});
