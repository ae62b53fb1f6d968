import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { presetIdsOf } from './support/generation.ts';
import { screenshotDir, signUpInBrowser } from './support/people.ts';
import { subscribeThroughApi, trainModelThroughApi } from './support/studio-api.ts';

// The signed-in journey as a paying user lives it (issue 22): feedback where they act, no dead
// ends, phone first. Texts are written out on purpose: the tests check what a person reads.

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };
/** The picture is made by the offline studio engine in draft mode, on two shared cores. */
const liveTimeout = 120_000;

/**
 * Whether the element starts high enough on the first screen, without any scrolling, for a good
 * part of it (a quarter of the screen) to be seen there.
 */
async function startsAboveTheFold(page: Page, locator: ReturnType<Page['locator']>) {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  expect(box, 'element has a box').not.toBeNull();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  return box!.y < height * 0.75;
}

/** Whether the whole element is inside the first screen, without any scrolling. */
async function wholeAboveTheFold(page: Page, locator: ReturnType<Page['locator']>) {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  expect(box, 'element has a box').not.toBeNull();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  return box!.y >= 0 && box!.y + box!.height <= height;
}

/**
 * Whether the element ends above the bar stuck to the bottom of a phone's screen, so the bar
 * hides none of it (what the user fills in before pressing the bar's button).
 */
async function clearOfTheBar(
  locator: ReturnType<Page['locator']>,
  bar: ReturnType<Page['locator']>,
) {
  const [box, barBox] = [await locator.boundingBox(), await bar.boundingBox()];
  expect(box, 'element has a box').not.toBeNull();
  expect(barBox, 'bar has a box').not.toBeNull();
  return box!.y + box!.height <= barBox!.y;
}

/** Switches the test-mode subscription to Pro, as the test portal's plan change does. */
async function moveUpToPro(page: Page) {
  const current = (await (await page.request.get('/api/billing/subscription')).json()) as {
    tier: string;
  };
  if (current.tier === 'pro') return;
  const switched = await page.request.post('/api/billing/test-portal/switch', {
    data: { priceId: 'price_pro' },
  });
  expect(switched.status(), await switched.text()).toBe(200);
}

test('a cancelled checkout returns to the plans and says nothing was charged', async ({ page }) => {
  await signUpInBrowser(page, 'cancels');
  await page.goto('/subscription');
  await page
    .getByRole('article', { name: 'Pro', exact: true })
    .getByRole('button', { name: 'Select Plan' })
    .click();
  await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
  await page.getByRole('button', { name: 'Cancel and return' }).click();

  await expect(page).toHaveURL('/subscription');
  const notice = page.getByTestId('checkout-cancelled');
  await expect(notice).toHaveText('Checkout cancelled. You have not been charged.');
  await expect(notice).toHaveRole('status');
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/checkout-cancelled-1280.png` });
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toHaveCount(0);
  // Nothing was bought.
  await page.goto('/dashboard');
  await expect(page.getByText('No active plan')).toBeVisible();
});

test('on a phone, a cancelled credit pack checkout returns to the packs and says nothing was charged', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await signUpInBrowser(page, 'cancels-pack');
  await subscribeThroughApi(page, 'price_basic');
  await page.goto('/buy-credits');
  const balance = page.getByRole('banner').getByRole('link', { name: /^Credit balance: / });
  const before = await balance.getAttribute('aria-label');
  await page
    .getByRole('article', { name: '200 Credits' })
    .getByRole('button', { name: 'Buy Now' })
    .click();
  await expect(page).toHaveURL(/\/test-checkout\/[^/]+$/);
  await page.getByRole('button', { name: 'Cancel and return' }).click();

  await expect(page).toHaveURL('/buy-credits');
  const notice = page.getByTestId('checkout-cancelled');
  await expect(notice).toHaveText('Checkout cancelled. You have not been charged.');
  expect(await wholeAboveTheFold(page, notice)).toBe(true);
  await page.screenshot({ path: `${screenshotDir}/checkout-cancelled-390.png` });
  // Nothing was bought: the balance is what it was.
  await expect(balance).toHaveAttribute('aria-label', before!);
});

test('without a plan, the dashboard leads to the plans; on a phone its tabs start on the first screen', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await signUpInBrowser(page, 'no-plan');
  await page.goto('/dashboard');
  const summary = page.getByTestId('plan-summary');
  await expect(summary).toHaveAttribute('data-next-step', 'noPlan');
  await expect(page.getByTestId('next-step')).toHaveText('Choose a plan');
  await expect(page.getByTestId('next-step')).toHaveAttribute('href', '/subscription');
  const presets = page.getByRole('tabpanel', { name: 'Presets' });
  await expect(presets).toBeVisible();
  expect(await startsAboveTheFold(page, presets)).toBe(true);
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/dashboard-no-plan-390.png` });
});

