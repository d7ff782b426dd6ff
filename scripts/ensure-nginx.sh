#!/usr/bin/env bash
# `npm run bench:files` and `npm run bench:api` compare the server with Debian's nginx serving the
# same bytes, fetched by curl or loaded by wrk; install whichever is missing (nginx-light: the
# smallest Debian nginx, sendfile included).
set -euo pipefail
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
command -v wrk >/dev/null || missing+=(wrk)
. "$(dirname "$0")/install-from-debian.sh"
install_from_debian "${missing[@]}"
