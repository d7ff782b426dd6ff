# syntax=docker/dockerfile:1
# The site's server as a container image (docs/operations.md#container-image). Three stages: the
# build with every package, the runtime packages alone (better-sqlite3 is compiled there, so the
# compilers stay out of the image), and the image itself. scripts/deploy-check.sh performs the
# same steps without a container; e2e/deploy/ tests them.
#
#   docker build -t chat-site .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… -e STORAGE_URL=s3://… chat-site

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles its addon when no prebuilt one can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime-packages
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/app/data/site.db \
    STORAGE_URL=file:/app/data/files
WORKDIR /app
# What a deployment ships: keep in step with `shipped` in scripts/deploy-check.sh.
COPY --from=runtime-packages /app ./
COPY --from=build /src/site.config.json ./
COPY --from=build /src/packages/contract/dist packages/contract/dist
COPY --from=build /src/server/dist server/dist
COPY --from=build /src/server/demo-assets server/demo-assets
COPY --from=build /src/web/dist web/dist
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
CMD ["node", "server/dist/server.js"]