test('a tiny face is refused as too small, a mirrored copy as almost the same as the photo it copies, and failed photos leave their places free', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpInBrowser(page, 'tiny-face');
  await subscribeThroughApi(page, 'price_basic');
  await page.goto('/upload-photos');
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      path.resolve('assets/seed/quality/tiny-face.jpg'),
      path.resolve('assets/seed/not-a-face/cat.jpg'),
      path.resolve('assets/seed/person-a/a-01.jpg'),
    ]);
  await expect(page.getByText('3 of 12 photos')).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  const tiny = page.getByRole('article', { name: 'tiny-face.jpg', exact: true });
  await expect(tiny.getByText('Face too small')).toBeVisible({ timeout: 120_000 });
  await expect(
    tiny.getByText(
      "Use a closer photo: your face should be at least 128 px and 15% of the photo's shorter side.",
    ),
  ).toBeVisible();
  const cat = page.getByRole('article', { name: 'cat.jpg', exact: true });
  await expect(cat.getByText('No face found')).toBeVisible({ timeout: 120_000 });

  // a-09 is a-01 mirrored, cropped and turned 3 degrees: the card names a-01 by its number.
  const original = page.getByRole('article', { name: 'a-01.jpg', exact: true });
  await expect(original.getByText('Passed')).toBeVisible({ timeout: 120_000 });
  const number = await original.getByText(/^Photo \d+$/).textContent();
  await page
    .locator('input[type="file"]')
    .setInputFiles([path.resolve('tests/fixtures/photos/person-a/a-09.jpg')]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const copy = page.getByRole('article', { name: 'a-09.jpg', exact: true });
  await expect(
    copy.getByText(`This photo is almost the same as ${number!.toLowerCase()}`, { exact: true }),
  ).toBeVisible({ timeout: 120_000 });
  // The three failed take none of the 12 places: a-01 takes one, 11 are free.
  await expect(page.getByText('1 of 12 photos')).toBeVisible();
  await mkdir(screenshotDir, { recursive: true });
  await page.setViewportSize(phone);
  await page.screenshot({ path: `${screenshotDir}/upload-tiny-face-390.png`, fullPage: true });
});

test('on a phone, the upload page shows Choose photos and Upload on the first screen, Upload below a long selection, then Continue', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpInBrowser(page, 'upload-phone');
  await subscribeThroughApi(page, 'price_basic');
  await page.setViewportSize(phone);
  await page.goto('/upload-photos');
  const choose = page.locator('label').filter({ hasText: 'Choose photos' });
  const upload = page.getByRole('button', { name: 'Upload', exact: true });
  await expect(page.getByText('0 of 12 photos')).toBeVisible();
  expect(await wholeAboveTheFold(page, choose)).toBe(true);
  expect(await wholeAboveTheFold(page, upload)).toBe(true);

  // Eight chosen files make a long list above Upload: the button stays on the screen.
  await page
    .locator('input[type="file"]')
    .setInputFiles(
      Array.from({ length: 8 }, (_, index) =>
        path.resolve(`assets/seed/person-a/a-0${index + 1}.jpg`),
      ),
    );
  await expect(page.getByText('8 of 12 photos')).toBeVisible();
  await expect(page.getByText('Waiting')).toHaveCount(8);
  expect(await wholeAboveTheFold(page, upload)).toBe(true);
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/upload-chosen-390.png` });

  await upload.click();
  await expect(page.getByRole('article').getByText('Passed', { exact: true })).toHaveCount(8, {
    timeout: 150_000,
  });
  // Once they passed, Continue is what comes next: on the first screen, below the photos.
  const continueLink = page.getByRole('link', { name: 'Continue', exact: true });
  await expect(continueLink).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await wholeAboveTheFold(page, continueLink)).toBe(true);
  expect(await wholeAboveTheFold(page, choose)).toBe(true);
  await page.screenshot({ path: `${screenshotDir}/upload-passed-390.png` });
  await mkdir('docs/images', { recursive: true });
  await page.screenshot({ path: 'docs/images/upload-phone.png' });

  // On a desktop the page keeps its one column, Continue after the photos.
  await page.setViewportSize(desktop);
  expect(await startsAboveTheFold(page, choose)).toBe(true);
  await continueLink.scrollIntoViewIfNeeded();
  await expect(continueLink).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${screenshotDir}/upload-passed-1280.png`, fullPage: true });
});

