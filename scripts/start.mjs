// `npm start`: build the web app if it is missing or older than its sources, then run the
// server in this same process (tsx compiles the TypeScript on the fly).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const { register } = await import('tsx/esm/api');
register();
await import('../src/server/main.ts');
