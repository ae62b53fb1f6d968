// `npm test`: checks, unit + API tests on PGlite, the same API tests on Postgres when
// TEST_DATABASE_URL is set, then the browser tests in Chromium. Every stage runs; the exit code
// and the closing "N passed, N failed" line cover them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const only = process.argv[2]; // optional: check | api | postgres | e2e
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
mkdirSync('.tmp', { recursive: true });

function run(name, command, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failures.push(name);
  return result.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

const wants = (stage) => !only || only === stage;
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

if (wants('check')) run('checks (types, lint, format)', 'npm', ['run', '--silent', 'check']);

if (wants('api')) {
  // The embedded database is tested here, so this stage's environment has no TEST_DATABASE_URL.
  rmSync('.tmp/vitest-pglite.json', { force: true });
  console.log('\n━━ unit and API tests on PGlite ━━');
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.tmp/vitest-pglite.json',
    ],
    {
      stdio: 'inherit',
      env: withoutPostgres,
    },
  );
  if (result.status !== 0) failures.push('unit and API tests on PGlite');
  countVitest('.tmp/vitest-pglite.json');
}

if (wants('postgres') && TEST_DATABASE_URL) {
  rmSync('.tmp/vitest-postgres.json', { force: true });
  run(
    'API tests on Postgres',
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.tmp/vitest-postgres.json',
    ],
    {
      TEST_DATABASE_URL,
    },
  );
  countVitest('.tmp/vitest-postgres.json');
} else if (wants('postgres')) {
  console.log('\n(TEST_DATABASE_URL is not set: the Postgres run of the API tests is skipped)');
}

if (wants('e2e')) {
  if (run('web build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) {
    rmSync('.tmp/playwright-results.json', { force: true });
    run('browser tests (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright-results.json',
    });
    countPlaywright('.tmp/playwright-results.json');
  }
}

console.log(failures.length ? `\nFailed stages: ${failures.join(', ')}` : '\nAll stages passed.');
console.log(
  `tests: ${totals.passed} passed, ${totals.failed + (failures.length && !totals.failed ? failures.length : 0)} failed, ${totals.skipped} skipped`,
);
process.exit(failures.length ? 1 : 0);