test.describe.serial('a Basic subscriber with their one trained model', () => {
  test.describe.configure({ timeout: 300_000 });

  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(420_000);
    context = await browser.newContext({ baseURL, acceptDownloads: true });
    page = await context.newPage();
    await signUpInBrowser(page, 'basic-journey');
    await subscribeThroughApi(page, 'price_basic');
    await trainModelThroughApi(page, 'Me');
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('the dashboard offers to generate, never to create a model the plan has no room for', async () => {
    for (const viewport of [desktop, phone]) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await expect(page.getByTestId('plan-summary')).toHaveAttribute('data-next-step', 'atLimit');
      await expect(page.getByTestId('next-step')).toHaveText('Generate photos');
      await expect(page.getByRole('link', { name: /Create your AI model/ })).toHaveCount(0);
      await expect(page.getByRole('link', { name: /Create another model/ })).toHaveCount(0);
      await expect(page.getByTestId('next-step-note')).toContainText(
        'Your Basic plan includes 1 AI model, and it is in use.',
      );
      await expect(
        page.getByTestId('next-step-note').getByRole('link', { name: 'Upgrade for more models' }),
      ).toHaveAttribute('href', '/subscription');
      const presets = page.getByRole('tabpanel', { name: 'Presets' });
      await expect(presets).toBeVisible();
      if (viewport === phone) expect(await startsAboveTheFold(page, presets)).toBe(true);
      await page.screenshot({ path: `${screenshotDir}/dashboard-at-limit-${viewport.width}.png` });
    }
    await page.getByTestId('next-step').click();
    await expect(page).toHaveURL('/dashboard?main=generation&sub=presets');
  });

  test('Generate on a preset page shows the progress, then the picture, with download and all results', async () => {
    const [presetId] = await presetIdsOf(page);
    await page.setViewportSize(phone);
    await page.goto(`/model/${presetId}`);
    const generate = page.getByRole('button', { name: 'Generate Now' });
    await expect(generate).toBeEnabled();
    expect(await wholeAboveTheFold(page, generate)).toBe(true);
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/preset-before-generate-390.png` });

    await generate.click();
    const result = page.getByTestId('generation-result');
    await expect(result.getByRole('status')).toHaveText(
      'Generating your photo... It usually takes under a minute.',
    );
    await expect(result.getByRole('progressbar', { name: 'Generating your photo' })).toBeVisible();
    await expect(result).toBeInViewport();

    await expect(result).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
    await expect(result.getByRole('status')).toHaveText('Your photo is ready');
    const picture = result.getByRole('img');
    await expect(picture).toBeVisible();
    await expect
      .poll(() => picture.evaluate((node: HTMLImageElement) => node.naturalWidth))
      .toBeGreaterThan(0);

    // For the acceptance: the preset page after Generate, on a phone and a desktop,
    // once the toast has gone. The phone shows the button and the result below it; the desktop
    // the whole page's first screen, a little taller than a laptop's.
    // (A toast under the pointer waits for it to leave.)
    await page.mouse.move(0, 0);
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await mkdir('docs/images', { recursive: true });
    await page.evaluate(() => {
      const bar = document.querySelector('[data-testid="preset-generate-bar"]')!;
      window.scrollTo(0, bar.getBoundingClientRect().top + window.scrollY - 72);
    });
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'docs/images/preset-after-generate-phone.png' });
    await page.setViewportSize({ width: desktop.width, height: 1150 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'docs/images/preset-after-generate-desktop.png' });
    await page.setViewportSize(phone);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      result.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.jpe?g$/);

    await result.getByRole('link', { name: 'See all your photos' }).click();
    await expect(page).toHaveURL('/dashboard?main=generation&sub=generated');
    await expect(page.getByTestId('generation-card').first()).toHaveAttribute(
      'data-status',
      'complete',
    );
  });

  test('in the Generated tab, several images are downloaded, favourited and deleted together', async () => {
    // Two pictures in the list (the test before made one), made through the API: this test is
    // about the list, not about making them.
    const presetIds = await presetIdsOf(page);
    const { models } = (await (await page.request.get('/api/studio/models')).json()) as {
      models: { id: string }[];
    };
    const { generations } = (await (await page.request.get('/api/generations')).json()) as {
      generations: unknown[];
    };
    for (let n = generations.length; n < 2; n += 1) {
      const made = await page.request.post('/api/generations', {
        data: { userModelId: models[0]!.id, presetId: presetIds[n + 1] },
      });
      expect(made.status(), await made.text()).toBe(201);
    }

    await page.setViewportSize(phone);
    await page.goto('/dashboard?main=generation&sub=generated');
    const cards = page.getByTestId('generation-card');
    await expect(cards).toHaveCount(2);
    for (const card of [cards.nth(0), cards.nth(1)]) {
      await expect(card).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
    }

    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    await expect(bar.getByRole('status')).toHaveText('0 images selected');
    const boxes = page.getByRole('checkbox', { name: /^Select / });
    await boxes.nth(0).click();
    await boxes.nth(1).click();
    await expect(boxes.nth(1)).toBeChecked();
    await expect(bar.getByRole('status')).toHaveText('2 images selected');
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/generated-selection-390.png` });
    await page.setViewportSize(desktop);
    await page.screenshot({ path: `${screenshotDir}/generated-selection-1280.png` });

    const zipLink = bar.getByRole('link', { name: 'Download (zip)' });
    const zip = await page.request.get((await zipLink.getAttribute('href'))!);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-disposition']).toContain('likeness-selection.zip');

    await bar.getByRole('button', { name: 'Add to favourites' }).click();
    await expect(
      page.locator('[data-sonner-toast]').filter({ hasText: '2 images added to favourites' }),
    ).toBeVisible();
    await page
      .getByRole('group', { name: 'Show' })
      .getByRole('button', { name: 'Favourites' })
      .click();
    await expect(cards).toHaveCount(2);

    await bar.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete 2 images?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(
      page.locator('[data-sonner-toast]').filter({ hasText: '2 images deleted' }),
    ).toBeVisible();
    await expect(cards).toHaveCount(0);
    await expect(bar).toHaveCount(0);
  });

  // Custom prompts and try-on are Pro features: the same person moves up to Pro (the test
  // portal's plan change) rather than a second person training a second model.

  test("after moving up to Pro, the custom-prompt and try-on pages show Generate and Start Try-On on a phone's first screen, under what is to fill in", async () => {
    await moveUpToPro(page);
    await mkdir(screenshotDir, { recursive: true });
    await mkdir('docs/images', { recursive: true });

    // Custom prompt: the model, the prompt, then Generate Image, all on the first screen.
    await page.setViewportSize(phone);
    await page.goto('/custom-prompt');
    const prompt = page.getByRole('textbox', { name: 'Prompt' });
    const generate = page.getByRole('button', { name: 'Generate Image' });
    await expect(prompt).toBeEnabled();
    await expect(generate).toHaveAttribute('data-state', 'generate');
    expect(await wholeAboveTheFold(page, prompt)).toBe(true);
    expect(await wholeAboveTheFold(page, generate)).toBe(true);
    expect(await clearOfTheBar(prompt, page.getByTestId('custom-generate-bar'))).toBe(true);
    await prompt.fill('On a sailboat at golden hour, linen shirt');
    await page.screenshot({ path: `${screenshotDir}/custom-prompt-390.png` });
    await page.screenshot({ path: 'docs/images/custom-prompt-phone.png' });
    await page.setViewportSize(desktop);
    expect(await wholeAboveTheFold(page, prompt)).toBe(true);
    expect(await wholeAboveTheFold(page, generate)).toBe(true);
    await expect(page.getByTestId('prompt-tips')).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}/custom-prompt-1280.png` });

    // Try-on (the dashboard's tab): the person photo to add first and Start Try-On share the
    // first screen; the bar at the bottom hides neither that slot nor its call to action.
    await page.setViewportSize(phone);
    await page.goto('/dashboard?main=tryon');
    const start = page.getByRole('button', { name: 'Start Try-On' });
    const person = page.getByRole('button', { name: 'Upload person photo' });
    await expect(start).toBeEnabled();
    await expect(person).toBeEnabled();
    expect(await wholeAboveTheFold(page, start)).toBe(true);
    expect(await wholeAboveTheFold(page, person)).toBe(true);
    expect(await clearOfTheBar(person, page.getByTestId('tryon-start-bar'))).toBe(true);
    // Nothing wider than the screen (the slots once stuck out past the page's edge).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      phone.width,
    );
    await page.screenshot({ path: `${screenshotDir}/tryon-390.png` });
    await page.screenshot({ path: 'docs/images/tryon-phone.png' });
    // Scrolled to the garment, Start Try-On is still at hand.
    const garment = page.getByRole('button', { name: 'Upload garment photo' });
    await garment.scrollIntoViewIfNeeded();
    await expect(start).toBeInViewport({ ratio: 1 });
    await expect(garment).toBeInViewport();

    // On a desktop the two slots stand side by side with Start Try-On below them.
    await page.setViewportSize(desktop);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The layout follows the resize a frame or more later: read the boxes until it has.
    await expect
      .poll(async () => {
        const [personBox, garmentBox] = [await person.boundingBox(), await garment.boundingBox()];
        return {
          sameRow: personBox!.y === garmentBox!.y,
          personLeftOfGarment: personBox!.x + personBox!.width < garmentBox!.x,
        };
      })
      .toEqual({ sameRow: true, personLeftOfGarment: true });
    await page.screenshot({ path: `${screenshotDir}/tryon-1280.png` });
    await start.scrollIntoViewIfNeeded();
    await expect(start).toBeInViewport({ ratio: 1 });
    const garmentBelow = (await garment.boundingBox())!;
    expect((await start.boundingBox())!.y).toBeGreaterThan(garmentBelow.y + garmentBelow.height);

    // The public try-on page leads in on the first screen too.
    await page.setViewportSize(phone);
    await page.goto('/tryon');
    const openTryOn = page.getByRole('link', { name: 'Open Try-On' }).first();
    await expect(openTryOn).toBeVisible();
    expect(await wholeAboveTheFold(page, openTryOn)).toBe(true);
  });

  test('Generate on the custom-prompt page shows the progress, then the picture, with download and all results', async () => {
    await moveUpToPro(page);
    for (const viewport of [phone, desktop]) {
      await page.setViewportSize(viewport);
      await page.goto('/custom-prompt');
      const words = `Reading in a sunlit library, ${viewport.width} px`;
      await page.getByRole('textbox', { name: 'Prompt' }).fill(words);
      const generate = page.getByRole('button', { name: 'Generate Image' });
      expect(await wholeAboveTheFold(page, generate)).toBe(true);
      await generate.click();

      const result = page.getByTestId('generation-result');
      await expect(result.getByRole('status')).toHaveText(
        'Generating your photo... It usually takes under a minute.',
      );
      await expect(
        result.getByRole('progressbar', { name: 'Generating your photo' }),
      ).toBeVisible();
      await expect(result).toBeInViewport();
      // Titled by its prompt, not "Custom: Me".
      await expect(result.getByText(words, { exact: true })).toBeVisible();

      await expect(result).toHaveAttribute('data-status', 'complete', { timeout: liveTimeout });
      await expect(result.getByRole('status')).toHaveText('Your photo is ready');
      const picture = result.getByRole('img');
      await expect(picture).toBeVisible();
      await expect
        .poll(() => picture.evaluate((node: HTMLImageElement) => node.naturalWidth))
        .toBeGreaterThan(0);
      await result.scrollIntoViewIfNeeded();
      await mkdir(screenshotDir, { recursive: true });
      await page.screenshot({
        path: `${screenshotDir}/custom-prompt-result-${viewport.width}.png`,
      });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        result.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.jpe?g$/);
      await expect(result.getByRole('link', { name: 'See all your photos' })).toBeVisible();
    }

    await page
      .getByTestId('generation-result')
      .getByRole('link', { name: 'See all your photos' })
      .click();
    await expect(page).toHaveURL('/dashboard?main=generation&sub=generated');
    const cards = page.getByTestId('generation-card');
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toHaveAttribute('data-status', 'complete');
  });
});
