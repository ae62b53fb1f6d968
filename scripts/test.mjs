// `npm test`: checks; unit and API tests on PGlite; with a Postgres server (TEST_DATABASE_URL)
// the API tests on it instead, PGlite keeping the embedded database's own tests
// (`embeddedDatabaseTests`); the browser tests in Chromium; then (with Postgres) every benchmark
// once with small counts (figures to .tmp, not bench/results). Every stage runs; the exit code
// and the closing "N passed, N failed" line cover them all.
//
// The stages run in lanes side by side (see `lanes`): alone, none keeps both cores busy (the
// vitest stages wait on job polls and provider fakes, the browser stage on the browser), so
// together they take about the time of the longest lane instead of the sum. Each stage's output
// is kept and printed whole when it ends, so the log reads stage by stage.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const only = process.argv[2]; // optional: check | api | postgres | e2e | bench
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// The failed tests by name, repeated at the very end: a CI log is often read from its tail.
const failedTests = [];
const firstLine = (text = '') => stripVTControlCharacters(text).split('\n')[0].slice(0, 200);
mkdirSync('.tmp', { recursive: true });

/**
 * Runs a command in `env` (its whole environment, not additions: the PGlite stage must not
 * inherit TEST_DATABASE_URL) with its output kept in `log` (a stage's); answers its exit status,
 * or reports `failure` under `name` when it fails.
 */
