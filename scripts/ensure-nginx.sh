#!/usr/bin/env bash
# `npm run bench:files` and `npm run bench:api` compare the server with Debian's nginx serving the
# same bytes, fetched by curl or loaded by wrk; install whichever is missing (nginx-light: the
# smallest Debian nginx, sendfile included).
set -euo pipefail
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
command -v wrk >/dev/null || missing+=(wrk)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]} and this is not root: run 'apt-get install -y ${missing[*]}' first" >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]}…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >&2
