// `npm run check` (part of `npm test`): no import cycle between the folders of src/server, and
// the features listed in `publicFiles` entered from elsewhere only through those files; in
// src/web, each feature entered from another only through its index.ts (see the end).
// A folder is a feature (`features/<name>`), an adapter family (`adapters/<name>`) or any other
// folder under src/server (`db`, `jobs`, `images`, …); each file directly in src/server (the
// composition root: `runtime.ts`, `app.ts`, `config.ts`, …) stands alone. Type-only imports
// count too: a cycle of types is still a corridor running both ways. Tests are left out (a test
// may reach into any room). Prints each cycle with one import per arrow, and each import through
// a back door, and exits 1.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../src/server/', import.meta.url));

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.m?ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

function folderOf(file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1) return parts[0];
  if ((parts[0] === 'features' || parts[0] === 'adapters') && parts.length > 2)
    return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

// The features whose other files are theirs alone: from any other folder, only these files may
// be imported. The composition root (files directly in src/server) wires features and is exempt.
const publicFiles = new Map([
  // credits.ts: paid actions (gates, charge, refund; decision 035); billing.ts: the wiring's type.
  ['features/billing', ['credits.ts', 'billing.ts']],
]);

/** folder → (imported folder → one import that makes the arrow, for the message) */
const arrows = new Map();
const backDoors = [];
const importPattern = /^\s*(?:import|export)\b[^'";]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm;
for (const file of sourceFiles(root)) {
  const from = folderOf(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const target = path.resolve(path.dirname(file), specifier);
    if (!target.startsWith(root)) continue;
    const to = folderOf(target);
    if (to === from) continue;
    const open = publicFiles.get(to);
    const inRoot = path.dirname(file) === path.resolve(root);
    if (open && !inRoot && !open.includes(path.relative(path.join(root, to), target)))
      backDoors.push(
        `${path.relative(root, file)} → ${path.relative(root, target)} ` +
          `(${to} is entered through ${open.join(' or ')})`,
      );
    if (!arrows.has(from)) arrows.set(from, new Map());
    if (!arrows.get(from).has(to))
      arrows.get(from).set(to, `${path.relative(root, file)} → ${path.relative(root, target)}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a cycle.
const order = new Map();
const lowest = new Map();
const stack = [];
const cycles = [];
function visit(folder) {
  order.set(folder, order.size);
  lowest.set(folder, order.get(folder));
  stack.push(folder);
  for (const next of arrows.get(folder)?.keys() ?? []) {
    if (!order.has(next)) {
      visit(next);
      lowest.set(folder, Math.min(lowest.get(folder), lowest.get(next)));
    } else if (stack.includes(next)) {
      lowest.set(folder, Math.min(lowest.get(folder), order.get(next)));
    }
  }
  if (lowest.get(folder) !== order.get(folder)) return;
  const component = stack.splice(stack.indexOf(folder));
  if (component.length > 1) cycles.push(component);
}
for (const folder of arrows.keys()) if (!order.has(folder)) visit(folder);

for (const entry of backDoors) console.error(`Import through a feature's back door: ${entry}`);

for (const cycle of cycles) {
  console.error(`Import cycle between folders of src/server: ${cycle.join(', ')}`);
  for (const from of cycle)
    for (const [to, example] of arrows.get(from) ?? [])
      if (cycle.includes(to)) console.error(`  ${from} → ${to}: ${example}`);
}

// The web app (decision 045): a feature (`features/<name>`) imports of another feature only its
// `index.ts`, what that feature offers the others; the shared code (`lib`, `components`) imports
// no feature. `app/` and the entry files directly in src/web compose the features and may import
// any of their files (the router loads each page as a chunk of its own). Tests are left out.
const webRoot = fileURLToPath(new URL('../src/web/', import.meta.url));

function webSourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return webSourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `features/<name>`, `shared` (lib, components) or null (app and the entry files: the wiring). */
function webRoomOf(file) {
  const parts = path.relative(webRoot, file).split(path.sep);
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  if (parts[0] === 'lib' || parts[0] === 'components') return 'shared';
  return null;
}

// Static imports and re-exports, and import() (a lazily loaded file is entered all the same).
const webImportPattern =
  /(?:^\s*(?:import|export)\b[^'";]*?\bfrom\s+|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm;
const webFeatures = new Set();
const webCorridors = [];
for (const file of webSourceFiles(webRoot)) {
  const from = webRoomOf(file);
  if (from?.startsWith('features/')) webFeatures.add(from);
  if (from === null) continue;
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(webImportPattern)) {
    const target = path.resolve(path.dirname(file), specifier);
    const to = webRoomOf(target);
    if (!to?.startsWith('features/') || to === from) continue;
    const entry = path.join(webRoot, to, 'index.ts');
    if (from !== 'shared' && target === entry) continue;
    const where = `${path.relative(webRoot, file)} → ${path.relative(webRoot, target)}`;
    webCorridors.push(
      from === 'shared'
        ? `${where}: lib and components import no feature; move what they need out of ` +
            `${to} into lib or components, or compose the feature in src/web/app`
        : `${where}: another feature is entered only through its index.ts; import this from ` +
            `${to}/index.ts (export it there if ${to.slice('features/'.length)} offers it to ` +
            `others), move what several features share to src/web/lib or src/web/components, ` +
            `or compose the features in src/web/app`,
    );
  }
}
for (const entry of webCorridors) console.error(`Web import across a feature's wall: ${entry}`);

// exitCode, not exit(): a long list on a pipe is written out before the process ends.
if (cycles.length > 0 || backDoors.length > 0 || webCorridors.length > 0) process.exitCode = 1;
else
  console.log(
    `structure: no import cycle between the ${order.size} folders of src/server; ` +
      `${[...publicFiles.keys()].join(', ')} entered only through public files; ` +
      `the ${webFeatures.size} features of src/web entered from each other only through index.ts`,
  );
