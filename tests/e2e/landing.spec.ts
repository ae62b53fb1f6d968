import { expect, test, type Locator, type Page } from '@playwright/test';
import { drawWholePage, expectNoSeriousA11yViolations, signUpInBrowser } from './support/people.ts';

// The landing page as a visitor meets it, with the default seeded catalog. Texts are written out
// (not imported from messages.ts) on purpose: the tests check what a person reads.

const firstPrompt = 'A confident professional headshot in a modern office, soft window light';
const carouselCategories = ['Professional', '80s', 'Classy', 'Fantasy', 'Fashion'];

function section(page: Page, heading: string | RegExp): Locator {
  return page.getByRole('region', { name: heading });
}

/** Pictures in the viewport (not the marquee's copies beyond the edge) that have not loaded. */
async function unloadedPicturesInView(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main img')].flatMap((node) => {
      const img = node as HTMLImageElement;
      const box = img.getBoundingClientRect();
      const inView =
        box.width > 0 &&
        box.right > 0 &&
        box.left < window.innerWidth &&
        box.bottom > 0 &&
        box.top < window.innerHeight;
      if (!inView) return [];
      return img.complete && img.naturalWidth > 0 ? [] : [img.currentSrc || img.src];
    }),
  );
}

/**
 * Scrolls to the bottom a half screen at a time and, at each stop, waits until every picture in
 * view has really loaded (naturalWidth > 0): what a visitor scrolling down would see.
 */
async function expectAllPicturesLoaded(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = page.viewportSize()!.height / 2;
  for (let y = 0; y <= height; y += step) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
    await expect.poll(() => unloadedPicturesInView(page), { timeout: 15_000 }).toEqual([]);
  }
}

/**
 * For the tests of the page's motion (the config asks for reduced motion, in which the page holds
 * still): motion back on, the page's fake clock, which runs until `holdClock`, and the page
 * opened. Its markup arrives complete and its code takes it over after the first paint (decision
 * 061), on that clock; the motion starts then, when the account buttons show.
 */
async function openWithMotion(page: Page) {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toBeVisible();
}

/**
 * Stops the page's fake clock, so each `runFor` moves exactly that far; otherwise real time keeps
 * flowing between the test's steps. Called once the page's data is there (its queries report
 * through timers) and before a section is scrolled into view (its motion starts in view).
 * `pauseAt` must name a moment still ahead of the page's clock, which a busy machine can pass
 * between reading the clock and pausing it: then it is read again.
 */
async function holdClock(page: Page) {
  await expect(async () => {
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
  }).toPass();
}

