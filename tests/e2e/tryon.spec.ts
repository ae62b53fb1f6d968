import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  expectNoSeriousA11yViolations,
  saveScreenshots,
  signUpInBrowser,
} from './support/people.ts';
import {
  generateImageThroughApi,
  subscribeThroughApi,
  trainModelThroughApi,
} from './support/studio-api.ts';

// Try-on: the public page (before/after slider, how it works, plans, the way in), the locked
// dashboard tab of a Basic subscriber, and a Pro subscriber's try-on of a garment on one of
// their generated images with the local engine. Texts are written out on purpose: the tests
// check what a person reads.

/** A flat-lay product photo: a coloured T-shirt silhouette on white. */
async function makeGarmentPhoto(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
    <rect width="800" height="800" fill="#ffffff"/>
    <path d="M270 130 L340 110 Q400 170 460 110 L530 130 L690 250 L610 350 L550 300 L550 690
             L250 690 L250 300 L190 350 L110 250 Z" fill="#1f6f5c"/>
    <path d="M340 110 Q400 200 460 110" fill="none" stroke="#17564a" stroke-width="14"/>
  </svg>`;
  const dir = await mkdtemp(path.join(tmpdir(), 'tryon-garment-'));
  const file = path.join(dir, 'green-t-shirt.png');
  await writeFile(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

function slider(page: Page) {
  return page.getByRole('slider', { name: 'Drag to compare before and after' });
}

async function beforeClip(page: Page) {
  return page.getByTestId('compare-before').evaluate((element) => element.style.clipPath);
}

test('the public try-on page: a before/after slider to drag or key, the plans and the way in', async ({
  page,
}) => {
  await page.goto('/tryon');
  await expect(page).toHaveTitle('AI Virtual Try-On | Likeness');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Virtual Try-On' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'How It Works' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Before:/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^After:/ })).toBeVisible();

  await test.step('the slider starts at 50% and moves by key', async () => {
    const handle = slider(page);
    await expect(handle).toHaveAttribute('aria-valuenow', '50');
    await expect(handle).toHaveAttribute('aria-valuemin', '0');
    await expect(handle).toHaveAttribute('aria-valuemax', '100');
    expect(await beforeClip(page)).toBe('inset(0px 50% 0px 0px)');

    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await expect(handle).toHaveAttribute('aria-valuenow', '55');
    await expect(handle).toHaveAttribute('aria-valuetext', '55% before, 45% after');
    expect(await beforeClip(page)).toBe('inset(0px 45% 0px 0px)');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(handle).toHaveAttribute('aria-valuenow', '45');
    await page.keyboard.press('End');
    await expect(handle).toHaveAttribute('aria-valuenow', '100');
    await page.keyboard.press('ArrowRight');
    await expect(handle).toHaveAttribute('aria-valuenow', '100');
    await page.keyboard.press('Home');
    await expect(handle).toHaveAttribute('aria-valuenow', '0');
    expect(await beforeClip(page)).toBe('inset(0px 100% 0px 0px)');
  });

  await test.step('the slider follows a drag', async () => {
    const box = await page.getByTestId('compare-slider').boundingBox();
    if (!box) throw new Error('The comparison has no box');
    const y = box.y + box.height * 0.7;
    await page.mouse.move(box.x + box.width * 0.5, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, y, { steps: 5 });
    await expect(slider(page)).toHaveAttribute('aria-valuenow', '80');
    await page.mouse.move(box.x + box.width * 0.25, y, { steps: 5 });
    await page.mouse.up();
    await expect(slider(page)).toHaveAttribute('aria-valuenow', '25');
    expect(await beforeClip(page)).toBe('inset(0px 75% 0px 0px)');
    // Moving the mouse after the release leaves the divider where it is.
    await page.mouse.move(box.x + box.width * 0.9, y);
    await expect(slider(page)).toHaveAttribute('aria-valuenow', '25');
  });

  await test.step('the plans say which include try-on', async () => {
    const plans = page.getByRole('list', { name: 'Plans' });
    await expect(plans.getByRole('article')).toHaveCount(3);
    await expect(
      page.getByText('Available on the Pro, Premium and Enterprise plans.').first(),
    ).toBeVisible();
  });

  await expectNoSeriousA11yViolations(page);
  await saveScreenshots(page, 'tryon-public');

  await test.step('a signed-out visitor is sent to sign-up', async () => {
    await page.getByRole('main').getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL('/signup');
    await page.goto('/tryon');
    await page
      .getByRole('article', { name: 'Pro', exact: true })
      .getByRole('button', { name: 'Select Plan' })
      .click();
    await expect(page).toHaveURL('/signup');
  });
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test('the slider follows a finger sideways', async ({ page }) => {
    await page.goto('/tryon');
    const comparison = page.getByTestId('compare-slider');
    await comparison.scrollIntoViewIfNeeded();
    const box = await comparison.boundingBox();
    if (!box) throw new Error('The comparison has no box');
    const y = box.y + box.height * 0.75;
    const at = (share: number) => [{ x: box.x + box.width * share, y }];
    // Real touch events through the browser's input pipeline (pointer events follow from them).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0.5) });
    for (const share of [0.45, 0.4, 0.35, 0.3])
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(share) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(slider(page)).toHaveAttribute('aria-valuenow', '30');
    expect(await beforeClip(page)).toBe('inset(0px 70% 0px 0px)');
  });
});

test('the public page respects reduced motion: key moves do not glide', async ({ page }) => {
  const glideSeconds = () =>
    page
      .getByTestId('compare-before')
      .evaluate((element) => Number.parseFloat(getComputedStyle(element).transitionDuration));
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/tryon');
  expect(await glideSeconds()).toBeGreaterThan(0.1);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await glideSeconds()).toBeLessThan(0.001);
});

test('a Basic subscriber finds the try-on tab locked, with the way to upgrade', async ({
  page,
}) => {
  await signUpInBrowser(page, 'tryon-basic');
  await subscribeThroughApi(page, 'price_basic');

  await page.goto('/dashboard?tab=tryon');
  const tab = page.getByRole('tab', { name: 'Try-On' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(tab.locator('svg.lucide-lock')).toHaveCount(1);
  // The lock is announced, not only drawn.
  await expect(tab).toHaveAccessibleName('Try-On (locked: Pro plan or above)');

  const gate = page.getByTestId('tryon-gate');
  await expect(gate.getByRole('heading', { name: 'Upgrade Required' })).toBeVisible();
  await expect(gate.getByText('Pro subscription needed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload person photo' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Upload garment photo' })).toBeDisabled();
  await expect(
    page.getByRole('button', { name: 'Choose from your generated images' }),
  ).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Start Try-On' })).toBeDisabled();
  await expect(page.getByText('JPG, PNG up to 10MB').first()).toBeVisible();
  await expect(page.getByText('This takes about 30-60 seconds.')).toBeVisible();
  await expect(page.getByText('Your try-on results will appear here.')).toBeVisible();

  await expectNoSeriousA11yViolations(page);
  await saveScreenshots(page, 'tryon-tab-locked');

  await gate.getByRole('link', { name: 'Upgrade', exact: true }).click();
  await expect(page).toHaveURL('/subscription?from=tryon');
  await expect(page.getByRole('article', { name: 'Pro', exact: true })).toBeVisible();

  // The public page's way in for a plan without try-on is the plans, worded for try-on.
  await page.goto('/tryon');
  await expect(
    page.getByRole('link', { name: 'Choose a plan for Try-On' }).first(),
  ).toHaveAttribute('href', '/subscription?from=tryon');
});

test('a signed-in visitor without a plan is led to the plans, where Basic is no try-on plan', async ({
  page,
}) => {
  await signUpInBrowser(page, 'tryon-no-plan');
  await page.goto('/tryon');
  await expect(
    page.getByRole('link', { name: 'Choose a plan for Try-On' }).first(),
  ).toHaveAttribute('href', '/subscription?from=tryon');
  const plans = page.getByRole('list', { name: 'Plans' });
  await expect(
    plans.getByRole('article', { name: 'Basic', exact: true }).getByRole('button'),
  ).toHaveText('No Try-On');
  await expect(
    plans.getByRole('article', { name: 'Basic', exact: true }).getByRole('button'),
  ).toBeDisabled();
  await expect(
    plans.getByRole('article', { name: 'Pro', exact: true }).getByRole('button'),
  ).toHaveText('Select Plan');
  await expect(
    plans.getByRole('article', { name: 'Pro', exact: true }).getByRole('button'),
  ).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
});

test('a Pro subscriber tries a garment on one of their generated images', async ({ page }) => {
  test.setTimeout(600_000);
  await signUpInBrowser(page, 'tryon-pro');
  await subscribeThroughApi(page, 'price_pro');
  const modelId = await trainModelThroughApi(page, 'Try-On Model');
  await generateImageThroughApi(page, modelId);
  const garment = await makeGarmentPhoto();

  await page.goto('/dashboard?main=tryon');
  const tab = page.getByRole('tab', { name: 'Try-On' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(tab.locator('svg.lucide-lock')).toHaveCount(0);
  await expect(tab).toHaveAccessibleName('Try-On');
  await expect(page.getByTestId('tryon-gate')).toHaveCount(0);

  await test.step('Start Try-On without pictures asks for both', async () => {
    await page.getByRole('button', { name: 'Start Try-On' }).click();
    await expect(
      page.getByRole('alert').filter({
        hasText: 'Please select both a person image and a garment image',
      }),
    ).toBeVisible();
  });

  await test.step('a generated image is chosen as the person', async () => {
    await page.getByRole('button', { name: 'Choose from your generated images' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a generated image' });
    const choices = dialog
      .getByRole('list', { name: 'Choose a generated image' })
      .getByRole('button');
    await expect(choices).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await choices.first().click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('img', { name: 'The chosen person image' })).toBeVisible();
    await expect(page.getByText('From your generated images', { exact: true })).toBeVisible();
  });

  // The slot's buttons open this (hidden) file input.
  const garmentInput = page
    .getByRole('region', { name: 'Garment image' })
    .locator('input[type="file"]');

  await test.step('a file that is not an image is refused before upload', async () => {
    await garmentInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a garment'),
    });
    await expect(page.getByText(/^Not a supported image type/)).toBeVisible();
  });

  await test.step('the garment is uploaded and previewed', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload garment photo' }).click();
    await (await chooser).setFiles(garment);
    await expect(page.getByRole('img', { name: 'The chosen garment image' })).toBeVisible();
    await expect(page.getByText('green-t-shirt.png')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshots(page, 'tryon-tab-ready');
  });

  const creditsBefore = await page.request
    .get('/api/billing/subscription')
    .then(async (response) => ((await response.json()) as { credits: number }).credits);

  await test.step('Start Try-On shows the result', async () => {
    await page.getByRole('button', { name: 'Start Try-On' }).click();
    // The local engine works in-process: the start answer waited for it, so it is already done.
    await expect(page.getByText('AI Try-On completed! View your result below.')).toBeVisible({
      timeout: 20_000,
    });
    const results = page.getByRole('list', { name: 'Your Try-On Results' });
    const card = results.getByRole('article');
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Ready', { exact: true })).toBeVisible();
    await expect(card.getByText('Preview', { exact: true })).toBeVisible();
    await expect(card.getByText('Just now')).toBeVisible();
    const result = card.getByRole('img', { name: /^Try-on result from/ });
    await expect(result).toBeVisible();
    await expect
      .poll(() => result.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    // The garment slot is emptied for the next try; the person stays.
    await expect(page.getByRole('button', { name: 'Upload garment photo' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'The chosen person image' })).toBeVisible();
  });

  await test.step('one credit was spent', async () => {
    await expect
      .poll(async () =>
        page.request
          .get('/api/billing/subscription')
          .then(async (response) => ((await response.json()) as { credits: number }).credits),
      )
      .toBe(creditsBefore - 1);
  });

  await test.step('the result downloads', async () => {
    const card = page.getByRole('list', { name: 'Your Try-On Results' }).getByRole('article');
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toMatch(/^try-on-.+\.jpg$/);
    await expect(page.getByText('Image downloaded successfully!')).toBeVisible();
  });

  await expectNoSeriousA11yViolations(page);
  await saveScreenshots(page, 'tryon-tab-result');

  await test.step('the public page leads a Pro subscriber to the tab', async () => {
    await page.goto('/tryon');
    await page.getByRole('link', { name: 'Open Try-On' }).first().click();
    await expect(page).toHaveURL('/dashboard?main=tryon');
  });
});
