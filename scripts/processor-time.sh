#!/usr/bin/env bash
# Runs a command and prints how long it took and how much processor time the whole machine spent
# meanwhile (user and system, from /proc/stat), on standard error after the command's own output.
# On a quiet machine that is the command's cost with every process it started, including the
# ones it does not wait for (Chromium's renderers): docs/testing.md#the-whole-suite.
#   E2E_FILES=e2e/site.test.ts bash scripts/processor-time.sh npm run test:e2e
set -uo pipefail
[ "$#" -gt 0 ] || { echo "usage: processor-time.sh COMMAND [ARGS...]" >&2; exit 2; }

# Jiffies spent busy so far: user, nice, system, irq and softirq (not idle or I/O wait).
busy() {
  local _ user nice system idle iowait irq softirq _rest
  read -r _ user nice system idle iowait irq softirq _rest </proc/stat
  echo $((user + nice + system + irq + softirq)) $((system))
}

hz=$(getconf CLK_TCK)
read -r busy0 system0 < <(busy)
start=$(date +%s%N)
"$@"
status=$?
end=$(date +%s%N)
read -r busy1 system1 < <(busy)
awk -v ms=$(((end - start) / 1000000)) -v busy=$((busy1 - busy0)) -v sys=$((system1 - system0)) -v hz="$hz" \
  'BEGIN { printf "\n%.1f s elapsed, %.1f s of processor time (%.1f s system), %.2f cores on average\n", ms / 1000, busy / hz, sys / hz, busy / hz / (ms / 1000) }' >&2
exit "$status"
