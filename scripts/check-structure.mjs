// `npm run check` (part of `npm test`): no import cycle between the folders of src/server, and
// the features listed in `publicFiles` entered from elsewhere only through those files.
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

if (cycles.length === 0 && backDoors.length === 0) {
  console.log(
    `structure: no import cycle between the ${order.size} folders of src/server; ` +
      `${[...publicFiles.keys()].join(', ')} entered only through public files`,
  );
} else {
  for (const cycle of cycles) {
    console.error(`Import cycle between folders of src/server: ${cycle.join(', ')}`);
    for (const from of cycle)
      for (const [to, example] of arrows.get(from) ?? [])
        if (cycle.includes(to)) console.error(`  ${from} → ${to}: ${example}`);
  }
  process.exit(1);
}
