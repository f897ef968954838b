#!/usr/bin/env bash
# The built site (`npm run build`) served by the Node.js on PATH as `npm run serve` does, with no
# configuration: it must answer /readyz, a page in each locale and a contact message, and exit 0
# on SIGTERM. CI runs it with the oldest line package.json's engines allow (.ci/run), the rest of
# the tests having run on the line the image runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -f dist/server/entry-server.js ]] || {
  echo '[node-line] no build: run `npm run build` first' >&2
  exit 1
}
port=${NODE_LINE_CHECK_PORT:-18600}
outbox=$(mktemp -d)
log="$outbox.log"
fail() {
  printf '[node-line] FAIL: %s\n' "$*" >&2
  tail -n 20 "$log" >&2 || true
  kill "$pid" 2>/dev/null || true
  rm -rf "$outbox" "$log"
  exit 1
}
NODE_ENV=production HOST=127.0.0.1 PORT="$port" METRICS_PORT=$((port + 1)) OUTBOX_DIR="$outbox" \
  node --max-semi-space-size=8 server/main.ts >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  curl -fsS -m 2 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || fail "the server stopped"
  sleep 0.2
done
curl -fsS -m 30 "http://127.0.0.1:$port/readyz" | grep -q '"ready"' || fail "/readyz is not ready"
for path in / /de /pl; do
  curl -fsS -m 30 -H 'Accept-Language: en' "http://127.0.0.1:$port$path" | grep -q '<html lang=' ||
    fail "no page at $path"
done
code=$(node tests/deploy/contact-post.ts "http://127.0.0.1:$port") || fail "could not send a contact message"
[[ $code == 202 ]] || fail "contact message not accepted ($code)"
ls "$outbox" | grep -q '\.json$' || fail "the accepted message is not in the outbox"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[[ $status == 0 ]] || fail "exit code $status after SIGTERM"
rm -rf "$outbox" "$log"
echo "[node-line] Node.js $(node --version): served /readyz, /, /de, /pl and a contact message; exit 0 on SIGTERM"
