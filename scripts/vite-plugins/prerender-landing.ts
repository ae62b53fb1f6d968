import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import type { PrerenderedPage } from '../../src/web/prerender.tsx';

const landingEntry = '/landing.tsx';

/**
 * Writes `landing.html`, which the server sends for `/`: index.html with the landing page
 * already rendered inside `#root` (by src/web/prerender.tsx, built for Node on the side), its
 * title, and the landing entry's script, module preloads and styles in place of the app's
 * (landing.tsx, decision 061), so the page paints before any script runs and the scripts that
 * hydrate it load in parallel. Every other path keeps the empty index.html.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'likeness:prerender-landing',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(_options, bundle) {
      const outDir = config.build.outDir;
      // Next to the web build, so the externalised packages resolve from the project's
      // node_modules when Node imports the result.
      const serverOutDir = path.join(outDir, '..', 'prerender');
      await build({
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'warn',
        build: {
          ssr: path.join(config.root, 'prerender.tsx'),
          outDir: serverOutDir,
          emptyOutDir: true,
          sourcemap: false,
          minify: false,
          rolldownOptions: { input: undefined, output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      let page: PrerenderedPage;
      try {
        const module = (await import(
          pathToFileURL(path.join(serverOutDir, 'prerender.mjs')).href
        )) as typeof import('../../src/web/prerender.tsx');
        page = await module.prerenderLanding();
      } finally {
        rmSync(serverOutDir, { recursive: true, force: true });
      }

      const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const root = '<div id="root"></div>';
      if (!template.includes(root)) throw new Error(`index.html has no empty ${root}`);
      const appTags =
        /^\s*<(?:script type="module"[^>]*><\/script|link rel="(?:modulepreload|stylesheet)"[^>]*)>\n/gm;
      if (!appTags.test(template))
        throw new Error('index.html has no script or style tags from the build');
      const html = template
        .replace(appTags, '')
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
        .replace('  </head>', `${landingTags(bundle, config.base)}  </head>`)
        .replace(root, `<div id="root">${page.html}</div>`);
      writeFileSync(path.join(outDir, 'landing.html'), html);
    },
  };
}

/** The landing entry's script, a preload for each chunk it imports, and its styles. */
function landingTags(bundle: Rollup.OutputBundle, base: string): string {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find(
    (chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith(landingEntry),
  );
  if (!entry) throw new Error(`the build has no ${landingEntry} entry`);

  const imported = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (imported.has(chunk)) return;
    imported.add(chunk);
    chunk.imports.forEach((file) => visit(byFile.get(file)!));
  };
  visit(entry);
  const styles = new Set(
    [...imported].flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]),
  );
  return [
    `<script type="module" crossorigin src="${base}${entry.fileName}"></script>`,
    ...[...imported]
      .filter((chunk) => chunk !== entry)
      .map((chunk) => `<link rel="modulepreload" crossorigin href="${base}${chunk.fileName}">`),
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="${base}${file}">`),
  ]
    .map((tag) => `    ${tag}\n`)
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
