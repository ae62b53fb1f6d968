import { randomUUID } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  saveScreenshots,
  signUpInBrowser,
} from './support/people.ts';
import { presetIdsOf, readCredits } from './support/generation.ts';
import { subscribeThroughApi, trainModelThroughApi } from './support/studio-api.ts';

// Generation end to end with the local engine: preset, custom and bulk generation, the results
// arriving live (no reload), the modal, the detail pages, and the plan and credit gates. Texts
// are written out (not imported from messages.ts) on purpose: the tests check what a person
// reads.
//
// Not here: the blocked-image placeholder and Content Notice. The local engine never flags an
// image; generation-blocked.spec.ts runs its own server on the Replicate fake to make one.

const liveTimeout = 90_000;

function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

function card(page: Page, name: string) {
  return page
    .getByTestId('generation-card')
    .filter({ has: page.getByRole('button', { name: `Open ${name}` }) });
}

/** A marker that a full page load would wipe: proves updates arrived without a reload. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
}

async function expectNotReloaded(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
  ).toBe(true);
}

async function expectImageLoaded(scope: ReturnType<Page['locator']>) {
  const image = scope.locator('img').first();
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
}

/**
 * Spends the rest of the balance the way a user could: bulk jobs of presets, whose images are
 * deleted straight away (a deleted generation is not refunded, and its queued job then has
 * nothing to do, so the engine is not kept busy).
 */
async function spendAllCredits(page: Page, userModelId: string) {
  const presetIds = await presetIdsOf(page);
  for (let credits = await readCredits(page); credits > 0; credits = await readCredits(page)) {
    const batch = presetIds.slice(0, Math.min(presetIds.length, credits));
    const started = await page.request.post('/api/bulk-jobs', {
      data: { kind: 'presets', userModelId, presetIds: batch },
    });
    expect(started.status(), await started.text()).toBe(201);
    const { bulkJob } = (await started.json()) as { bulkJob: { id: string } };
    const detail = await page.request.get(`/api/bulk-jobs/${bulkJob.id}`);
    const { generations } = (await detail.json()) as { generations: { id: string }[] };
    for (const generation of generations) {
      const removed = await page.request.delete(`/api/generations/${generation.id}`);
      expect([204, 404]).toContain(removed.status());
    }
  }
}

