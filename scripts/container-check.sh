#!/usr/bin/env bash
# Builds the real Dockerfile with podman on a machine that cannot pull its base image
# (docs/deploy.md#container-image), for e2e/deploy/container.test.ts and by hand:
#
#   container-check.sh build TAG    builds the local base when missing (scripts/container-base.sh),
#                                   then the image from this checkout as TAG
#   container-check.sh run TAG PORT runs TAG in the foreground on 127.0.0.1:PORT (host network),
#                                   with the image's own user and defaults; other settings come
#                                   from the environment (ADMIN_TOKEN, DEMO_CONTENT)
#
# Needs root, podman and runc (Debian's packages, installed by scripts/ensure-tools.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# What podman needs on these machines: no default ulimits (the sandbox refuses to raise them) and
# cgroups managed without systemd.
export CONTAINERS_CONF=${CONTAINERS_CONF:-$root/testing/containers.conf}
node_version=$(sed -n 's/^ *"node": "\([0-9][0-9.]*\)",\{0,1\}$/\1/p' "$root/package.json")
base=localhost/chat-site-node:$node_version-bookworm-slim

build() {
  local tag=$1
  podman image exists "$base" || bash "$root/scripts/container-base.sh" "$base" >&2
  podman build --format docker --isolation chroot --network host --build-arg "NODE_IMAGE=$base" -t "$tag" "$root" >&2
}

run() {
  local tag=$1 port=$2
  exec podman --runtime runc run --rm --network host --name "chat-site-check-$port" \
    -e HOST=127.0.0.1 -e PORT="$port" -e ADMIN_TOKEN="${ADMIN_TOKEN:-}" -e DEMO_CONTENT="${DEMO_CONTENT:-}" \
    "$tag"
}

case "${1:-}" in
  build) build "${2:?usage: container-check.sh build TAG}" ;;
  run) run "${2:?usage: container-check.sh run TAG PORT}" "${3:?port}" ;;
  *) echo "usage: container-check.sh build TAG | run TAG PORT" >&2; exit 2 ;;
esac
