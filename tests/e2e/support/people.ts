import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** What the browser tests share: test people, the accessibility check and screenshots. */

export const password = 'studio-portrait-42';
export const screenshotDir = 'test-results/screenshots';

/**
 * For full-page screenshots: the landing page's lower sections are only drawn near the viewport
 * (`content-visibility: auto`), and a full-page capture does not count as near.
 */
export const drawWholePage = '* { content-visibility: visible !important; }';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Posts credentials from the page, as the auth forms do, so the browser gets the cookie. */
async function postCredentials(page: Page, endpoint: string, email: string): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/terms');
  const status = await page.evaluate(
    async ({ url, address, secret }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: address, password: secret }),
      });
      return response.status;
    },
    { url: endpoint, address: email, secret: password },
  );
  expect(status).toBe(200);
}

/** Signs the page's browser up through the API, as the sign-up form would (cookie set). */
export async function signUpInBrowser(page: Page, prefix = 'browser'): Promise<string> {
  const email = uniqueEmail(prefix);
  await postCredentials(page, '/api/auth/sign-up/email', email);
  return email;
}

/** Signs the page's browser in through the API, as the login form would (cookie set). */
export async function signInInBrowser(page: Page, email: string): Promise<void> {
  // On the test's own origin, whatever the page showed before.
  await page.goto('/terms');
  await postCredentials(page, '/api/auth/sign-in/email', email);
}

export async function expectNoSeriousA11yViolations(page: Page) {
  let found = await seriousViolations(page);
  // A toast that starts to slide in or fade out during the scan is measured half-transparent (seen
  // in CI). A real failure is still there a moment later; only those that stay are reported.
  for (let scan = 1; scan < 3 && found.length > 0; scan += 1) {
    await page.waitForTimeout(750);
    const again = new Set(await seriousViolations(page));
    found = found.filter((violation) => again.has(violation));
  }
  expect(found).toEqual([]);
}

async function seriousViolations(page: Page): Promise<string[]> {
  await settleAnimations(page);
  // Only violations are read: axe then lists one node for each of the other result types
  // instead of every node, a fifth off each scan.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(' ')}`);
}

/**
 * Waits for the short transitions running now (a toast sliding in or fading out) to end: axe
 * measures contrast from the colours of that moment, so a half-transparent toast reads as a
 * failure no user sees once it has settled. Long and endless animations (carousels, progress
 * bars, spinners) are not waited for, and the wait is bounded.
 */
async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    // Two frames, so that a transition asked for in the last frame has started.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const remaining = (animation: Animation) =>
      Number(animation.effect?.getComputedTiming().endTime ?? Infinity) -
      Number(animation.currentTime ?? 0);
    const short = document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && remaining(animation) <= 1500);
    await Promise.race([
      Promise.all(short.map((animation) => animation.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
  });
}

/** The page at phone and desktop width, full length, for a person to look at. */
export async function saveScreenshots(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    // Lets the layout settle at the new width (and lazy fonts finish) before the picture.
    await page.waitForTimeout(150);
    await page.screenshot({
      path: `${screenshotDir}/${name}-${width}.png`,
      fullPage: true,
      style: drawWholePage,
    });
  }
}
