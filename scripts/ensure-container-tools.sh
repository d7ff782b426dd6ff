#!/usr/bin/env bash
# The container image test (e2e/deploy/container.test.ts) builds the Dockerfile with podman on a
# Debian base made by debootstrap (scripts/container-base.sh); install whichever is missing.
set -euo pipefail
missing=()
command -v podman >/dev/null || missing+=(podman)
command -v runc >/dev/null || missing+=(runc)
command -v debootstrap >/dev/null || missing+=(debootstrap)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]} and this is not root: run 'apt-get install -y ${missing[*]}' first" >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]}…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >&2