test('every section of the landing page renders with the seeded pictures', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(
    'Professional AI photos of you, in any style',
  );
  await expect(main.getByText('Upload 8-12 photos', { exact: false }).first()).toBeVisible();
  await expect(main).not.toContainText('10-20');

  // Hero: three real looks from the preset gallery; the first is fetched eagerly, first.
  const preview = main.getByRole('group', { name: 'A preview of the style presets' });
  await expect(preview.getByRole('img')).toHaveCount(3);
  await expect(preview.locator('img[fetchpriority="high"]')).toHaveCount(1);
  await expect(preview.locator('img[loading="eager"]')).toHaveCount(3);

  const howItWorks = section(page, 'How It Works');
  for (const step of ['Upload your photos', 'AI training', 'Generate and download']) {
    await expect(howItWorks.getByRole('heading', { name: step })).toBeVisible();
  }
  await expect(howItWorks.getByTestId('step-three-images').locator('img')).toHaveCount(4);

  // Every category of the content pack with pictured presets: the five carousel ones and three more.
  const showcase = section(page, 'Choose your style');
  await expect(showcase.getByRole('tab')).toHaveCount(8);
  await expect(showcase.getByRole('tab', { name: /Professional/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(showcase.getByRole('tabpanel').getByRole('img').first()).toBeVisible();

  await expect(section(page, 'Or describe any scenario')).toBeVisible();

  const possibilities = section(page, 'Endless Possibilities');
  for (const use of ['Professional headshots', 'Creative avatars', 'Social media']) {
    await expect(possibilities.getByRole('heading', { name: use })).toBeVisible();
  }

  const examples = section(page, 'Made with Likeness');
  await expect(examples.getByRole('tab')).toHaveText(carouselCategories);

  const pricing = page.locator('#pricing');
  await expect(pricing.getByRole('heading', { level: 3 })).toHaveText(['Basic', 'Pro', 'Premium']);
  await expect(pricing.getByTestId('plan-pro')).toContainText('MOST POPULAR');
  await expect(pricing.getByTestId('plan-basic')).not.toContainText('MOST POPULAR');
  await expect(pricing.getByTestId('plan-pro')).toContainText('$49');
  await expect(pricing.getByTestId('plan-pro')).toContainText('500 Credits / Month');

  await expect(section(page, 'Ready to see yourself in a new light?')).toBeVisible();

  const demo = section(page, 'See it in action');
  await expect(demo.getByText('Original', { exact: true })).toBeVisible();

  // The sections come in the order the specification lists them, the prompt demo last.
  await expect(main.locator('section h2').filter({ visible: true })).toHaveText([
    'How It Works',
    'Choose your style',
    'Or describe any scenario',
    'Endless Possibilities',
    'Simple, transparent pricing',
    'Ready to see yourself in a new light?',
    'Made with Likeness',
    'See it in action',
  ]);

  // Every picture has alt text (the marquee's hidden copies say '' on purpose), and below the
  // hero they load lazily with a srcset the browser can choose from.
  const pictures = main.locator('img');
  for (const picture of await pictures.all()) {
    await expect(picture).toHaveAttribute('alt');
  }
  const lazy = await main.locator('img[loading="lazy"]').count();
  expect(lazy).toBeGreaterThan(20);
  await expect(main.locator('img:not([srcset])')).toHaveCount(0);
  await expect(main.locator('img:not([width])')).toHaveCount(0);

  await expectAllPicturesLoaded(page);
});

test('the page arrives drawn and compressed, and the app takes it over without a hitch', async ({
  page,
  request,
}) => {
  // What a browser has before any script runs: the landing page itself, compressed, and no
  // inline script (the Content-Security-Policy would refuse one). Other paths get the bare shell.
  const response = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(response.headers()['content-encoding']).toBe('br');
  const html = await response.text();
  expect(html).toContain('<title>Likeness: AI Photos of You</title>');
  expect(html).toContain('Professional AI photos of you, in any style');
  expect(html.match(/<script/g)).toHaveLength(1);
  expect(await (await request.get('/login')).text()).not.toContain('Professional AI photos');

  // Taking it over logs nothing (a hydration mismatch would), and the session still shows.
  const problems: string[] = [];
  page.on('console', (message) => {
    // Signed out, GET /api/me answers 401 by design.
    if (message.type() === 'error' && !message.text().includes('401')) {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto('/');
  await expect(
    page.getByRole('main').getByRole('link', { name: 'Create Your AI Photos' }),
  ).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Get Started' })).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'A preview of the style presets' }).getByRole('img'),
  ).toHaveCount(3);
  expect(problems).toEqual([]);
});

test('the top bar Pricing link lands on the pricing section', async ({ page }) => {
  await page.goto('/');
  await followPricingLink(page);
});

/** The top bar's Pricing link, followed to the pricing section. */
async function followPricingLink(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Pricing' })
    .click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeInViewport();
}

test('the examples carousel advances by itself every 6 seconds', async ({ page }) => {
  await openWithMotion(page);
  const examples = section(page, 'Made with Likeness');
  const selected = examples.getByRole('tab', { selected: true });
  await expect(selected).toHaveText('Professional');
  await holdClock(page);
  await examples.scrollIntoViewIfNeeded();
  await expect(examples.getByTestId('examples-progress')).toBeVisible();

  await page.clock.runFor(6000);
  await expect(selected).toHaveText('80s');
  await page.clock.runFor(6000);
  await expect(selected).toHaveText('Classy');
  await expect(examples.getByRole('tabpanel').getByRole('img').first()).toHaveAttribute(
    'alt',
    /.+/,
  );
});

test('picking a carousel category by hand stops the auto-advance', async ({ page }) => {
  await openWithMotion(page);
  const examples = section(page, 'Made with Likeness');
  await expect(examples.getByRole('tab', { selected: true }), 'the first tab at first').toHaveText(
    'Professional',
  );
  await holdClock(page);
  await examples.scrollIntoViewIfNeeded();

  const selected = examples.getByRole('tab', { selected: true });
  await examples.getByRole('tab', { name: 'Fashion' }).click();
  await expect(selected, 'the tab clicked is selected').toHaveText('Fashion');
  await expect(examples.getByTestId('examples-progress')).toHaveCount(0);
  await page.clock.runFor(20_000);
  await expect(selected, 'still the tab clicked, 20 s later').toHaveText('Fashion');

  // Keyboard: arrows move between categories and select them.
  await examples.getByRole('tab', { name: 'Fashion' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(examples.getByRole('tab', { name: 'Fantasy' })).toBeFocused();
  await expect(selected, 'Arrow Left selects the tab before').toHaveText('Fantasy');
});

test('the style showcase rotates its category tabs', async ({ page }) => {
  await openWithMotion(page);
  const showcase = section(page, 'Choose your style');
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('Professional');
  await holdClock(page);
  await showcase.scrollIntoViewIfNeeded();
  // It starts once in view: the progress line under the tab says it is running.
  await expect(showcase.getByTestId('showcase-progress')).toBeVisible();
  await page.clock.runFor(6000);
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('80s');
  await expect(showcase.getByRole('tabpanel').getByRole('img').first()).toHaveAccessibleName(/.+/);
});

test('picking a showcase category by hand stops its tabs from rotating', async ({ page }) => {
  await openWithMotion(page);
  const showcase = section(page, 'Choose your style');
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('Professional');
  await holdClock(page);
  await showcase.scrollIntoViewIfNeeded();
  await expect(showcase.getByTestId('showcase-progress')).toBeVisible();
  await showcase.getByRole('tab', { name: /Classy/ }).click();
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('Classy');
  await expect(showcase.getByTestId('showcase-progress')).toHaveCount(0);
  await page.clock.runFor(20_000);
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('Classy');
});

test('the showcase row stops under the pointer and moves on when it leaves', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/');
  const marquee = section(page, 'Choose your style').getByTestId('preset-marquee');
  await marquee.scrollIntoViewIfNeeded();
  const firstCard = marquee.getByRole('listitem').first();
  // The row's cards come with the catalog, which a busy machine may still be fetching.
  await expect(firstCard).toBeVisible();
  const left = async () => (await firstCard.boundingBox())!.x;
  // It scrolls on its own...
  const start = await left();
  await expect.poll(left).not.toBe(start);
  // ...holds still while the pointer rests on it...
  await marquee.hover();
  const held = await left();
  await page.waitForTimeout(500);
  expect(await left()).toBe(held);
  // ...and goes on once it leaves.
  await page.mouse.move(0, 0);
  await expect.poll(left).not.toBe(held);
});

test('the hero preview moves on to other looks every 6 seconds', async ({ page }) => {
  await openWithMotion(page);
  const preview = page.getByRole('group', { name: 'A preview of the style presets' });
  const looks = () =>
    preview.getByRole('img').evaluateAll((images) => images.map((img) => img.getAttribute('alt')));
  await expect(preview.getByRole('img')).toHaveCount(3);
  await holdClock(page);
  const first = await looks();
  await page.clock.runFor(6000);
  await expect.poll(looks).not.toEqual(first);
  const second = await looks();
  expect(second.filter((alt) => first.includes(alt))).toEqual([]);
});

test('the step-3 picture changes every 2 seconds among 4', async ({ page }) => {
  await openWithMotion(page);
  const shown = page.getByTestId('step-three-images').locator('img[data-active]');
  await expect(shown).toHaveCount(1);
  await holdClock(page);
  const seen: (string | null)[] = [await shown.getAttribute('src')];
  for (let step = 1; step <= 4; step += 1) {
    // Held, each 2 s moves it on exactly once: a shorter period would skip pictures, a longer
    // one would leave a step unchanged.
    await page.clock.runFor(2000);
    await expect(shown).not.toHaveAttribute('src', seen[step - 1]!);
    seen.push(await shown.getAttribute('src'));
  }
  // Four different pictures, then the first again.
  expect(new Set(seen.slice(0, 4)).size).toBe(4);
  expect(seen[4]).toBe(seen[0]);
});

test('the prompt demo types the first prompt, then shows the generated picture', async ({
  page,
}) => {
  await openWithMotion(page);
  await holdClock(page);
  const demo = page.getByTestId('prompt-demo');
  await demo.scrollIntoViewIfNeeded();
  // It starts when it comes into view, from the first character.
  await expect(demo).toHaveAttribute('data-running', 'true');
  const typed = demo.getByTestId('demo-prompt');
  const generatedIn = demo.getByText('Generated in 3 seconds');

  // 25 ms per character: a second in, part of the prompt is there, not all of it.
  await page.clock.runFor(1000);
  const partial = (await typed.textContent()) ?? '';
  expect(partial.length).toBeGreaterThan(10);
  expect(firstPrompt.startsWith(partial)).toBe(true);
  expect(partial.length).toBeLessThan(firstPrompt.length);
  await expect(generatedIn).toBeHidden();

  // The rest of the typing, the 300 ms pause and the reveal.
  await page.clock.runFor(firstPrompt.length * 25 + 300 + 300);
  await expect(typed).toHaveText(firstPrompt);
  await expect(generatedIn).toBeVisible();
  await expect(demo.getByRole('img', { name: `Generated portrait: ${firstPrompt}` })).toBeVisible();

  // After the 2500 ms hold the next prompt starts typing.
  await page.clock.runFor(2600);
  await expect(typed).not.toHaveText(firstPrompt);
  await expect(generatedIn).toBeHidden();
});

test('signed out, the plans and calls to action lead to sign-up', async ({ page }) => {
  await page.goto('/');
  const pricing = page.locator('#pricing');
  const buttons = pricing.getByRole('link', { name: 'Get Started' });
  await expect(buttons).toHaveCount(3);
  for (const button of await buttons.all()) await expect(button).toHaveAttribute('href', '/signup');
  await expect(pricing.getByRole('link', { name: 'Go to Dashboard' })).toHaveCount(0);
  await expect(
    section(page, 'Ready to see yourself in a new light?').getByRole('link', {
      name: 'Get Started',
    }),
  ).toHaveAttribute('href', '/signup');

  await buttons.nth(1).click();
  await expect(page).toHaveURL('/signup');
});

test('signed in, the plans and calls to action lead to the dashboard', async ({ page }) => {
  await page.goto('/terms');
  await signUpInBrowser(page);
  await page.goto('/');
  const pricing = page.locator('#pricing');
  const buttons = pricing.getByRole('link', { name: 'Go to Dashboard' });
  await expect(buttons).toHaveCount(3);
  for (const button of await buttons.all()) {
    await expect(button).toHaveAttribute('href', '/dashboard');
  }
  await expect(page.getByRole('main').getByRole('link', { name: 'Get Started' })).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Ready to see yourself in a new light?' }).getByRole('link'),
  ).toHaveAttribute('href', '/dashboard');
});

test('inside the app, the home link shows the landing page without loading a new document', async ({
  page,
}) => {
  // The landing page has its own entry for a first visit; from the app it is one of its pages,
  // reached through the router with the session the app already holds.
  await page.goto('/terms');
  await signUpInBrowser(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    (window as { sameDocument?: boolean }).sameDocument = true;
  });
  const sameDocument = () =>
    page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument === true);

  await page.getByRole('banner').getByRole('link', { name: 'Likeness home' }).click();
  await expect(page).toHaveURL('/');
  await expect(
    page.getByRole('heading', { name: 'Professional AI photos of you, in any style' }),
  ).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.locator('#pricing').getByRole('link', { name: 'Go to Dashboard' })).toHaveCount(
    3,
  );
  await followPricingLink(page);
  expect(await sameDocument()).toBe(true);

  // Its links stay in the app too.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Try-On' })
    .click();
  await expect(page).toHaveURL('/tryon');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Try-On' }),
  ).toHaveAttribute('aria-current', 'page');
  expect(await sameDocument()).toBe(true);
});

