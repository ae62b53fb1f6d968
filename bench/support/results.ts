import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a benchmark writes its tables: `bench/results/` (committed, so a change in the figures is
 * reviewed with the change that caused it), or `BENCH_RESULTS_DIR`, which `npm test` sets for its
 * short smoke run so that small-count figures never overwrite the real ones.
 */
export const resultsDir = process.env.BENCH_RESULTS_DIR
  ? path.resolve(process.env.BENCH_RESULTS_DIR)
  : fileURLToPath(new URL('../results/', import.meta.url));

/** Writes `<name>.md` (and `<name>.json` when given) and says where. */
export function writeResults(name: string, markdown: string, json?: unknown): void {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, `${name}.md`), markdown);
  if (json !== undefined)
    writeFileSync(path.join(resultsDir, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  console.log(
    `written to ${path.relative(process.cwd(), resultsDir)}/${name}.${json === undefined ? 'md' : '{md,json}'}`,
  );
}

/** The run's machine, for a results header: when, which Node, which CPUs and how busy they were. */
export function machine() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${os.availableParallelism()} × ${os.cpus()[0]?.model.trim() ?? 'unknown'}`,
    'load average at the end (1 min)': os.loadavg()[0]!.toFixed(2),
  };
}
