# Multi-stage image of the website: dependencies, build, production dependencies, runtime.
# Ops build on the official Node.js 26 LTS image below, on Debian 13 (trixie), pinned by its
# tag (what a reader sees) and by the digest of its multi-platform index (what is pulled; a
# tag can be moved, a digest cannot). Renovate (renovate.json) proposes new Node patch
# releases and rebuilt images of the same tag with both parts updated together
# (docs/decisions/images-pinned-by-tag-and-digest.md).
# CI has no registry: it builds with buildah against a locally made base of the same Debian
# release and Node version (tests/containers/engine.sh reads both from this line).
ARG BASE_IMAGE=docker.io/library/node:26.10.0-trixie-slim@sha256:ec7758ee051e457b468b32bde57b0879010b325bb9862718e9615225ce4aaae1
# The image of the release this one replaces (e.g. registry.example/web:1.4.0): its hashed
# client files are served by this image too, so during a rolling update a page rendered by an
# old pod can load its chunks from a new one. The default, this build's own stage, adds nothing.
ARG PREVIOUS_IMAGE=build

FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

FROM deps AS build
COPY tsconfig.json vite.config.ts ./
COPY client ./client
COPY server ./server
COPY shared ./shared
COPY locales ./locales
COPY public ./public
COPY scripts ./scripts
RUN npm run build

# The previous release's own files (those its manifest names), not what it carried itself.
FROM ${PREVIOUS_IMAGE} AS previous
FROM deps AS release-assets
COPY scripts/copy-release-assets.ts ./scripts/
COPY --from=previous /app/dist /previous
RUN mkdir -p /release/client/assets && node scripts/copy-release-assets.ts /previous /release

FROM ${BASE_IMAGE} AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
# The bill of materials of what ships: the production dependencies exactly as installed, in
# CycloneDX (npm's own `npm sbom`, no tool added), kept in the image at /app/sbom.cdx.json.
# `npm sbom` reads the installed tree; it refuses one without the devDependencies the
# manifest names (and `--omit=dev` with `--package-lock-only` leaves out packages that dev
# tools share), so this stage's copy of the manifest drops them first. The image gets the
# original manifest from the build context.
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && npm pkg delete devDependencies \
 && npm sbom --sbom-format=cyclonedx --sbom-type=application >sbom.cdx.json \
 && npm cache clean --force

FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    OUTBOX_DIR=/data/outbox
WORKDIR /app
# The server runs its TypeScript directly (Node's type stripping) next to the built React
# entry and client assets (docs/decisions/the-server-runs-its-typescript-directly.md); nothing
# is writable but the outbox volume and /tmp.
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=production-deps /app/sbom.cdx.json ./sbom.cdx.json
COPY --from=release-assets /release ./dist
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY server ./server
COPY shared ./shared
COPY locales ./locales
USER node
# 3000: the site (PORT). 9464: /metrics on a port of its own (METRICS_PORT), for Prometheus
# only and answering loopback and private addresses unless METRICS_ALLOW says otherwise:
# publish 3000 alone to the public (docs/operations.md#operations).
EXPOSE 3000 9464
VOLUME ["/data/outbox"]
# node as PID 1 handles SIGTERM itself: readiness off, drain, exit 0. A young generation of
# 8 MB semi-spaces keeps the resident memory lower under a flood (313-319 MB after
# `npm run bench` instead of up to 414 MB) at no measurable cost in throughput; keep it equal
# to `npm run serve`.
CMD ["node", "--max-semi-space-size=8", "server/main.ts"]