function run(log, name, command, args, env = process.env) {
  log.push(`\n━━ ${name} ━━\n`);
  const started = performance.now();
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => log.push(chunk));
  return new Promise((resolve) =>
    child.on('close', (status) => {
      log.push(`(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
      if (status !== 0) failures.push(name);
      resolve(status ?? 1);
    }),
  );
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
 * Tests that never open a database: browser-side rules, the product module, image analysis, the
 * engine adapters against their fakes and the content build's image steps. They run once, in the
 * PGlite stage; on Postgres they would only repeat.
 */
const databaseFreeTests = [
  'scripts/**',
  'src/web/**',
  'src/common/**',
  'src/server/images/**',
  'src/server/adapters/engine/**',
  'src/server/adapters/storage/s3-storage.test.ts',
  'src/server/config.test.ts',
  'src/server/features/billing/billing-config.test.ts',
  'src/server/features/events/event-bus.test.ts',
  'src/server/features/auth/session-cache.test.ts',
  'src/server/features/catalog/picture-cache.test.ts',
];
/**
 * Test files about the embedded database itself (decision 059): transactions and savepoints, the
 * ledger's concurrent spends on its one connection, the job queue on it (woken by NOTIFY, kept
 * across a restart) and the operator commands on its data folder. With a Postgres server (CI)
 * these run on both databases and the other database tests on the server only, where production
 * runs them; the browser stage runs every journey on the embedded database. Without a server
 * (`npm test` on a bare machine) every test runs on PGlite.
 */
const embeddedDatabaseTests = [
  'src/server/db/**',
  'src/server/jobs/**',
  'src/server/features/billing/ledger.test.ts',
  'src/server/features/catalog/cli.test.ts',
];
/** Vitest's file filters match a part of the path: a folder's glob becomes its path. */
const asFilter = (glob) => glob.replace(/\*\*$/, '');

// The vitest stages' child processes (web, worker, the operator commands) run the build made
// below, as production does (tests/helpers/processes.ts).
const { TEST_DATABASE_URL, ...withoutPostgres } = { ...process.env, TEST_SERVER_BUILD: 'dist' };

/**
 * One vitest run, its output kept in the stage's log: when the run fails with no failed test (an
 * unhandled error after a test, a crashed worker), the reason is repeated at the end.
 */
async function runVitest(log, stage, label, env, extraArgs = []) {
  const report = `.tmp/vitest-${stage.toLowerCase()}.json`;
  rmSync(report, { force: true });
  const from = log.length;
  const status = await run(
    log,
    label,
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extraArgs,
    ],
    env,
  );
  if (status === 0) return countVitest(report, stage);
  const known = failedTests.length;
  countVitest(report, stage);
  const text = stripVTControlCharacters(
    log
      .slice(from)
      .map((chunk) => chunk.toString())
      .join(''),
  );
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

const stages = {
  check: (log) => run(log, 'checks (types, lint, format)', 'npm', ['run', '--silent', 'check']),

  // The embedded database is tested here, so this stage's environment has no TEST_DATABASE_URL.
  api: (log) =>
    runVitest(
      log,
      'PGlite',
      TEST_DATABASE_URL
        ? "unit tests and the embedded database's tests on PGlite"
        : 'unit and API tests on PGlite',
      withoutPostgres,
      TEST_DATABASE_URL ? [...databaseFreeTests, ...embeddedDatabaseTests].map(asFilter) : [],
    ),

  postgres: async (log) => {
    if (!TEST_DATABASE_URL)
      return log.push(
        '\n(TEST_DATABASE_URL is not set: the Postgres run of the API tests is skipped)\n',
      );
    await runVitest(
      log,
      'Postgres',
      'API tests on Postgres',
      { ...withoutPostgres, TEST_DATABASE_URL },
      databaseFreeTests.map((glob) => `--exclude=${glob}`),
    );
  },

  e2e: async (log) => {
    rmSync('.tmp/playwright-results.json', { force: true });
    await run(
      log,
      'browser tests (Chromium)',
      'npx',
      ['playwright', 'test', '--reporter=list,json'],
      { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright-results.json' },
    );
    countPlaywright('.tmp/playwright-results.json');
  },

  bench: async (log) => {
    if (!TEST_DATABASE_URL)
      return log.push("\n(TEST_DATABASE_URL is not set: the benchmarks' smoke run is skipped)\n");
    // Every benchmark once with small counts, on the Postgres server the figures are taken on, so
    // a change that breaks one is caught here and not on the day figures are wanted. The figures
    // go to .tmp, never over bench/results.
    const smoke = {
      BENCH_RESULTS_DIR: '.tmp/bench-smoke',
      BENCH_DATABASE_URL: TEST_DATABASE_URL,
      BENCH_SECONDS: '1',
      BENCH_CONNECTIONS: '4',
      BENCH_BULK: '20',
      BENCH_SINGLES: '2',
      BENCH_REQUESTS: '20',
      BENCH_WINDOW_SECONDS: '1',
      BENCH_BULKS: '1',
      BENCH_EVENTS: '1',
      BENCH_ROUNDS: '1',
      LANDING_RUNS: '1',
      // The product's NSFW model only: the others are compared in the full benchmark (InceptionV3
      // alone took minutes of the smoke run).
      BENCH_NSFW_MODELS: 'MobileNetV2Mid',
      // What each benchmark needs to show it still runs, not its whole input: one picture per
      // folder for the NSFW check, the memory benchmark without its diagnostic rows, and the
      // product's upscaling model only.
      BENCH_PICTURES_PER_GROUP: '1',
      BENCH_DIAGNOSTICS: 'false',
      BENCH_UPSCALE_MODELS: 'esrgan-slim',
      // No warm-ups (load seconds, pictures, images, requests): they only steady figures that a
      // smoke run never reads. Three photos where a benchmark validates 12 (the large one, and
      // two of person A's, one a copy of the large one's shot, so both verdicts still show), two
      // uploads per memory row, one of person A's photos in the variety check's synthetic edits
      // (each edit still runs), and the studio picture's likeness profile made from three photos.
      BENCH_WARM_UP: 'false',
      BENCH_PHOTOS: '3',
      BENCH_UPLOADS: '2',
      BENCH_EDITED_PHOTOS: '1',
      BENCH_TRAINING_PHOTOS: '3',
    };
    for (const name of readdirSync('bench').filter((file) => file.endsWith('.ts'))) {
      const status = await run(
        log,
        `benchmark smoke run: ${name}`,
        'node',
        ['scripts/bench.mjs', name],
        { ...process.env, ...smoke },
      );
      if (status === 0) totals.passed += 1;
      else {
        totals.failed += 1;
        failedTests.push(`bench: bench/${name} failed in its smoke run (small counts)`);
      }
    }
  },
};

/**
 * Lanes run side by side, the stages of a lane one after the other (decisions 032 and 059). CI's
 * two cores are busy from start to end, so the lanes only need to end together: alone, on a quiet
 * machine, the browser stage takes 8.4 min and the benchmarks 3.5; checks 1, PGlite (its own tests
 * only, with a Postgres server) 2.4 and Postgres 6. Three lanes (every stage at once) made the
 * load reach 11 and tests with deadlines fail (decision 044).
 */
const lanes = [
  ['e2e', 'bench'],
  ['check', 'api', 'postgres'],
];

/** Runs a stage with its output kept, then prints it whole with the time it took. */
async function runStage(name) {
  const log = [];
  const started = performance.now();
  console.log(`started: ${name}`);
  await stages[name](log);
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  process.stdout.write(Buffer.concat(log.map((chunk) => Buffer.from(chunk))));
  console.log(`\n(${name}: ${minutes} min)`);
}

// The builds first, once (and only if stale), so no stage sees dist/ half written: the browser
// stage serves it, and the API tests' app serves the web build when there is one.
const build = [];
if (
  (await run(build, 'builds (web app, server) where stale', 'node', [
    'scripts/start.mjs',
    '--build-only',
  ])) !== 0
)
  process.stdout.write(Buffer.concat(build.map((chunk) => Buffer.from(chunk))));
else {
  await Promise.all(
    lanes.map(async (lane) => {
      for (const name of lane.filter(wants)) await runStage(name);
    }),
  );
}

if (failedTests.length)
  console.log(`\nFailed and flaky tests:\n${failedTests.map((line) => `  ${line}`).join('\n')}`);
console.log(failures.length ? `\nFailed stages: ${failures.join(', ')}` : '\nAll stages passed.');
console.log(
  `tests: ${totals.passed} passed, ${totals.failed + (failures.length && !totals.failed ? failures.length : 0)} failed, ${totals.skipped} skipped`,
);
process.exit(failures.length ? 1 : 0);
