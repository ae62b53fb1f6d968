import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'tests/api/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their worker process (decision 044): the modules, the loaded models and
    // the analysis memo are paid for once per worker instead of once per file, which took a
    // quarter of the suite's CPU. Each file still builds its own app on its own database.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // As in Playwright: one retry in CI, and `npm test` names every test that needed it.
    retry: process.env.CI ? 1 : 0,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.tmp/vitest-results.json' },
  },
});
