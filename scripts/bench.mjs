// `npm run bench [name ...]`: runs every bench/*.ts one after another (never in parallel: they
// share the machine's cores with the server they measure), or only the ones named.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverBuildIsStale } from './build-server.mjs';

const available = readdirSync('bench')
  .filter((name) => name.endsWith('.ts'))
  .sort();
const wanted = process.argv.slice(2).map((arg) => path.basename(arg).replace(/\.ts$/, '') + '.ts');
const unknown = wanted.filter((name) => !existsSync(path.join('bench', name)));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

// The servers the benchmarks start run the server's build, as `npm start` does: made here where
// stale (the landing benchmark makes the web app's build itself).
if (serverBuildIsStale()) {
  console.log('Building the server…');
  await buildServer();
}

const failed = [];
for (const name of wanted.length ? wanted : available) {
  console.log(`\n━━ bench/${name} ━━`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', name)], {
    stdio: 'inherit',
    // glibc's arenas as the product runs them (`npm start`, the image): memory is measured as
    // shipped.
    env: { MALLOC_ARENA_MAX: '2', ...process.env },
  });
  if (result.status !== 0) failed.push(name);
}
if (failed.length) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
