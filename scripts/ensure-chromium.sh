#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it, with CJK fonts so that screenshots show
# the Chinese text and the audit lays out what a visitor's phone lays out, when either is
# missing. A machine that already has Chromium (installed by hand, say) still needs the fonts.
# Playwright's own browser download cannot work offline.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]} and this is not root: run 'apt-get install -y ${missing[*]}' first" >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]}…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq "${missing[@]}" >&2
