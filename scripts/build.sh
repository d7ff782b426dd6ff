#!/usr/bin/env bash
# `npm run build`: the contract package first (the site's and the console's Vite configs load it
# from its output), then side by side the server (tsc, then what is made from its output: the
# release file, the vendored bundles, the admin command's bundle) and the Vite builds of the site
# and the console, which do not read the server's. Each half's output is held and printed when it
# ends, so the two do not interleave; the build fails when either half failed. 13 s instead of 20
# on two cores (docs/architecture.md#working-on-the-code).
set -euo pipefail
cd "$(dirname "$0")/.."

node_modules/.bin/tsc -b packages/contract

out=$(mktemp -d /tmp/chat-site-build.XXXXXX)
trap 'rm -rf "$out"' EXIT
(
  node_modules/.bin/tsc -b server && node scripts/release-info.mjs && node scripts/bundle-vendor.mjs && node scripts/bundle-admin.mjs
) >"$out/server" 2>&1 &
server=$!
(npm run --silent build -w web && npm run --silent build -w console) >"$out/pages" 2>&1 &
pages=$!

status=0
wait "$server" || status=1
cat "$out/server"
wait "$pages" || status=1
cat "$out/pages"
exit "$status"
