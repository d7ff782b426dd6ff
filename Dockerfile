# syntax=docker/dockerfile:1
# The site's server as a container image (docs/deploy.md#container-image). Three stages: the
# build with every package, the server's runtime packages alone, and the image itself.
# scripts/deploy-check.sh stages the same tree from these COPY and RUN lines without a container;
# scripts/container-check.sh builds and runs this file with podman; e2e/deploy/ tests both.
#
#   docker build -t chat-site .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… -e STORAGE_URL=s3://… chat-site

# Node.js 24 LTS on Debian bookworm, pinned by version and by the digest of its multi-platform
# index. A machine that cannot pull it builds a local one (scripts/container-base.sh) and passes
# --build-arg NODE_IMAGE=<that tag>.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY server/package.json server/
COPY web/package.json web/
COPY console/package.json console/
# Without install scripts: the build runs none of them. They would fetch the Node.js the checkout
# pins (the `node` package; the image has its own) and check esbuild's binary, which its optional
# platform package already holds. better-sqlite3's binary is prebuilt, and only the runtime stage
# below keeps it.
RUN npm ci --ignore-scripts --engine-strict --no-audit --no-fund
COPY . .
# The commit built, for backups' manifests (scripts/release-info.mjs): .git is not copied in.
ARG SOURCE_COMMIT
RUN npm run build

FROM ${NODE_IMAGE} AS runtime-packages
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY server/package.json server/
COPY web/package.json web/
COPY console/package.json console/
# The server's packages only (the site and the console are built files by now). No install
# script runs: better-sqlite3 loads the Node-API binary its package ships, so no compiler either.
RUN npm ci --omit=dev --workspace=server --include-workspace-root --ignore-scripts --engine-strict --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
# MALLOC_MMAP_THRESHOLD_: glibc's threshold fixed where it starts, as the supervisor sets it for
# its workers, so that a single process (WORKERS=1) has it too (docs/performance.md#footprint).
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/app/data/site.db \
    STORAGE_URL=file:/app/data/files
WORKDIR /app
# What a deployment ships: scripts/deploy-check.sh reads these lines.
COPY --from=runtime-packages /app ./
COPY --from=build /src/site.config.json ./
COPY --from=build /src/packages/contract/dist packages/contract/dist
COPY --from=build /src/server/dist server/dist
COPY --from=build /src/server/demo-assets server/demo-assets
COPY --from=build /src/web/dist web/dist
COPY --from=build /src/console/dist console/dist
COPY --from=build /src/scripts/start.mjs /src/scripts/ensure-built.mjs scripts/
# The image's user (the node image's own, uid 1000) owns only the data directory: the SQLite
# file and the file store when DATABASE_URL and STORAGE_URL are left as they are.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself, not npm: SIGTERM from `docker stop` reaches the server, which stops gracefully.
CMD ["node", "--no-concurrent-recompilation", "server/dist/server.js"]
