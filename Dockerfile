# Switchboard's container image: built in one stage, run in another with production
# dependencies only, as an unprivileged user. `docker build -t switchboard .`
FROM node:20-bookworm-slim AS build
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
RUN npx tsc -p tsconfig.json && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
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
# The `node` user of the base image (uid 1000), matching the chart's runAsUser.
USER 1000:1000
EXPOSE 8090
ENTRYPOINT ["node", "--max-semi-space-size=4", "bin/switchboard.js"]
CMD ["serve", "--config-path", "/var/lib/switchboard"]
