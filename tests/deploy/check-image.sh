#!/usr/bin/env bash
# Makes a release (`npm run release`) into a registry on loopback, pulls the chart and the image
# back and verifies both signatures, then runs the pulled image the way the Helm chart will:
# non-root, read-only root filesystem, all capabilities dropped, no privilege escalation,
# writable /tmp and outbox only. It must serve a page and /readyz, and exit 0 on SIGTERM. Then
# the fault drill on the pulled chart. Needs the engine of tests/containers/engine.sh (sourced
# here), and docker-registry, skopeo and gpg (installed by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../containers/engine.sh
source tests/containers/engine.sh
# Run alone, this script started the API service: end it at exit (from .ci/run, .ci/run does).
trap containers_engine_stop EXIT
for tool in docker-registry skopeo gpg; do
  command -v "$tool" >/dev/null || {
    echo "[image] $tool is missing (Debian: apt-get install docker-registry skopeo gnupg)" >&2
    exit 1
  }
done

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

# Helm 3 and Helm 4, the binaries of tests/helpers/helm.ts (HELM and HELM4 name others).
helm_of() { node --input-type=module -e "console.log((await import('#tests/helpers/helm.ts')).helmBinary($1) ?? '')"; }
helm_bin=$(helm_of 3)
helm4_bin=$(helm_of 4)
[[ -x $helm_bin && -x $helm4_bin ]] || fail "no helm binaries (Helm 3: '$helm_bin', Helm 4: '$helm4_bin')"

# The release as ops make one (`npm run release`, scripts/release.sh), pushed to a registry on
# loopback (Debian's docker-registry, the distribution registry) and signed with a key made for
# this run, with Helm 4. Everything below runs what is pulled back from that registry, verified
# with Helm 3 and 4: the chart by its provenance file, the image by its signature.
release_work=$(mktemp -d)
registry_pid=
pulled_image=
end_release() {
  [[ -z $registry_pid ]] || kill "$registry_pid" 2>/dev/null || true
  # The pulled image is named after this run's registry port: no later run uses it.
  [[ -z $pulled_image ]] || podman rmi -f "$pulled_image" >/dev/null 2>&1 || true
  GNUPGHOME="$release_work/gnupg" gpgconf --kill gpg-agent 2>/dev/null || true
  rm -rf "$release_work"
}
trap 'end_release; containers_engine_stop' EXIT
registry_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$release_work/registry.yml" <<YAML
version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $release_work/registry
http:
  addr: 127.0.0.1:$registry_port
YAML
docker-registry serve "$release_work/registry.yml" >"$release_work/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 1 300); do
  curl -fsS -m 2 "http://127.0.0.1:$registry_port/v2/" >/dev/null 2>&1 && break
  sleep 0.1
done
registry="127.0.0.1:$registry_port/modernwerk"
mkdir -m 700 "$release_work/gnupg"
export GNUPGHOME="$release_work/gnupg"
gpg --batch --quiet --passphrase '' --quick-gen-key \
  'Modernwerk releases (CI test key) <releases@modernwerk.example>' rsa3072 sign never 2>/dev/null
log "npm run release to $registry (a docker-registry on loopback; base $BASE_IMAGE, previous release $PREVIOUS)"
RELEASE_REGISTRY="$registry" RELEASE_SIGNING_KEY='releases@modernwerk.example' RELEASE_PLAIN_HTTP=1 \
  RELEASE_ALLOW_DIRTY=1 RELEASE_DIR="$release_work/release" HELM="$helm4_bin" \
  BASE_IMAGE="$BASE_IMAGE" PREVIOUS_IMAGE="$PREVIOUS" bash scripts/release.sh
version=$(node -p "require('$release_work/release/release.json').version")
released=$(node -p "require('$release_work/release/release.json').image")
# Nothing built here is run: the release's own copy goes, and what runs is pulled back.
podman rmi -f "${released%@*}" >/dev/null

# The chart, pulled by name and version and verified against the release key by Helm 3 and
# Helm 4; a key that did not sign it is refused.
chart="oci://$registry/charts/modernization-partners-web"
mkdir "$release_work/pulled" "$release_work/pulled4" "$release_work/other"
"$helm_bin" pull "$chart" --version "$version" --plain-http --verify \
  --keyring "$release_work/release/release-key.gpg" -d "$release_work/pulled" >/dev/null 2>&1 ||
  fail "helm pull --verify (Helm 3) of $chart $version failed"