/** The example cards wholly inside the carousel's row as it is scrolled now, by their names. */
async function examplesInView(panel: Locator): Promise<string[]> {
  return panel.evaluate((row) => {
    const frame = row.getBoundingClientRect();
    return [...row.querySelectorAll('[data-testid="example-card"]')].flatMap((card) => {
      const box = card.getBoundingClientRect();
      const inside = box.left >= frame.left - 1 && box.right <= frame.right + 1;
      return inside ? [card.textContent ?? ''] : [];
    });
  });
}

/** The presets the landing API sends for the examples carousel's first category. */
async function professionalLooks(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/catalog/landing');
  const body = (await response.json()) as {
    categories: { manualId: string; presets: { displayName: string }[] }[];
  };
  const looks = body.categories.find((category) => category.manualId === 'professional')!.presets;
  return looks.map((preset) => preset.displayName);
}

/**
 * Arrow Right on the focused row, until `looks[first]` leads the `perView` cards in view. A key
 * press that lands while the previous scroll is still snapping into place can be swallowed by the
 * snap (seen in CI under load): only when the row has stood still on the previous cards is the
 * key pressed once more.
 */
async function scrollOneCard(
  page: Page,
  panel: Locator,
  looks: string[],
  first: number,
  perView: number,
) {
  const target = looks.slice(first, first + perView);
  await page.keyboard.press('ArrowRight');
  await expect
    .poll(() => examplesInView(panel))
    .toEqual(target)
    .catch(async (error: unknown) => {
      const stayed = looks.slice(first - 1, first - 1 + perView);
      if (JSON.stringify(await examplesInView(panel)) !== JSON.stringify(stayed)) throw error;
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => examplesInView(panel)).toEqual(target);
    });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the examples carousel shows 2 cards per view and scrolls to the rest', async ({ page }) => {
    await openWithMotion(page);
    const looks = await professionalLooks(page);
    expect(looks.length).toBeGreaterThan(4);
    const examples = section(page, 'Made with Likeness');
    const panel = examples.getByRole('tabpanel');
    const cards = panel.getByTestId('example-card');
    // Every look of the category is there, two at a time, none wider than 320 px.
    await expect(cards).toHaveText(looks);
    await holdClock(page);
    await cards.first().scrollIntoViewIfNeeded();
    await expect.poll(() => examplesInView(panel)).toEqual(looks.slice(0, 2));
    for (const card of await cards.all()) {
      expect((await card.boundingBox())!.width).toBeLessThanOrEqual(320);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // The row scrolls by hand to the last looks, whole cards at a time (it snaps); a swipe does
    // what the keyboard does here. Scrolling it stops the categories from taking turns.
    await panel.focus();
    for (let first = 1; first + 2 <= looks.length; first += 1)
      await scrollOneCard(page, panel, looks, first, 2);
    await expect(examples.getByTestId('examples-progress')).toHaveCount(0);
    await page.clock.runFor(20_000);
    await expect(examples.getByRole('tab', { selected: true })).toHaveText('Professional');
  });
});

