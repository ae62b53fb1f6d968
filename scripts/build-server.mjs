// The server build (decision 029): esbuild bundles the server's entry points into plain
// JavaScript under dist/server, which `npm start`, the operator commands and the image run.
//   node scripts/build-server.mjs              build
//   node scripts/build-server.mjs --if-stale   build only when the sources changed since the last build
//
// - Packages stay external: sharp, the tfjs WASM backend, PGlite and the models load from
//   node_modules as they do from the sources.
// - dist/server mirrors src/server's depth, and each bundled module sees `import.meta.url` as its
//   own place in that mirror (src/server/db/client.ts as dist/server/db/client.ts). So the paths
//   the server resolves from its own file resolve alike from the bundle: `../../dist/web`, the
//   content pack under assets/, `./migrations` (copied next to it) and a worker thread's
//   `./x-entry.mjs` (compiled next to it from x.ts, see below).
// - A worker thread's entry `src/server/**/x-entry.mjs` registers tsx and imports `x.ts`, for runs
//   from the sources; the build compiles `x.ts` itself to `dist/server/**/x-entry.mjs`.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverSources = path.join(root, 'src/server');
const outDir = path.join(root, 'dist/server');
const stampFile = path.join(outDir, 'build.json');

/** The processes and commands that run from the build: dist/server/<name>.mjs. */
const entryPoints = {
  main: 'src/server/main.ts',
  seed: 'src/server/cli/seed.ts',
  admin: 'src/server/cli/admin.ts',
  content: 'src/server/cli/content.ts',
  credits: 'src/server/cli/credits.ts',
};

/** Folders the server reads next to its own files at run time, copied as they are. */
const copiedFolders = ['src/server/db/migrations'];

/** Besides the sources the bundles record: a change here or in the installed packages rebuilds. */
const buildInputs = ['scripts/build-server.mjs', 'package-lock.json'];

function filesUnder(folder, keep) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}

// Each worker thread's entry (`x-entry.mjs` under src/server): the TypeScript it starts (`x.ts`)
// and where its build goes.
function workerThreadEntries() {
  return filesUnder(serverSources, (name) => name.endsWith('-entry.mjs')).map((entry) => {
    const source = entry.replace(/-entry\.mjs$/, '.ts');
    if (!existsSync(source))
      throw new Error(
        `${path.relative(root, entry)}: no ${path.basename(source)} beside it to compile`,
      );
    return { source, output: path.relative(serverSources, entry) };
  });
}

const loaders = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js' };

/**
 * Gives each module of `src/` its own place in the dist/ mirror as `import.meta.url`, written
 * relative to the bundle file it lands in (`outputDir`), so the bundle can move with the project.
 */
function moduleUrlPlugin(outputDir) {
  return {
    name: 'module-url',
    setup(build) {
      build.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
        const contents = readFileSync(args.path, 'utf8');
        const loader = loaders[path.extname(args.path)];
        const relativeToSrc = path.relative(path.join(root, 'src'), args.path);
        if (/\bimport\.meta\.(dirname|filename)\b|\b__dirname\b|\b__filename\b/.test(contents))
          throw new Error(
            `${args.path}: resolve files from import.meta.url (the build maps it; see scripts/build-server.mjs)`,
          );
        if (!contents.includes('import.meta.url')) return { contents, loader };
        if (relativeToSrc.startsWith('..'))
          throw new Error(`${args.path}: import.meta.url outside src/ has no place in dist/`);
        let mirrored = path
          .relative(outputDir, path.join(root, 'dist', relativeToSrc))
          .split(path.sep)
          .join('/');
        if (!mirrored.startsWith('.')) mirrored = `./${mirrored}`;
        return {
          contents: contents.replaceAll(
            /\bimport\.meta\.url\b/g,
            `new URL(${JSON.stringify(mirrored)}, import.meta.url).href`,
          ),
          loader,
        };
      });
    },
  };
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  // Error and class names (`error.name`) stay as written when bundling renames a clash.
  keepNames: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
};

/** Builds dist/server (into a fresh folder, then swapped in whole). */
export async function buildServer() {
  const esbuild = await import('esbuild');
  const builtAt = Date.now();
  const staging = path.join(root, `dist/.server-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const results = [
      await esbuild.build({
        ...common,
        entryPoints,
        outdir: staging,
        outExtension: { '.js': '.mjs' },
        splitting: true,
        plugins: [moduleUrlPlugin(outDir)],
      }),
    ];
    for (const { source, output } of workerThreadEntries()) {
      results.push(
        await esbuild.build({
          ...common,
          entryPoints: [source],
          outfile: path.join(staging, output),
          plugins: [moduleUrlPlugin(path.dirname(path.join(outDir, output)))],
        }),
      );
    }
    const inputs = new Set(buildInputs);
    for (const result of results)
      for (const input of Object.keys(result.metafile.inputs)) inputs.add(input);
    for (const folder of copiedFolders) {
      cpSync(path.join(root, folder), path.join(staging, path.relative('src/server', folder)), {
        recursive: true,
      });
      inputs.add(folder);
      for (const file of filesUnder(path.join(root, folder), () => true))
        inputs.add(path.relative(root, file));
    }
    writeFileSync(
      path.join(staging, 'build.json'),
      `${JSON.stringify({ builtAt, inputs: [...inputs].sort() }, null, 2)}\n`,
    );
    const previous = path.join(root, `dist/.server-old-${process.pid}`);
    if (existsSync(outDir)) renameSync(outDir, previous);
    renameSync(staging, outDir);
    rmSync(previous, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
    // The JS API keeps an esbuild service process; the server must not run beside it.
    await esbuild.stop();
  }
}

/**
 * Whether dist/server is missing or older than one of its sources. Without src/server (an
 * image that ships the build only) the build is taken as it is.
 */
export function serverBuildIsStale() {
  if (!existsSync(stampFile) || !existsSync(path.join(outDir, 'main.mjs'))) return true;
  if (!existsSync(serverSources)) return false;
  const { builtAt, inputs } = JSON.parse(readFileSync(stampFile, 'utf8'));
  return (
    inputs.some((input) => {
      const file = path.join(root, input);
      return !existsSync(file) || statSync(file).mtimeMs > builtAt;
    }) || workerThreadEntries().some(({ output }) => !existsSync(path.join(outDir, output)))
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !serverBuildIsStale()) process.exit(0);
  if (!existsSync(serverSources)) {
    console.error('No src/server here to build (and dist/server is missing or incomplete).');
    process.exit(1);
  }
  console.log('Building the server…');
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  await buildServer();
}
