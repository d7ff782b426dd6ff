#!/usr/bin/env bash
# `npm run bench:files` compares the server with Debian's nginx serving the same file, fetched by
# curl; install whichever is missing (nginx-light: the smallest Debian nginx, sendfile included).
set -euo pipefail
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]} and this is not root: run 'apt-get install -y ${missing[*]}' first" >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]}…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >&2
