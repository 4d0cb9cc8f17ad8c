# Switchboard's container image: built in one stage, run in another with production
# dependencies only, as an unprivileged user. `docker build -t switchboard .`
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY kernel kernel
COPY lib lib
COPY packages packages
COPY plugins plugins
COPY app app
COPY client client
COPY test test
COPY bench bench
COPY bin bin
COPY schemas schemas
COPY scripts scripts
RUN npx tsc --noEmit -p tsconfig.json && node scripts/emit.js && node scripts/build-bundles.js && node scripts/build-prebuilt.js && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist/bundle dist/bundle
COPY --from=build /src/dist/kernel dist/kernel
COPY --from=build /src/dist/lib dist/lib
COPY --from=build /src/dist/packages dist/packages
COPY --from=build /src/dist/plugins dist/plugins
COPY --from=build /src/dist/app dist/app
COPY --from=build /src/dist/client dist/client
COPY --from=build /src/bin bin
COPY --from=build /src/schemas schemas
# The Cedar plugin's schema and baseline policies are read beside its sources, not from dist/.
COPY --from=build /src/plugins/authorization-cedar/*.cedar* plugins/authorization-cedar/
COPY --from=build /src/plugins/meta-tools/ranking/related-words.txt /src/plugins/meta-tools/ranking/english-words.txt plugins/meta-tools/ranking/
# The configuration directory (mount yours over it); Switchboard keeps executions there too.
RUN mkdir -p /var/lib/switchboard && chown 1000:1000 /var/lib/switchboard
# The `node` user of the base image (uid 1000), matching the chart's runAsUser.
USER 1000:1000
# A container's loopback is its own: for `docker run -p` to reach the endpoint it listens on
# every interface of the container (SWITCHBOARD_HOST, which flags override). Without OAuth
# that bind is refused unless accepted; the default command accepts it, visibly, so that
# `docker run -p 127.0.0.1:8090:8090 switchboard` works as is and what reaches the endpoint
# is decided by where the port is published (docs/security.md, "The container image"). Turn
# on aggregator.oauth.server before publishing it beyond the host's loopback; a command of
# your own without --allow-unauthenticated-network has an unprotected configuration refused.
ENV SWITCHBOARD_HOST=0.0.0.0
EXPOSE 8090
# No curl in a slim image: Node's fetch, against the health endpoint on the same port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SWITCHBOARD_PORT || 8090) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "--max-semi-space-size=4", "bin/switchboard.js"]
CMD ["serve", "--config-path", "/var/lib/switchboard", "--allow-unauthenticated-network"]