"$helm4_bin" pull "$chart" --version "$version" --plain-http --verify \
  --keyring "$release_work/release/release-key.gpg" -d "$release_work/pulled4" >/dev/null 2>&1 ||
  fail "helm pull --verify (Helm 4) of $chart $version failed"
# RSA, as the release key: Helm 3 cannot read an EdDSA keyring at all, which would refuse the
# chart for the wrong reason.
gpg --batch --quiet --passphrase '' --quick-gen-key 'Not the release key <other@example.invalid>' rsa2048 sign never 2>/dev/null
gpg --batch --export other@example.invalid >"$release_work/other-key.gpg"
for helm in "$helm_bin" "$helm4_bin"; do
  refusal=$("$helm" pull "$chart" --version "$version" --plain-http --verify \
    --keyring "$release_work/other-key.gpg" -d "$release_work/other" 2>&1) &&
    fail "helm pull --verify ($helm) accepted the chart with a key that did not sign it"
  grep -q 'signature made by unknown entity' <<<"$refusal" ||
    fail "helm pull --verify ($helm) refused the chart for another reason: $refusal"
done
# What an operator's `helm install <chart> --version … --verify` renders, from the registry.
"$helm_bin" template web "$chart" --version "$version" --plain-http --verify \
  --keyring "$release_work/release/release-key.gpg" >"$release_work/installed.yaml" 2>"$release_work/template.log" ||
  fail "helm template --verify of $chart $version failed: $(cat "$release_work/template.log")"
grep -qF "image: \"$released\"" "$release_work/installed.yaml" ||
  fail "helm template --verify of $chart $version does not run the released image $released"
tar -xzf "$release_work/pulled/modernization-partners-web-$version.tgz" -C "$release_work/pulled"
pulled_chart="$release_work/pulled/modernization-partners-web"
read -r repository tag digest < <(node -p "const { image } = require('yaml').parse(
  require('fs').readFileSync('$pulled_chart/values.yaml', 'utf8')); [image.repository, image.tag, image.digest].join(' ')")
IMAGE="$repository:$tag@$digest"
[[ $IMAGE == "$released" ]] || fail "the pulled chart runs $IMAGE, the release pushed $released"
log "chart $chart $version pulled and verified (Helm 3 and 4, --verify); its default image is $IMAGE"

# The image, pulled by digest under a policy that accepts nothing but the release key's
# signature (containers-policy.json), its signature read from the release's lookaside folder;
# under a policy naming another key it is refused.
mkdir "$release_work/registries.d"
printf 'docker:\n  %s:\n    lookaside: file://%s\n' "$repository" "$release_work/release/signatures" \
  >"$release_work/registries.d/release.yaml"
policy() {
  printf '{"default":[{"type":"reject"}],"transports":{"docker":{"%s":[{"type":"signedBy","keyType":"GPGKeys","keyPath":"%s","signedIdentity":{"type":"matchRepository"}}]}}}\n' \
    "$repository" "$1"
}
policy "$release_work/release/release-key.gpg" >"$release_work/policy.json"
policy "$release_work/other-key.gpg" >"$release_work/other-policy.json"
refusal=$(skopeo copy --quiet --policy "$release_work/other-policy.json" --registries.d "$release_work/registries.d" \
  --src-tls-verify=false "docker://$repository@$digest" "dir:$release_work/other-image" 2>&1) &&
  fail "the image was accepted under a policy naming a key that did not sign it"
grep -qi 'signature' <<<"$refusal" || fail "the image was refused for another reason: $refusal"
pulled_image="$repository:$tag"
skopeo copy --quiet --policy "$release_work/policy.json" --registries.d "$release_work/registries.d" \
  --src-tls-verify=false "docker://$repository@$digest" "containers-storage:$pulled_image" ||
  fail "the image $repository@$digest did not pass its signature check"
log "image $repository@$digest pulled, its signature verified (skopeo, signedBy the release key)"
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
node tests/deploy/drill.ts "$IMAGE" "$helm_bin" "$pulled_chart"
