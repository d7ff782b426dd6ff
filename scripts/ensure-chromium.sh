#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it, with CJK fonts so that screenshots show
# the Chinese text and the audit lays out what a visitor's phone lays out, when either is
# missing. A machine that already has Chromium (installed by hand, say) still needs the fonts.
# Playwright's own browser download cannot work offline.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
. "$(dirname "$0")/install-from-debian.sh"
install_from_debian "${missing[@]}"
