import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { e2eDataDir, e2ePort as port } from './tests/e2e/support/e2e-server.ts';

const serverURL = `http://127.0.0.1:${port}`;
const baseURL = process.env.E2E_BASE_URL ?? serverURL;

// Debian's Chromium, never a downloaded browser: no `channel`, and `npx playwright install` is
// not needed. Its headless shell (Debian's `chromium-headless-shell`, the same Blink without the
// browser's user interface, which is what Playwright's own headless runs use) where it is
// installed: the browser stage took 8.2 min of the two cores with it against 17 min with the whole
// browser (decision 055). The flags keep Chromium from phoning home, which also keeps runs offline
// and quiet.
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
const chromiumPath =
  process.env.CHROME_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Playwright needs a default export here.
export default defineConfig({
  testDir: 'tests/e2e',
  // Two workers, files shared out between them (tests within a file keep their order): most of a
  // journey is waiting for the server's jobs, so two browsers keep two cores busy where one left
  // one idle (decision 032). E2E_WORKERS changes it.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // A page's first data can take over 5 s (the default) while the other lane's tests load both
  // cores: a dashboard was once still "Loading..." at 5 s and drawn a moment later.
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    baseURL,
    // Still pages: the app honours reduced motion everywhere (styles.css), and with it the
    // shimmer, spinners and marquees stop repainting at 60 frames a second while a test waits.
    // Tests of motion itself (the landing page's carousels) ask for it back.
    reducedMotion: 'reduce',
    // A trace records a screencast of every frame: kept for every first attempt it cost about as
    // much CPU as the pages themselves. The retry of a failed test records one.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
      // Playwright asks for GPU rasterization through SwiftShader (for WebGL, which no page
      // here uses): with no GPU that rasterizes every frame in an emulated GPU process. Plain
      // software rasterization paints the same pages for less CPU.
      ignoreDefaultArgs: ['--enable-gpu-rasterization', '--enable-unsafe-swiftshader'],
    },
  },
  // Desktop only; tests that need a phone set `test.use({ viewport: { width: 390, ... } })`
  // themselves, which is cheaper than running every test twice.
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'node scripts/start.mjs',
        url: `http://127.0.0.1:${port}/readyz`,
        reuseExistingServer: !process.env.CI,
        // A fresh data folder: the first start adds the default content pack (about 45 s on a busy two-core machine).
        timeout: 240_000,
        stdout: 'pipe',
        stderr: 'pipe',
        env: {
          PORT: String(port),
          // Links in emails (password reset) must open on the origin the browser uses.
          PUBLIC_URL: serverURL,
          // Shared with the tests, which read the emails the server "sends" from its outbox.
          DATA_DIR: e2eDataDir,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_DISABLED: 'true',
          // The journeys wait for pictures, not at them: the offline studio skips super-resolution.
          LOCAL_ENGINE_DRAFT: 'true',
        },
      },
});
