// `npm run screenshots -- [base URL]`: the landing page, whole, at 1280 px (desktop) and 390 px
// (phone) wide, into docs/images/landing-{1280,390}.jpg, and its first screen at 1280 px for the
// README (docs/images/home.jpg), from a running app (default
// http://127.0.0.1:3000; start one with `npm start`). The page is scrolled through first so every
// section below the fold has drawn its pictures.
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
});
try {
  for (const viewport of widths) {
    const page = await browser.newPage({ viewport, reducedMotion: 'reduce' });
    await page.goto(base, { waitUntil: 'networkidle' });
    // Sections below the fold skip rendering until they are near the viewport
    // (content-visibility), which a full-page capture never is.
    await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
    const height = await page.evaluate(() => document.body.scrollHeight);
    for (let y = 0; y < height; y += viewport.height / 2) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(150);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForLoadState('networkidle');
    // Pictures the page shows (carousels keep their hidden slides lazy, and those never load).
    await page.waitForFunction(() =>
      [...document.images]
        .filter((image) => image.checkVisibility() && image.loading !== 'lazy')
        .every((image) => image.complete),
    );
    const file = `docs/images/landing-${viewport.width}.jpg`;
    await page.screenshot({ path: file, fullPage: true, type: 'jpeg', quality: 80 });
    console.log('wrote', file);
    if (viewport.width === 1280) {
      await page.setViewportSize({ width: 1280, height: 1000 });
      await page.screenshot({ path: 'docs/images/home.jpg', type: 'jpeg', quality: 85 });
      console.log('wrote docs/images/home.jpg');
    }
    await page.close();
  }
} finally {
  await browser.close();
}
