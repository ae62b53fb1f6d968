// `npm test`: checks, unit + API tests on PGlite, the same API tests on Postgres when
// TEST_DATABASE_URL is set, the browser tests in Chromium, then (with Postgres) every benchmark
// once with small counts (figures to .tmp, not bench/results). Every stage runs; the exit code
// and the closing "N passed, N failed" line cover them all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const only = process.argv[2]; // optional: check | api | postgres | e2e | bench
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// The failed tests by name, repeated at the very end: a CI log is often read from its tail.
const failedTests = [];
const firstLine = (text = '') => stripVTControlCharacters(text).split('\n')[0].slice(0, 200);
mkdirSync('.tmp', { recursive: true });

function run(name, command, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failures.push(name);
  return result.status === 0;
}

function countVitest(file, stage) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const testFile of report.testResults) {
    const path = testFile.name.replace(`${process.cwd()}/`, '');
    const failedInFile = testFile.assertionResults.filter((test) => test.status === 'failed');
    // A test that passed with failure messages passed on its retry.
    const flaky = testFile.assertionResults.filter(
      (test) => test.status === 'passed' && test.failureMessages.length > 0,
    );
    for (const test of [...failedInFile, ...flaky])
      failedTests.push(
        `${stage}${test.status === 'passed' ? ' (flaky, passed on retry)' : ''}: ${path} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`,
      );
    // A file that failed before any test ran (an import or a hook) has no failed test of its own.
    if (testFile.status === 'failed' && failedInFile.length === 0)
      failedTests.push(`${stage}: ${path}: ${firstLine(testFile.message)}`);
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const visit = (suite, titles) => {
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status === 'unexpected' || test.status === 'flaky')
          failedTests.push(
            `browser${test.status === 'flaky' ? ' (flaky, passed on retry)' : ''}: ${spec.file}:${spec.line} › ${[...titles, spec.title].filter(Boolean).join(' › ')}: ${firstLine(test.results.find((result) => result.error)?.error?.message)}`,
          );
  };
  for (const suite of suites) visit(suite, []);
}

const wants = (stage) => !only || only === stage;

/**
 * Tests that never open a database: browser-side rules, the product module, image analysis and
 * the engine adapters against their fakes. They run once, in the PGlite stage; on Postgres they
 * would only repeat.
 */
const databaseFreeTests = [
  'src/web/**',
  'src/common/**',
  'src/server/images/**',
  'src/server/adapters/engine/**',
  'src/server/adapters/storage/s3-storage.test.ts',
  'src/server/config.test.ts',
  'src/server/features/billing/billing-config.test.ts',
];
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

if (wants('check')) run('checks (types, lint, format)', 'npm', ['run', '--silent', 'check']);

/**
 * One vitest run, its output shown and kept: when the run fails with no failed test (an
 * unhandled error after a test, a crashed worker), the reason is repeated at the end.
 */
async function runVitest(stage, label, env, extraArgs = []) {
  console.log(`\n━━ ${label} ━━`);
  const report = `.tmp/vitest-${stage.toLowerCase()}.json`;
  rmSync(report, { force: true });
  const output = [];
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extraArgs,
    ],
    { stdio: ['inherit', 'pipe', 'pipe'], env },
  );
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ])
    from.on('data', (chunk) => {
      to.write(chunk);
      output.push(chunk);
    });
  const status = await new Promise((resolve) => child.on('close', resolve));
  if (status === 0) return countVitest(report, stage);
  failures.push(label);
  const known = failedTests.length;
  countVitest(report, stage);
  const text = stripVTControlCharacters(Buffer.concat(output).toString());
  const unhandled = text.indexOf('Unhandled Error');
  if (unhandled < 0 && failedTests.length > known) return;
  const excerpt = (unhandled >= 0 ? text.slice(unhandled) : text.slice(-4000)).split('\n');
  failedTests.push(
    `${stage}: ${unhandled >= 0 ? 'errors outside the tests' : 'the run failed'}:\n${excerpt
      .slice(0, 40)
      .map((line) => `      ${line}`)
      .join('\n')}`,
  );
}

if (wants('api')) {
  // The embedded database is tested here, so this stage's environment has no TEST_DATABASE_URL.
  await runVitest('PGlite', 'unit and API tests on PGlite', withoutPostgres);
}

if (wants('postgres') && TEST_DATABASE_URL) {
  await runVitest(
    'Postgres',
    'API tests on Postgres',
    { ...process.env, TEST_DATABASE_URL },
    databaseFreeTests.map((glob) => `--exclude=${glob}`),
  );
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

if (wants('bench') && TEST_DATABASE_URL) {
  // Every benchmark once with small counts, on the Postgres server the figures are taken on, so
  // a change that breaks one is caught here and not on the day figures are wanted. The figures
  // go to .tmp, never over bench/results.
  const smoke = {
    BENCH_RESULTS_DIR: '.tmp/bench-smoke',
    BENCH_DATABASE_URL: TEST_DATABASE_URL,
    BENCH_SECONDS: '1',
    BENCH_BULKS: '2',
    BENCH_EVENTS: '5',
    BENCH_ROUNDS: '1',
    LANDING_RUNS: '1',
    // The product's NSFW model only: the others are compared in the full benchmark (InceptionV3
    // alone took minutes of the smoke run).
    BENCH_NSFW_MODELS: 'MobileNetV2Mid',
  };
  for (const name of readdirSync('bench').filter((file) => file.endsWith('.ts'))) {
    const ran = run(`benchmark smoke run: ${name}`, 'node', ['scripts/bench.mjs', name], smoke);
    if (ran) totals.passed += 1;
    else {
      totals.failed += 1;
      failedTests.push(`bench: bench/${name} failed in its smoke run (small counts)`);
    }
  }
} else if (wants('bench')) {
  console.log("\n(TEST_DATABASE_URL is not set: the benchmarks' smoke run is skipped)");
}

if (failedTests.length)
  console.log(`\nFailed and flaky tests:\n${failedTests.map((line) => `  ${line}`).join('\n')}`);
console.log(failures.length ? `\nFailed stages: ${failures.join(', ')}` : '\nAll stages passed.');
console.log(
  `tests: ${totals.passed} passed, ${totals.failed + (failures.length && !totals.failed ? failures.length : 0)} failed, ${totals.skipped} skipped`,
);
process.exit(failures.length ? 1 : 0);
