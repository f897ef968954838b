#!/usr/bin/env bash
# `npm run release`: the image and the Helm chart of this commit, one version for both, pushed to
# an OCI registry and signed with one GnuPG key (docs/operations.md#releases; why GnuPG:
# docs/decisions/releases-signed-with-one-gnupg-key.md).
#
#   RELEASE_REGISTRY   registry and path both go to, e.g. registry.example.de/modernwerk (required):
#                      the image becomes <registry>/modernwerk-web, the chart
#                      oci://<registry>/charts/modernization-partners-web
#   RELEASE_SIGNING_KEY  user ID of the GnuPG key that signs both, as `gpg -K` shows it (required)
#   RELEASE_SIGNING_PASSPHRASE_FILE  a file holding the key's passphrase, if it has one
#   GNUPGHOME          the keyring that holds the key (gpg's own default otherwise)
#   RELEASE_DIR        where the release's files are written (default release/<version>)
#   RELEASE_PLAIN_HTTP=1  a registry without TLS (only a loopback one, as CI's)
#   RELEASE_ALLOW_DIRTY=1 a tree with uncommitted changes (its version says `.dirty`; tests only)
#   BASE_IMAGE, PREVIOUS_IMAGE  the Dockerfile's build arguments (PREVIOUS_IMAGE: the release
#                      this one replaces, docs/operations.md#deployments-and-version-skew)
#   HELM               the helm binary (default: helm on PATH): Helm 4. (Helm 3.18.0's push fails
#                      on the '+' of the version, "Error: not found", before it asks the registry.)
#
# Needs buildah, podman, skopeo and gpg (Debian: apt-get install buildah podman skopeo gnupg).
# Writes to RELEASE_DIR: the chart package and its provenance file, the image's bill of
# materials, the image's signature in the layout of a containers "lookaside" store (to be served
# where the nodes read signatures), the public key, and release.json naming what was pushed.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${RELEASE_REGISTRY:?set RELEASE_REGISTRY to the registry and path to push to, e.g. registry.example.de/modernwerk}"
: "${RELEASE_SIGNING_KEY:?set RELEASE_SIGNING_KEY to the user ID of the GnuPG key that signs the release}"
helm_bin=${HELM:-helm}
passphrase_file=${RELEASE_SIGNING_PASSPHRASE_FILE:-}
log() { printf '[release] %s\n' "$*"; }

# One version for the image and the chart: the package's version and the commit, as SemVer
# build metadata (0.1.0+0123abcd4567). OCI tags cannot hold '+': Helm writes it as '_' in the
# chart's tag, and the image gets the same tag.
commit=$(git rev-parse --short=12 HEAD)
version="$(node -p 'require("./package.json").version')+$commit"
if [[ -n $(git status --porcelain) ]]; then
  [[ ${RELEASE_ALLOW_DIRTY:-} == 1 ]] || {
    echo "release: the work tree has uncommitted changes; a release is built from a commit" >&2
    exit 1
  }
  version="$version.dirty"
