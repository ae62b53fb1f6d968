// `npm run check` (part of `npm test`): no import cycle between the folders of src/server, and
// the features listed in `serverPublicFiles` entered from elsewhere only through those files; in
// src/web, each feature entered from another only through the files `webPublicFiles` lists for it
// (see the end).
// A folder is a feature (`features/<name>`), an adapter family (`adapters/<name>`) or any other
// folder under src/server (`db`, `jobs`, `images`, …); each file directly in src/server (the
// composition root: `runtime.ts`, `app.ts`, `config.ts`, …) stands alone. Type-only imports
// count too: a cycle of types is still a corridor running both ways. Tests are left out (a test
// may reach into any room). Prints each cycle with one import per arrow, and each import through
// a back door, and exits 1.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
const serverPublicFiles = new Map([
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
    const open = serverPublicFiles.get(to);
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

// The web app (decision 045): a feature (`features/<name>`) imports of another feature only the
// files that feature lists here as public, what it offers the others; the shared code (`lib`,
// `components`) imports no feature. `app/` and the entry files directly in src/web compose the
// features and may import any of their files (the router loads each page as a chunk of its own).
// Tests are left out. Paths are inside the feature's folder; a feature not listed offers nothing.
const webPublicFiles = new Map([
  [
    'features/billing',
    [
      // The plans and the subscription's state, on the account and try-on pages.
      'components/credit-history.tsx',
      'components/plan-card.tsx',
      'components/plan-grid.tsx',
      'components/subscription-status-card.tsx',
      // Checkouts started elsewhere (sign-up, the quiz's yearly offer) and the billing query key,
      // stale after a paid action.
      'billing-api.ts',
    ],
  ],
  [
    'features/studio',
    [
      // The user's AI models, to generate with, and how each model's status reads.
      'studio-api.ts',
      'model-status.ts',
      // The account page's setting: keep the training photos after training or not.
      'components/training-photos-setting.tsx',
    ],
  ],
  [
    'features/generation',
    [
      // The catalog's pages: the preset page's generate column, bulk generation from a category.
      'components/preset-generate.tsx',
      'components/bulk-generate-dialog.tsx',
      'generation-rules.ts',
    ],
  ],
  // The catalog's cached queries, which the operator's edits make stale.
  ['features/catalog', ['catalog-api.ts']],
]);

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
    const open = webPublicFiles.get(to) ?? [];
    const inside = path.relative(path.join(webRoot, to), target).split(path.sep).join('/');
    if (from !== 'shared' && open.includes(inside)) continue;
    const where = `${path.relative(webRoot, file)} → ${path.relative(webRoot, target)}`;
    const name = to.slice('features/'.length);
    webCorridors.push(
      from === 'shared'
        ? `${where}: lib and components import no feature; move what they need out of ` +
            `${to} into src/web/lib or src/web/components, or compose the feature in src/web/app`
        : `${where}: from another feature, import only the files ${to} lists as public in ` +
            `scripts/check-structure.mjs (webPublicFiles; now ` +
            `${open.length > 0 ? open.join(', ') : 'none'}; add this file there if ${name} ` +
            `offers it to others), move what several features share to src/web/lib or ` +
            `src/web/components, or compose the features in src/web/app`,
    );
  }
}
for (const entry of webCorridors) console.error(`Web import across a feature's wall: ${entry}`);

// A public file that was moved or deleted: the lists must name real files.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const missingPublicFiles = [
  ...[...serverPublicFiles].flatMap(([folder, files]) =>
    files.map((file) => ['serverPublicFiles', path.join(root, folder, file)]),
  ),
  ...[...webPublicFiles].flatMap(([folder, files]) =>
    files.map((file) => ['webPublicFiles', path.join(webRoot, folder, file)]),
  ),
].filter(([, file]) => !existsSync(file));
for (const [list, file] of missingPublicFiles)
  console.error(
    `${list} in scripts/check-structure.mjs names a file that does not exist: ` +
      `${path.relative(repoRoot, file)} (correct the path or remove it)`,
  );

// exitCode, not exit(): a long list on a pipe is written out before the process ends.
if (
  cycles.length > 0 ||
  backDoors.length > 0 ||
  webCorridors.length > 0 ||
  missingPublicFiles.length > 0
)
  process.exitCode = 1;
else
  console.log(
    `structure: no import cycle between the ${order.size} folders of src/server; ` +
      `${[...serverPublicFiles.keys()].join(', ')} entered only through public files; ` +
      `the ${webFeatures.size} features of src/web entered from each other only through the ` +
      `public files of ${[...webPublicFiles.keys()].join(', ')}`,
  );
