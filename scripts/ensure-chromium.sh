#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it (with CJK fonts, so screenshots show
# the Chinese text) when it is missing. Playwright's own browser download cannot work offline.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is missing and this is not root: run 'apt-get install -y chromium fonts-noto-cjk' first" >&2
  exit 1
fi
echo "Installing Debian's chromium…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium fonts-noto-cjk >&2
