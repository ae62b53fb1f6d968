import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

// Text files worth compressing; fonts and pictures are compressed formats already, and source
// maps are only read by developer tools.
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const minBytes = 1024;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy next to every text file of the web build, once,
 * at the highest levels: the server sends them to browsers that accept them (@fastify/static's
 * `preCompressed`) instead of compressing on every request or not at all.
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'likeness:precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    // After every plugin's writeBundle, so pages written then (landing.html) are included.
    closeBundle: {
      order: 'post',
      handler() {
        for (const file of filesUnder(config.build.outDir)) {
          if (!compressible.test(file)) continue;
          const content = readFileSync(file);
          if (content.length < minBytes) continue;
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        }
      },
    },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const entry = path.join(dir, name);
    return statSync(entry).isDirectory() ? filesUnder(entry) : [entry];
  });
}
