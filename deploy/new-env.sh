#!/bin/sh
# Writes the settings file of compose.yaml (docs/deploy.md#compose): .env.example with every
# change-me value replaced by a random one of its own (40 hex digits), readable by its owner only.
#
#   sh deploy/new-env.sh            writes deploy/.env, where compose reads it
#   sh deploy/new-env.sh FILE       writes FILE instead
#
# Never replaces a file that exists: new secrets for a running deployment would lock the sites
# out of their database and bucket.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
target=${1:-$dir/.env}
if [ -e "$target" ]; then
  echo "$target exists; nothing written" >&2
  exit 1
fi
umask 077
awk -F= '
  /^[A-Z0-9_]+=change-me/ {
    command = "openssl rand -hex 20"
    if ((command | getline secret) <= 0) exit 1
    close(command)
    print $1 "=" secret
    next
  }
  { print }
' "$dir/.env.example" >"$target" || { rm -f "$target"; echo "openssl rand failed" >&2; exit 1; }
echo "wrote $target: fill in PUBLIC_URL, and METRICS_TOKEN to turn /metrics on" >&2