test.describe.serial('a Pro subscriber with a trained model', () => {
  test.describe.configure({ timeout: 300_000 });

  let context: BrowserContext;
  let page: Page;
  let modelId: string;

  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(420_000);
    // A context of its own (axe needs one), shared by the tests of this group: one person.
    context = await browser.newContext({ baseURL });
    page = await context.newPage();
    await signUpInBrowser(page, 'generator');
    await subscribeThroughApi(page, 'price_pro');
    modelId = await trainModelThroughApi(page, 'My Look');
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('generates from a preset and sees it arrive in the generated tab without reloading', async () => {
    const before = await readCredits(page);

    await test.step('the preset page offers the trained model and Generate Now', async () => {
      await page.goto('/category/professional');
      await page.getByRole('link', { name: /Corporate Headshot/ }).click();
      await expect(page).toHaveURL(/\/model\/[^/]+$/);
      await expect(page.getByRole('radio', { name: /My Look/ })).toBeChecked();
      await expect(page.getByText('Nothing has been charged')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
      await saveScreenshots(page, 'preset-generate');
    });

    await test.step('Generate queues it; View Images opens the generated tab', async () => {
      await page.getByRole('button', { name: 'Generate Now' }).click();
      const queued = toast(page, 'Generation queued successfully! Processing will begin shortly.');
      await expect(queued).toBeVisible();
      await queued.getByRole('button', { name: 'View Images' }).click();
      await expect(page).toHaveURL('/dashboard?main=generation&sub=generated');
      await markPage(page);
    });

    // Not "New" here: when it finishes before the tab opens, the preset page has shown it.
    await test.step('the image finishes in place, with its likeness and Preview label', async () => {
      const headshot = card(page, 'Corporate Headshot');
      await expect(headshot).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
      await expectImageLoaded(headshot);
      await expect(headshot.getByTestId('preview-badge')).toHaveText('Preview');
      await expect(headshot.getByTestId('likeness-badge')).toHaveText(/^\d{1,3}% likeness$/);
      await expect(page.getByRole('link', { name: /Credit balance: / })).toHaveAccessibleName(
        `Credit balance: ${before - 1} credits`,
      );
      await expectNotReloaded(page);
    });

    await test.step('an image started elsewhere (another tab) appears, finishes live, marked New', async () => {
      const [, executive] = await presetIdsOf(page, 'professional');
      const response = await page.request.post('/api/generations', {
        data: { userModelId: modelId, presetId: executive },
      });
      expect(response.status()).toBe(201);
      const second = card(page, 'Executive Portrait');
      await expect(second).toBeVisible({ timeout: liveTimeout });
      await expect(second).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
      await expect(second.getByTestId('new-badge')).toHaveText('New');
      // Newest first.
      await expect(page.getByTestId('generation-card').first()).toHaveAttribute(
        'aria-label',
        'Executive Portrait',
      );
      await expectNotReloaded(page);
      await expectNoSeriousA11yViolations(page);
      await saveScreenshots(page, 'generated-tab');
    });

    await test.step('the modal shows the image; opening it marks it seen; favourite and download', async () => {
      await card(page, 'Executive Portrait')
        .getByRole('button', { name: 'Open Executive Portrait' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Executive Portrait' });
      await expect(dialog).toBeVisible();
      await expectImageLoaded(dialog);
      await expect(dialog.getByText(/^Complete · /)).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await dialog.getByRole('button', { name: 'Add to favourites' }).click();
      await expect(dialog.getByRole('button', { name: 'Remove from favourites' })).toBeVisible();

      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download' }).click();
      expect((await download).suggestedFilename()).toMatch(/^likeness-.+\.jpg$/);
      await expect(toast(page, 'Image downloaded successfully!')).toBeVisible();

      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      // Focus returns to what opened it.
      await expect(page.getByRole('button', { name: 'Open Executive Portrait' })).toBeFocused();
      await expect(card(page, 'Executive Portrait').getByTestId('new-badge')).toHaveCount(0);
    });

    await test.step('the favourites filter and its zip', async () => {
      await page.getByRole('button', { name: 'Favourites' }).click();
      await expect(page.getByTestId('generation-card')).toHaveCount(1);
      await expect(page.getByRole('link', { name: 'Download favourites (zip)' })).toHaveAttribute(
        'href',
        '/api/generations/favourites/zip',
      );
      const zip = await page.request.get('/api/generations/favourites/zip');
      expect(zip.headers()['content-type']).toBe('application/zip');
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await expect(page.getByTestId('generation-card')).toHaveCount(2);
    });

    await test.step('the detail page downloads and deletes, after asking', async () => {
      await card(page, 'Executive Portrait')
        .getByRole('button', { name: 'Open Executive Portrait' })
        .click();
      await page.getByRole('link', { name: 'Open full page' }).click();
      await expect(page).toHaveURL(/\/generations\/[0-9a-f-]{36}$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Executive Portrait' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await saveScreenshots(page, 'generation-detail');

      await page.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this image?' });
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(toast(page, 'Image deleted')).toBeVisible();
      await expect(page).toHaveURL('/dashboard?main=generation&sub=generated');
      await expect(page.getByTestId('generation-card')).toHaveCount(1);
    });

    await test.step('malformed and unknown ids say so', async () => {
      await page.goto('/generations/not-an-id');
      await expect(page.getByRole('alert')).toHaveText('Invalid generation ID');
      await page.goto(`/generations/${randomUUID()}`);
      await expect(page.getByRole('alert')).toHaveText('Image not found');
      await page.goto('/bulk-generation/not-an-id');
      await expect(page.getByRole('alert')).toHaveText('Invalid bulk generation ID');
      await page.goto(`/bulk-generation/${randomUUID()}`);
      await expect(page.getByRole('alert')).toHaveText('Job not found');
    });
  });

  test('writes a custom prompt and gets the image', async () => {
    const prompt = 'A confident portrait in a sunlit library, warm tones, shallow depth of field';

    await test.step('the custom prompt page is unlocked with the model chosen', async () => {
      await page.goto('/custom-prompt');
      await expect(page).toHaveTitle('Custom Prompt | Likeness');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Custom Image Generation' }),
      ).toBeVisible();
      await expect(
        page.getByText('Use your own prompts with your trained AI models'),
      ).toBeVisible();
      await expect(page.getByTestId('custom-pro-banner')).toHaveCount(0);
      await expect(page.getByRole('checkbox', { name: /My Look/ })).toBeChecked();
      await expect(page.getByRole('heading', { name: 'Prompt Tips' })).toBeVisible();
      const area = page.getByLabel('Prompt', { exact: true });
      await expect(area).toBeEnabled();
      expect(
        await area.evaluate((node) => node.getBoundingClientRect().height),
      ).toBeGreaterThanOrEqual(120);
      await expectNoSeriousA11yViolations(page);
      await saveScreenshots(page, 'custom-prompt');
    });

    const title = `${prompt.slice(0, 50).trimEnd()}...`;

    await test.step('an empty prompt is refused; a written one is made on the page', async () => {
      await page.getByRole('button', { name: 'Generate Image' }).click();
      await expect(toast(page, 'Please enter a prompt')).toBeVisible();
      await page.getByLabel('Prompt', { exact: true }).fill(prompt);
      await page.getByRole('button', { name: 'Generate Image' }).click();
      await expect(
        toast(page, 'Generation queued successfully! Processing will begin shortly.'),
      ).toBeVisible();
      const result = page.getByTestId('generation-result');
      await expect(result).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
      await expect(result.getByText(title, { exact: true })).toBeVisible();
      await expectImageLoaded(result);
      await result.getByRole('link', { name: 'See all your photos' }).click();
      await expect(page).toHaveURL('/dashboard?main=generation&sub=generated');
    });

    await test.step('its card is titled by the prompt, and the modal previews it at 50 characters', async () => {
      const custom = card(page, title);
      await expect(custom).toHaveAttribute('data-status', 'complete');
      await custom.getByRole('button', { name: `Open ${title}` }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog.getByTestId('prompt-preview')).toHaveText(title);
      await page.keyboard.press('Escape');
    });

    await test.step('the dashboard custom tab is the same panel', async () => {
      await page.goto('/dashboard?main=generation&sub=custom');
      await expect(
        page.getByRole('heading', { level: 2, name: 'Custom Image Generation' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Generate Image' })).toBeVisible();
    });
  });

  test('bulk-generates three presets from a category and watches them finish', async () => {
    const before = await readCredits(page);
    await page.goto('/category/professional');
    for (const name of ['Corporate Headshot', 'Executive Portrait', 'Startup Founder']) {
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    await page.getByRole('button', { name: /Bulk Generate/ }).click();

    const dialog = page.getByRole('dialog', { name: 'Bulk Generate' });
    await expect(dialog.getByText('Generate 3 selected styles at once')).toBeVisible();
    await expect(dialog.getByTestId('bulk-cost')).toHaveText(
      'This uses 3 credits (1 credit per selected model).',
    );
    await expect(dialog.getByRole('radio', { name: /My Look/ })).toBeChecked();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Generate 3 images' }).click();

    await expect(toast(page, 'All 3 images queued for generation!')).toBeVisible();
    await expect(page).toHaveURL(/\/bulk-generation\/[0-9a-f-]{36}$/);
    const jobId = page.url().split('/').pop()!;
    await markPage(page);

    const progress = page.getByTestId('bulk-progress');
    await expect(progress).toHaveAttribute('aria-live', 'polite');
    await expect(progress).toHaveText('3 of 3 images', { timeout: liveTimeout });
    await expect(page.getByTestId('bulk-status')).toHaveText('Completed');
    await expect(
      page.getByRole('progressbar', { name: 'Bulk generation progress' }),
    ).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByTestId('generation-card')).toHaveCount(3);
    await expect(
      page.locator('[data-testid="generation-card"][data-status="complete"]'),
    ).toHaveCount(3, { timeout: liveTimeout });
    await expectNotReloaded(page);
    await expect(page.getByRole('link', { name: 'Download all (zip)' })).toHaveAttribute(
      'href',
      `/api/bulk-jobs/${jobId}/zip`,
    );
    expect(await readCredits(page)).toBe(before - 3);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'bulk-generation');

    // Right after a bulk start the single-generation address shows the job too.
    await page.goto(`/generations/${jobId}`);
    await expect(page.getByTestId('bulk-progress')).toHaveText('3 of 3 images');

    // The generated tab lists the job, and it is not among the single images.
    await page.goto('/dashboard?main=generation&sub=generated');
    const job = page.getByTestId('bulk-job-card');
    await expect(job).toHaveCount(1);
    await expect(job.getByText('Completed')).toBeVisible();
    await expect(job.getByText('100%')).toBeVisible();
    await job.getByRole('link').click();
    await expect(page).toHaveURL(`/bulk-generation/${jobId}`);
  });

  test('without credits, the custom panel says Need Credits and the preset page Buy More Credits', async () => {
    await spendAllCredits(page, modelId);
    expect(await readCredits(page)).toBe(0);

    await page.goto('/custom-prompt');
    const button = page.getByRole('button', { name: 'Need Credits' });
    await expect(button).toBeVisible();
    await page.getByLabel('Prompt', { exact: true }).fill('On a beach at sunset');
    await button.click();
    await expect(toast(page, 'You need at least 1 credit to generate images')).toBeVisible();
    await expect(page).toHaveURL('/buy-credits');

    await page.goto('/category/professional');
    await page.getByRole('link', { name: /Corporate Headshot/ }).click();
    await page.getByRole('button', { name: 'Buy More Credits' }).click();
    await expect(page).toHaveURL('/buy-credits');
  });
});

test('a Basic subscriber meets the custom prompt and bulk gates', async ({ page }) => {
  test.setTimeout(420_000);
  await signUpInBrowser(page, 'basic-gates');
  await subscribeThroughApi(page, 'price_basic');
  const basicModelId = await trainModelThroughApi(page, 'Basic Look');

  await test.step('custom prompts are locked, with the way to upgrade', async () => {
    await page.goto('/custom-prompt');
    const banner = page.getByTestId('custom-pro-banner');
    await expect(banner).toContainText('Custom Prompts - Pro & Premium Feature');
    await expect(banner.getByRole('link', { name: 'Upgrade to unlock' })).toHaveAttribute(
      'href',
      '/subscription?from=custom-prompt',
    );
    await expect(page.getByRole('checkbox', { name: /Basic Look/ })).toBeDisabled();
    await expect(
      page.getByText('Custom prompts need a Pro, Premium or Enterprise plan'),
    ).toBeVisible();
    await expect(page.getByLabel('Prompt', { exact: true })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'custom-prompt-locked');
    await page.getByRole('button', { name: 'Upgrade to Generate' }).click();
    await expect(
      toast(page, 'Custom prompts are only available for Pro and Premium subscribers'),
    ).toBeVisible();
    await expect(page).toHaveURL('/subscription?from=custom-prompt');
  });

  await test.step('bulk generation from a category is refused', async () => {
    await page.goto('/category/professional');
    await expect(page.getByRole('note')).toContainText(
      'Bulk generation is only available for Pro and Premium subscribers',
    );
    await page.getByRole('checkbox', { name: 'Select Corporate Headshot' }).check();
    await page.getByRole('button', { name: /Bulk Generate/ }).click();
    await expect(
      toast(page, 'Bulk generation is only available for Pro and Premium subscribers'),
    ).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('a preset generates on Basic; with the 50 credits spent, Buy More Credits', async () => {
    const [presetId] = await presetIdsOf(page, 'professional');
    await page.goto(`/model/${presetId}`);
    await page.getByRole('button', { name: 'Generate Now' }).click();
    await expect(
      toast(page, 'Generation queued successfully! Processing will begin shortly.'),
    ).toBeVisible();

    // The rest of the 50 credits, as single generations deleted at once (not refunded).
    for (let credits = await readCredits(page); credits > 0; credits -= 1) {
      const created = await page.request.post('/api/generations', {
        data: { userModelId: basicModelId, presetId },
      });
      expect(created.status()).toBe(201);
      const { generation } = (await created.json()) as { generation: { id: string } };
      await page.request.delete(`/api/generations/${generation.id}`);
    }
    expect(await readCredits(page)).toBe(0);

    const buy = page.getByRole('button', { name: 'Buy More Credits' });
    await expect(buy).toBeVisible();
    await buy.click();
    await expect(page).toHaveURL('/buy-credits');
  });
});
