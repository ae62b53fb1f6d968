import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/api/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.tmp/vitest-results.json' },
  },
});
