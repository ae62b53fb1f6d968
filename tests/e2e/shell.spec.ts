import { expect, test } from '@playwright/test';
import { drawWholePage, expectNoSeriousA11yViolations } from './support/people.ts';

// The app shell as a visitor meets it: top bar, footer, 404, titles, redirects, image fallback.
// Texts are written out (not imported from messages.ts) on purpose: the test checks what a
// person reads, so an accidental change of a message must fail here.

const year = new Date().getFullYear();
const generatedTab = '/dashboard?main=generation&sub=generated';

test('an unknown path shows the 404 page, and its link goes home', async ({ page }) => {
  await page.goto('/this-page-does-not-exist');

  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByRole('img', { name: /empty picture frame/ })).toBeVisible();

  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Oops! Page not found');
});

test('each route has its own page title', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const homeTitle = await page.title();
  expect(homeTitle).toContain('Likeness');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found.*Likeness/);
  expect(await page.title()).not.toBe(homeTitle);
});

test('the public top bar and footer carry their links and the current year', async ({ page }) => {
  await page.goto('/');

  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Likeness home' })).toHaveAttribute('href', '/');
  const mainNav = header.getByRole('navigation', { name: 'Main' });
  await expect(mainNav.getByRole('link', { name: 'Try-On' })).toHaveAttribute('href', '/tryon');
  await expect(mainNav.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/#pricing');
  // Signed out: Sign In and Get Started (a fresh browser context has no session).
  await expect(header.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  await expect(header.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
    'href',
    '/signup',
  );
  await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  const footer = page.getByRole('contentinfo');
  const links = footer.getByRole('navigation', { name: 'Links' });
  await expect(links.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(links.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(links.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  const legal = footer.getByRole('navigation', { name: 'Legal' });
  await expect(legal.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
    'href',
    '/terms',
  );
  await expect(legal.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    '/privacy',
  );
  await expect(footer).toContainText(`© ${year}`);
  await expect(footer.getByText('Studio-quality AI photos of you')).toBeVisible();
});

test('the hero invites a visitor to get started', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Create Your AI Photos' })).toHaveAttribute(
    'href',
    '/signup',
  );
  // Real pictures, each with alt text, and none of them broken (the rest of the landing page is
  // covered by landing.spec.ts).
  const pictures = main
    .getByRole('group', { name: 'A preview of the style presets' })
    .getByRole('img');
  await expect(pictures).toHaveCount(3);
  for (const picture of await pictures.all()) {
    await expect(picture).toHaveAttribute('alt', /.+/);
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
});

test('/history and /generations lead to the dashboard generated tab', async ({ page }) => {
  for (const path of ['/history', '/generations']) {
    await page.goto(path);
    // Signed out, the dashboard is guarded: RequireAuth sends the visitor to /login and keeps the
    // generated-tab address for after sign-in. Until the dashboard page exists, the address
    // itself is where the redirect ends.
    await expect
      .poll(() => {
        const url = new URL(page.url());
        return `${url.pathname}${url.search}`;
      })
      .toMatch(/^(\/dashboard\?main=generation&sub=generated|\/login)$/);
    const url = new URL(page.url());
    if (url.pathname === '/login') {
      expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterAuth'))).toBe(
        generatedTab,
      );
    } else {
      expect(`${url.pathname}${url.search}`).toBe(generatedTab);
    }
  }
});

test('a picture that fails to load becomes an "Image not available" box', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  // The 404 page's illustration goes through the shared Image component; make its file fail.
  await page.route('**/assets/empty-frame-*.svg', (route) => route.abort('failed'));

  await page.goto('/missing-page');

  const fallback = page.getByRole('img', { name: /empty picture frame.*image not available/i });
  await expect(fallback).toBeVisible();
  await expect(fallback).toContainText('Image not available');
  // It keeps the picture's shape (240 x 180), so nothing around it moved.
  const box = await fallback.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.round((box!.width / box!.height) * 100) / 100).toBeCloseTo(240 / 180, 1);
  expect(warnings.some((text) => /Image failed to load: .*empty-frame-.*\.svg/.test(text))).toBe(
    true,
  );
});

test('a signed-in visitor sees Dashboard instead of Sign In', async ({ page }) => {
  await page.goto('/');
  // A real account, made the way the sign-up page will make it (same-origin fetch, cookie set).
  const email = `shell-${Date.now()}@example.com`;
  const status = await page.evaluate(async (address) => {
    const response = await fetch('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: address, password: 'studio-portrait-42', name: 'Shell Test' }),
    });
    return response.status;
  }, email);
  expect(status).toBe(200);

  await page.reload();
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'href',
    '/dashboard',
  );
  await expect(header.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await expect(
    page.getByRole('main').getByRole('link', { name: 'Go to Dashboard' }).first(),
  ).toHaveAttribute('href', '/dashboard');
});

test('the home page and 404 page pass an accessibility scan', async ({ page }) => {
  // axe's contrast rule walks every text of the landing page: past 30 s on a loaded machine (both
  // attempts of one CI run).
  test.setTimeout(90_000);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/not-here');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('keyboard users can skip to the content', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the top bar folds its links into a menu that opens and closes', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Get Started' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Try-On' })).toBeHidden();

    await header.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Try-On' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Pricing' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeFocused();
  });

  test('the page never scrolls sideways', async ({ page }) => {
    for (const path of ['/', '/nope']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});

test('screenshots of the home and 404 pages at 390 and 1280 px', async ({ page }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 800 });
    for (const [name, path] of [
      ['home', '/'],
      ['not-found', '/no-such-page'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Wait for the pictures and the font, so the screenshot shows the page as people see it.
      await page.evaluate(() => document.fonts.ready);
      await expect
        .poll(() =>
          page.evaluate(() =>
            // Lazy pictures below the fold load on scroll (landing.spec.ts checks those).
            [...document.images]
              .filter((img) => img.loading !== 'lazy')
              .every((img) => img.complete && img.naturalWidth > 0),
          ),
        )
        .toBe(true);
      // Kept for people to look at, not compared: the design is still moving.
      await page.screenshot({
        path: `test-results/screenshots/${name}-${width}.png`,
        fullPage: true,
        style: drawWholePage,
      });
    }
  }
});
