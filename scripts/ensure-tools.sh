#!/usr/bin/env bash
# The tools the tests check the deployment files and the metrics with, installed from Debian when
# missing (as root): nginx, curl and wrk (scripts/ensure-nginx.sh), promtool (package prometheus:
# `promtool check metrics` on a real scrape, docs/monitoring.md#metrics), docker-compose
# (`docker-compose config` on deploy/compose.yaml, docs/deploy.md#compose) and unshare
# (util-linux: `nginx -t` on deploy/nginx.conf with its upstream names in a private /etc/hosts),
# minisign (real keys and signatures in the Tauri updater's format, testing/minisign.ts), podman,
# runc and debootstrap (the container image built and run, docs/deploy.md#container-image).
set -euo pipefail
bash "$(dirname "$0")/ensure-nginx.sh"
missing=()
command -v promtool >/dev/null || missing+=(prometheus)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v unshare >/dev/null || missing+=(util-linux)
command -v minisign >/dev/null || missing+=(minisign)
# podman with its recommends (conmon's helpers, the overlay and network plugins).
containers=()
command -v podman >/dev/null || containers+=(podman)
command -v runc >/dev/null || containers+=(runc)
command -v debootstrap >/dev/null || containers+=(debootstrap)
. "$(dirname "$0")/install-from-debian.sh"
# Without recommends: promtool is all the tests use of prometheus (no node exporter, no service).
install_from_debian --no-install-recommends "${missing[@]}"
install_from_debian "${containers[@]}"
