// `npm start`: build the web app and the server (decision 029) where either is missing or older
// than its sources, then run the compiled server, dist/server/main.mjs, in this same process.
// `--build-only` stops after the builds: `npm start` runs it, then starts `node
// dist/server/main.mjs` itself, so the process list names the bundle and MALLOC_ARENA_MAX
// applies from the process's start.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverBuildIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// Node 20 still runs the product (these machines ship it), but it gets no security fixes.
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < 22)
  console.log(
    `Node ${process.version} reached its end of life in April 2026; Node 22 LTS or later is recommended.`,
  );

function newestMtime(entry) {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(entry, name))),
    0,
  );
}

const builtIndex = path.join(root, 'dist/web/index.html');
const sources = [
  'src/web',
  'src/common',
  'vite.config.ts',
  // The build's own steps: the landing page's prerender and the compressed copies.
  'scripts/vite-plugins',
  'package-lock.json',
].filter((p) => existsSync(p));
const stale =
  !existsSync(builtIndex) || sources.some((p) => newestMtime(p) > statSync(builtIndex).mtimeMs);
if (stale) {
  console.log('Building the web app…');
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (serverBuildIsStale()) {
  console.log('Building the server…');
  await buildServer();
}

// The default content pack's pictures, encoded into the picture cache once per installation
// (decision 052), so the first start on a fresh database fills the catalog in seconds. Quick when
// the cache has them; skipped where the start will not seed. A failure only costs the encoding at
// the seed (which logs its own errors): content is never worth an outage.
const seeds =
  !['false', '0'].includes(process.env.SEED_CONTENT ?? '') && process.env.ROLE !== 'worker';
if (seeds) {
  const prepared = spawnSync(process.execPath, ['dist/server/content.mjs', 'prepare'], {
    stdio: 'inherit',
  });
  if (prepared.status !== 0) console.log('The picture cache was not prepared; starting anyway.');
}

if (!process.argv.includes('--build-only')) await import('../dist/server/main.mjs');
