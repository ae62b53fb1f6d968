import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import type { PrerenderedPage } from '../../src/web/prerender.tsx';

const landingPageModule = '/features/landing/pages/home-page.tsx';

/**
 * Writes `landing.html`, which the server sends for `/`: index.html with the landing page
 * already rendered inside `#root` (by src/web/prerender.tsx, built for Node on the side), its
 * title, and module preloads for the landing page's own chunks, so the page paints before any
 * script runs and the scripts that hydrate it load in parallel. Every other path keeps the
 * empty index.html.
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
          rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
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
      const preloads = landingChunks(bundle)
        .map((file) => `    <link rel="modulepreload" crossorigin href="${config.base}${file}">\n`)
        .join('');
      const html = template
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
        .replace('</head>', `${preloads}  </head>`)
        .replace(root, `<div id="root">${page.html}</div>`);
      writeFileSync(path.join(outDir, 'landing.html'), html);
    },
  };
}

/** The landing page's chunk and the chunks it imports that index.html does not preload yet. */
function landingChunks(bundle: Rollup.OutputBundle): string[] {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const landing = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(landingPageModule));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!landing || !entry) throw new Error('the build has no landing page or entry chunk');

  const closure = (start: Rollup.OutputChunk) => {
    const seen = new Set<string>();
    const visit = (chunk: Rollup.OutputChunk) => {
      if (seen.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      chunk.imports.forEach((file) => visit(byFile.get(file)!));
    };
    visit(start);
    return seen;
  };
  const alreadyLoaded = closure(entry);
  return [...closure(landing)].filter((file) => !alreadyLoaded.has(file));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
