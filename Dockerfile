# Production image: compiled JavaScript and production dependencies only, run as a non-root
# user. Build: docker build -t switchboard .   Run: see docker-compose.yml.

# Build stage: every dependency (TypeScript, types, Vite), compile src/ to dist/src/ and the
# web console to dist/console/, then drop the development dependencies so that node_modules
# can be copied as is.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema.graphql ./
COPY console ./console
RUN npm run build && npm run console:build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: node, production node_modules, the compiled service, CLIs and console; no sources,
# no compiler. Files stay owned by root (read-only for the service's user).
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/console ./dist/console
# `node` (uid 1000) comes with the base image.
USER node
EXPOSE 3000
# Liveness of this replica (the load balancer uses /readyz). The slim image has no curl:
# node's own fetch asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1: it has no default signal handlers there, and src/main.ts installs its own
# for SIGTERM and SIGINT (requests and jobs finish, then exit 0). It starts no child
# processes with DATABASE_URL set, so nothing needs reaping and no init is required.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=64", "dist/src/main.js"]
