import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { precompress } from './scripts/vite-plugins/precompress.ts';
import { prerenderLanding } from './scripts/vite-plugins/prerender-landing.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = 'http://localhost:3000';

// In development the browser talks to the Vite server (5173) and every /api call is forwarded to
// the API (3000): that covers JSON routes, the SSE stream at /api/events and signed files under
// /api/files. The page's Origin is rewritten to the API's own, because the API rejects
// state-changing requests from an origin it does not serve (a CSRF guard that is right in
// production and only in the way here).
const apiProxy: ProxyOptions = {
  target: apiTarget,
  configure(proxy) {
    proxy.on('proxyReq', (proxyReq) => {
      if (proxyReq.getHeader('origin')) proxyReq.setHeader('origin', apiTarget);
    });
  },
};

// Vite needs a default export here.
export default defineConfig({
  root: 'src/web',
  // .env files stay at the repository root, where the server reads them too; only VITE_* reach
  // the browser.
  envDir: repoRoot,
  // The last two run on production builds only: landing.html (the landing page prerendered) and
  // Brotli/gzip copies of the text files, which the server sends as they are.
  plugins: [react(), tailwindcss(), prerenderLanding(), precompress()],
  define: {
    // The year the build was made: what the prerendered landing page's copyright line says.
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
  },
  build: {
    outDir: fileURLToPath(new URL('dist/web', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      // The app (index.html) and the landing page's own entry, without the router and the data
      // cache (decision 061); the prerender plugin writes landing.html around the latter.
      input: {
        index: fileURLToPath(new URL('src/web/index.html', import.meta.url)),
        landing: fileURLToPath(new URL('src/web/landing.tsx', import.meta.url)),
      },
    },
    sourcemap: true,
    // Illustrations stay files (hashed, cached for a year) instead of data: URLs inside the
    // JavaScript: the bundle stays lean and a picture can be cached and fail on its own.
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': apiProxy },
  },
  preview: {
    proxy: { '/api': apiProxy },
  },
});
