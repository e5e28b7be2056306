# The host (the signing service) as a container: `docker build -t envelope-host .`
# Settings come from the environment (docs/configuration.md); data lives in PostgreSQL
# (DATABASE_URL) and, for files, an S3-compatible bucket (STORAGE_URL), or else in /data.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY host/package.json host/
RUN npm ci --no-audit --no-fund
COPY . .
# The pages, then the server and its runtime dependencies alone, in /out (host/production.sh,
# the recipe test/host/production.test.ts runs).
RUN npm run build:app && sh host/production.sh /out

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3100 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /out /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3100
# Ready: the database answers at this build's schema, the bucket answers, the queue runs.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: readiness turns 503, requests under way finish (SHUTDOWN_GRACE_MS), jobs under way finish.
STOPSIGNAL SIGTERM
CMD ["node", "host/dist/cli.js", "serve"]
