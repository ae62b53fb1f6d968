# Likeness production image: one image, three roles (ROLE=web | worker | all).
#   docker build -t likeness .
#   docker run -e DATABASE_URL=... -e AUTH_SECRET=... -e PUBLIC_URL=https://... -e ROLE=web -p 3000:3000 likeness
# See docs/deployment.md for the topology and every variable.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The web app (Vite) and the server (esbuild, decision 029) compiled into dist/; the image then
# runs plain JavaScript and keeps no build tools (tsx, esbuild, Vite are dev dependencies).
# The default pack's pictures are encoded into node_modules/.cache (decision 052), so each new
# database's first start fills the catalog without encoding them.
RUN npx vite build --logLevel warn \
 && node scripts/build-server.mjs \
 && node dist/server/content.mjs prepare \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# MALLOC_ARENA_MAX: glibc otherwise keeps a memory arena per libvips thread after decoding
# uploads; with 2, twelve 10 MB photos uploaded one after another grow the server by 0.85x their
# size instead of 1.25x (bench/results/memory.md).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/var/lib/likeness
# fonts: the local preview engines draw a "Preview" badge with a system font.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends fonts-dejavu-core tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/likeness && chown node:node /var/lib/likeness
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# `npm run admin|content|seed|credits` check the build with this script before running it; with
# no sources in the image they run the build as it is.
COPY --chown=node:node scripts/build-server.mjs ./scripts/
COPY --chown=node:node assets ./assets
USER node
EXPOSE 3000
# Every role listens on PORT: web and all serve the app, a worker only /healthz, /readyz and
# /metrics, so this one probe fits all three.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini forwards SIGTERM so the server drains requests and running jobs before exiting.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.mjs"]
