/**
 * Whether a benchmark warms up before it measures (JIT, pools, models loaded, caches filled):
 * `BENCH_WARM_UP=false` skips the warm-ups. Only for `npm test`'s smoke run, which proves that a
 * benchmark still runs and never reads its figures; a full run keeps the default, true.
 */
export const warmUpEnabled = process.env.BENCH_WARM_UP !== 'false';

/** How a results header says what came before the measured work: `after ${warmUp}`, or none. */
export const afterWarmUp = (warmUp: string): string =>
  warmUpEnabled ? `after ${warmUp}` : 'without a warm-up (BENCH_WARM_UP=false)';