test('the examples carousel shows 4 cards per view at 1280 px and scrolls by keyboard', async ({
  page,
}) => {
  await page.goto('/');
  const looks = await professionalLooks(page);
  const examples = section(page, 'Made with Likeness');
  const panel = examples.getByRole('tabpanel');
  const cards = panel.getByTestId('example-card');
  await cards.first().scrollIntoViewIfNeeded();
  await expect(cards).toHaveText(looks);
  await expect.poll(() => examplesInView(panel)).toEqual(looks.slice(0, 4));
  for (const card of await cards.all()) {
    expect((await card.boundingBox())!.width).toBeLessThanOrEqual(320);
  }

  // Tab from the selected category reaches the row.
  await examples.getByRole('tab', { selected: true }).focus();
  await page.keyboard.press('Tab');
  await expect(panel).toBeFocused();
  // Each Arrow Right moves the row on by one whole card, to the last ones.
  for (let first = 1; first + 4 <= looks.length; first += 1)
    await scrollOneCard(page, panel, looks, first, 4);
});

test('with reduced motion the page holds still and shows final states', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.clock.install();
  await page.goto('/');

  const demo = page.getByTestId('prompt-demo');
  await demo.scrollIntoViewIfNeeded();
  await expect(demo.getByTestId('demo-prompt')).toHaveText(firstPrompt);
  await expect(demo.getByText('Generated in 3 seconds')).toBeVisible();

  const examples = section(page, 'Made with Likeness');
  await examples.scrollIntoViewIfNeeded();
  await expect(examples.getByTestId('examples-progress')).toHaveCount(0);
  const showcase = section(page, 'Choose your style');
  await expect(showcase.getByTestId('showcase-progress')).toHaveCount(0);

  const stepThree = page.getByTestId('step-three-images').locator('img[data-active]');
  const before = await stepThree.getAttribute('src');
  await page.clock.runFor(20_000);
  await expect(examples.getByRole('tab', { selected: true })).toHaveText('Professional');
  await expect(showcase.getByRole('tab', { selected: true })).toContainText('Professional');
  await expect(demo.getByTestId('demo-prompt')).toHaveText(firstPrompt);
  expect(await stepThree.getAttribute('src')).toBe(before);
});

test('the landing page passes an accessibility scan', async ({ page }) => {
  // A scroll through the whole page, waiting at each stop for its pictures: past 30 s on a loaded
  // machine (both attempts timed out in one CI run).
  test.setTimeout(120_000);
  await page.goto('/');
  await expectAllPicturesLoaded(page);
  await expectNoSeriousA11yViolations(page);
});

test('screenshots of the landing page at 390 and 1280 px', async ({ page }) => {
  // Two widths, each scrolled through for its pictures (see the accessibility scan).
  test.setTimeout(120_000);
  // Reduced motion: the screenshot shows every section in its settled state.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 800 });
    await page.goto('/');
    await page.evaluate(() => document.fonts.ready);
    // For the picture only: every image at once (the first test checks lazy loading on scroll).
    await page.evaluate(() =>
      document.querySelectorAll('img').forEach((img) => (img.loading = 'eager')),
    );
    await expectAllPicturesLoaded(page);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    // Kept for people to look at, not compared: the design is still moving.
    await page.screenshot({
      path: `test-results/screenshots/landing-${width}.png`,
      fullPage: true,
      style: drawWholePage,
    });
  }
});
