# syntax=docker/dockerfile:1
# Predgate gateway image: built JavaScript on plain Node 20, no TypeScript toolchain at run time.
#   docker build -t predgate .
#   docker run -p 3847:3847 -v predgate-data:/data predgate
# The first start prints an API key on stdout (docker logs); see README "Deployment".

FROM node:20-bookworm-slim AS build
WORKDIR /src
RUN npm install --global pnpm@10.34.9
# Packages fetched from the lockfile alone, so this layer is reused while only sources change.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline && pnpm build
# The gateway and only its production dependencies (workspace packages as built), in /deploy.
RUN pnpm --filter @predgate/server deploy --prod --legacy /deploy

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3847 \
    PREDGATE_DATA_DIR=/data \
    NODE_OPTIONS=--max-semi-space-size=64
WORKDIR /app
COPY --from=build --chown=node:node /deploy /app
RUN mkdir -p /data/archive && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3847
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3847) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/predgate.js"]
CMD ["serve"]