fi
tag=${version//+/_}
image="$RELEASE_REGISTRY/modernwerk-web"
chart_repository="oci://$RELEASE_REGISTRY/charts"
chart_name=$(sed -n 's/^name: //p' helm/Chart.yaml)
dir=${RELEASE_DIR:-release/$version}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plain_http=()
tls_verify=()
if [[ ${RELEASE_PLAIN_HTTP:-} == 1 ]]; then
  plain_http=(--plain-http)
  tls_verify=(--dest-tls-verify=false)
fi

# The signing key: its fingerprint for skopeo, a keyring file for Helm (which reads no gpg-agent).
fingerprint=$(gpg --batch --trust-model always --with-colons --list-secret-keys -- "$RELEASE_SIGNING_KEY" |
  awk -F: '$1 == "fpr" {print $10; exit}')
[[ -n $fingerprint ]] || {
  echo "release: no secret key for '$RELEASE_SIGNING_KEY' in the keyring" >&2
  exit 1
}
gpg_secret=(gpg --batch --pinentry-mode loopback)
[[ -z $passphrase_file ]] || gpg_secret+=(--passphrase-file "$passphrase_file")
"${gpg_secret[@]}" --export-secret-keys "$fingerprint" >"$work/secring.gpg"
gpg --batch --export "$fingerprint" >"$dir/release-key.gpg"
log "version $version, signed by $fingerprint"

log "building $image:$tag"
build_args=()
[[ -z ${BASE_IMAGE:-} ]] || build_args+=(--build-arg "BASE_IMAGE=$BASE_IMAGE")
[[ -z ${PREVIOUS_IMAGE:-} ]] || build_args+=(--build-arg "PREVIOUS_IMAGE=$PREVIOUS_IMAGE")
buildah bud --quiet --isolation chroot --network host --pull=missing "${build_args[@]}" \
  --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.revision=$(git rev-parse HEAD)" \
  -t "$image:$tag" . >/dev/null
# buildah keeps the working container of a stage only copied from (`FROM previous`), named after
# its image: remove it, or each release leaves one behind in the machine's storage.
buildah containers --format '{{.ContainerName}}' | grep -E '^modernwerk-web-working-container(-[0-9]+)?$' |
  xargs -r buildah rm >/dev/null || true
podman run --rm --network none --entrypoint cat "$image:$tag" /app/sbom.cdx.json >"$dir/sbom.cdx.json"

# The image pushed and signed in one step: skopeo signs the manifest it pushes, and the
# signature goes to the lookaside layout under RELEASE_DIR/signatures (registries.d).
mkdir -p "$work/registries.d" "$dir/signatures"
printf 'docker:\n  %s:\n    lookaside-staging: file://%s\n' "$image" "$dir/signatures" \
  >"$work/registries.d/release.yaml"
sign=(--sign-by "$fingerprint")
[[ -z $passphrase_file ]] || sign+=(--sign-passphrase-file "$passphrase_file")
skopeo copy --quiet --registries.d "$work/registries.d" "${tls_verify[@]}" "${sign[@]}" \
  --digestfile "$work/digest" "containers-storage:$image:$tag" "docker://$image:$tag"
digest=$(cat "$work/digest")
log "pushed and signed $image:$tag@$digest"

# The chart of the same version, whose defaults run the image just pushed (by its digest).
cp -r helm "$work/chart"
sed -i -E "s/^version: .*/version: $version/; s/^appVersion: .*/appVersion: '$version'/" \
  "$work/chart/Chart.yaml"
sed -i -E "/^image:/,/^[^ #]/ {
  s|^  repository: .*|  repository: $image|
  s|^  tag: .*|  tag: '$tag'|
  s|^  digest: .*|  digest: '$digest'|
}" "$work/chart/values.yaml"
rendered=$("$helm_bin" template release "$work/chart" | sed -n 's/^ *image: "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' | sort -u)
grep -qxF "$image:$tag@$digest" <<<"$rendered" || {
  echo "release: the chart does not render the pushed image; it renders: $rendered" >&2
  exit 1
}
helm_sign=(--sign --key "$RELEASE_SIGNING_KEY" --keyring "$work/secring.gpg")
[[ -z $passphrase_file ]] || helm_sign+=(--passphrase-file "$passphrase_file")
"$helm_bin" package "$work/chart" --destination "$dir" "${helm_sign[@]}" >/dev/null
package="$dir/$chart_name-$version.tgz"
[[ -f $package && -f $package.prov ]] || {
  echo "release: helm package wrote no signed $package" >&2
  exit 1
}
"$helm_bin" push "$package" "$chart_repository" "${plain_http[@]}" >"$work/push.log" 2>&1 || {
  cat "$work/push.log" >&2
  exit 1
}
log "pushed and signed $chart_repository/$chart_name $version (provenance $(basename "$package").prov)"

cat >"$dir/release.json" <<JSON
{
  "version": "$version",
  "commit": "$(git rev-parse HEAD)",
  "image": "$image:$tag@$digest",
  "chart": "$chart_repository/$chart_name",
  "signedBy": "$fingerprint"
}
JSON
log "written to $dir: $(cd "$dir" && ls | tr '\n' ' ')"
