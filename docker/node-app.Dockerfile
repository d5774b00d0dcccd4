# syntax=docker/dockerfile:1
# One image per app: docker build -f docker/node-app.Dockerfile --build-arg APP=iam -t platform/iam .
# The image has three entrypoints: main.js (HTTP, the default), worker.js (BullMQ; iam and kb-api)
# and cli.js (migrate, seed, on-call tasks); Kubernetes sets `command` for the latter two.
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG APP
WORKDIR /workspace
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN test -n "$APP" && NX_DAEMON=false NX_NO_CLOUD=true npx nx run "$APP":build:production

FROM ${NODE_IMAGE} AS runtime
ARG APP
ENV NODE_ENV=production
WORKDIR /app
# Only the app's pruned dependency manifest, so the runtime layer holds what the bundle requires.
COPY --from=build /workspace/dist/apps/${APP}/package.json /workspace/dist/apps/${APP}/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /workspace/dist/apps/${APP}/ ./
USER node
EXPOSE 3000
# Exec form: node is PID 1 and receives SIGTERM itself (graceful drain).
CMD ["node", "main.js"]
