import path from 'node:path';

/**
 * What the Playwright config and the tests must agree on about the server under test. The
 * runner loads the config, then each worker process loads it again (and these tests): the data
 * directory is chosen once, by the first load, and handed on through the environment, which the
 * workers inherit.
 */
/** 3199 unless E2E_PORT says otherwise (two checkouts can then run their tests side by side). */
export const e2ePort = Number(process.env.E2E_PORT ?? 3199);

export const e2eDataDir = (process.env.E2E_DATA_DIR ??= path.resolve(
  `.tmp/e2e-data-${Date.now()}`,
));

/** Where the server's outbox mailer writes each email it sends, one JSON file per email. */
export const e2eOutboxDir = path.join(e2eDataDir, 'outbox');
