import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { appWide } from './app-wide.ts';

// The server build gives this file its own place under dist/server, so the path holds there too.
const webRoot = fileURLToPath(new URL('../../../../dist/web', import.meta.url));

/** The web app as Vite built it into `dist/web`. */
export interface WebBuild {
  root: string;
  /** The landing page prerendered by the build (see scripts/vite-plugins/prerender-landing.ts). */
  hasLandingPage: boolean;
}

/** The built web app, or nothing when `dist/web` has no build (the API alone, as in tests). */
export function findWebBuild(root = webRoot): WebBuild | undefined {
  if (!existsSync(path.join(root, 'index.html'))) return undefined;
  return { root, hasLandingPage: existsSync(path.join(root, 'landing.html')) };
}

/**
 * The build's files. Files are sent by explicit routes (each with its own root), so nothing is
 * served by accident. The build writes Brotli and gzip copies of its text files (.br, .gz); a
 * browser that accepts one gets it instead of the file itself. Other files have no such copies
 * and go out as they are.
 */
export const webAppFiles = appWide(
  'web-app-files',
  async (app, { build, dataDir }: { build: WebBuild | undefined; dataDir: string }) => {
    await app.register(fastifyStatic, {
      root: build ? build.root : dataDir,
      serve: false,
      preCompressed: true,
    });
    if (!build) return;
    app.get(
      '/assets/*',
      { schema: { hide: true }, config: { rateLimit: false } },
      (request, reply) =>
        reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .sendFile(`assets/${(request.params as { '*': string })['*']}`, build.root, {
            cacheControl: false,
          }),
    );
    for (const file of ['favicon.svg', 'robots.txt']) {
      if (existsSync(path.join(build.root, file))) {
        app.get(
          `/${file}`,
          { schema: { hide: true }, config: { rateLimit: false } },
          (_request, reply) => reply.sendFile(file, build.root),
        );
      }
    }
  },
);

/**
 * The answer to a GET outside `/api` that no route took: the web app, whose router shows the
 * page (or its 404 page).
 */
export function sendWebAppPage(reply: FastifyReply, pathname: string, build: WebBuild) {
  // The privacy policy stays out of search results, even for crawlers that run no script.
  if (pathname === '/privacy') reply.header('x-robots-tag', 'noindex');
  // `/` comes prerendered, so it paints before the scripts run; they then take it over.
  const page = pathname === '/' && build.hasLandingPage ? 'landing.html' : 'index.html';
  return reply
    .header('cache-control', 'no-cache')
    .type('text/html')
    .sendFile(page, build.root, { cacheControl: false });
}
