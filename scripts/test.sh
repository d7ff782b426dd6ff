#!/usr/bin/env bash
# The whole test suite, as `npm test` and CI run it: build, types, lint, the unit tests, the
# first-load budget; then side by side the browser tests in Debian's Chromium against the real
# server, every server test three times (SQLite on Node.js 24 and 22, a throwaway PostgreSQL
# cluster set up here) with the file tests again on an S3 store, and the deployment tests; then the
# Lighthouse audit, alone. The run ends with the time each step took.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
# Each step's name and start, for the table of times the run ends with (where the time goes).
step_names=()
step_starts=()
step() {
  step_names+=("$*")
  step_starts+=($((SECONDS - started)))
  printf '\n=== %s (at %d s)\n' "$*" $((SECONDS - started))
}
step_times() {
  local i end
  printf '\n=== time per step (s)\n'
  for i in "${!step_names[@]}"; do
    end=${step_starts[$((i + 1))]:-$((SECONDS - started))}
    printf '%6d  %s\n' $((end - step_starts[i])) "${step_names[i]}"
  done
  if [ -s "$part_times" ]; then
    printf '\n=== of which, the parts timed within a step (s)\n'
    cat "$part_times"
  fi
  rm -f "$part_times"
  if [ -s "$failures" ]; then
    printf '\n=== what failed (the whole output of each part is above)\n'
    cat "$failures"
  fi
  rm -f "$failures"
}
# Runs a command as a part of a step, printing and noting how long it took, for the table above.
part_times=$(mktemp /tmp/chat-site-times.XXXXXX)
# The failed parts and their failed tests, repeated at the very end: CI may show only the last
# lines of a run this long.
failures=$(mktemp /tmp/chat-site-failures.XXXXXX)
# A failed part's tests as its spec reporter sums them up after `✖ failing tests:`: where each
# is, its name, and the first lines of its error, up to the stack; the timeouts `within` prints
# (!!!) too; a part that is not a test run, its last lines. A todo that fails is left out:
# Node.js 22 lists it there too, its reason after `) # `.
failed_tests() {
  awk '
    /^!!! / { print; next }
    /failing tests:$/ { listing = 1; next }
    /^(--- |▶ |ℹ )/ { listing = 0 }
    !listing { next }
    /^test at / { where = $0; next }
    /✖/ { todo = index($0, ") # ") > 0; if (!todo) { print where; print; keep = 6 } next }
    todo || keep <= 0 || /^ +at / || /^ *$/ { if (/^ +at /) keep = 0; next }
    { print; keep-- }
  ' "$1" >"$1.failed"
  if [ -s "$1.failed" ]; then head -n 60 "$1.failed"; else tail -n 15 "$1"; fi
}
timed() {
  local name=$1 part_started=$SECONDS status=0
  shift
  printf '\n--- %s\n' "$name"
  "$@" || status=$?
  printf -- '--- %s: %d s\n' "$name" $((SECONDS - part_started))
  printf '%6d  %s\n' $((SECONDS - part_started)) "$name" >>"$part_times"
  return "$status"
}

# Node.js keeps the code it compiles here, so that the thousand-odd Node.js processes of the run
# (test files, servers, the admin command) compile Playwright, tsx and the server once each, not
# each time (docs/testing.md#the-whole-suite).
NODE_COMPILE_CACHE=$(mktemp -d /tmp/chat-site-compile-cache.XXXXXX)
export NODE_COMPILE_CACHE

# However the run ends: stop the PostgreSQL cluster, then fail the run if any process that a test
# started is still running, naming it (docs/testing.md#how-tests-start-and-stop-processes).
pg_dir=""
finish() {
  local status=$?
  [ -z "$pg_dir" ] || bash scripts/pg-cluster.sh stop "$pg_dir"
  rm -rf "$NODE_COMPILE_CACHE"
  step "no process started by the tests is left"
  node --import tsx testing/leftover-processes.ts $$ || status=1
  step_times
  [ "$status" -ne 0 ] || step "all passed"
  exit "$status"
}
trap finish EXIT

# Runs one part under a time limit. A part that hangs (a test that leaves a process behind, a
# browser that never answers) then fails CI with its name instead of using up CI's whole time.
# `timeout` signals the part's whole process group, so servers and browsers it started go too.
within() {
  local limit=$1
  shift
  local status=0
  timeout --kill-after=30s "$limit" "$@" || status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    printf '\n!!! "%s" did not finish within %s\n' "$*" "$limit" >&2
  fi
  return "$status"
}

# Runs parts side by side: each argument pair is a name and a command (run by bash, with this
# script's functions). Each part's output goes to a file of its own, printed whole as the part
# ends, so that parts do not interleave; fails when any part failed, after all have ended.
side_by_side() {
  local dir names=() pids=() i status=0 part
  dir=$(mktemp -d /tmp/chat-site-parts.XXXXXX)
  while [ "$#" -gt 0 ]; do
    names+=("$1")
    i=${#pids[@]}
    (set +e; eval "$2" >"$dir/$i.log" 2>&1; echo $? >"$dir/$i.status") &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    wait "${pids[i]}" || true
    part=$(cat "$dir/$i.status" 2>/dev/null || echo 1)
    printf '\n--- %s: %s (at %d s)\n' "${names[i]}" "$([ "$part" -eq 0 ] && echo passed || echo "FAILED ($part)")" $((SECONDS - started))
    cat "$dir/$i.log"
    if [ "$part" -ne 0 ]; then
      status=1
      { printf -- '--- %s: FAILED (%s)\n' "${names[i]}" "$part"
        failed_tests "$dir/$i.log"
      } >>"$failures"
    fi
  done
  rm -rf "$dir"
  return "$status"
}

step "build"
within 10m npm run --silent build
step "typecheck, lint and the unit tests, side by side"
# The unit tests take a fraction of a core beside the other two; the tools the later steps check
# with come after them: nginx, promtool, minisign, podman and the rest, and Chromium, installed
# when missing (scripts/ensure-tools.sh, ensure-chromium.sh), mostly a wait on Debian's mirror on
# a fresh machine.
side_by_side \
  "typecheck" "within 10m npm run --silent typecheck" \
  "lint" "within 10m npm run --silent lint" \
  "contract, web and console unit tests, then the tools the tests check with" \
  "within 5m npm run --silent test:contract && within 5m npm run --silent test:web &&
   within 5m npm run --silent test:console && within 5m bash scripts/ensure-tools.sh &&
   within 15m bash scripts/ensure-chromium.sh"

step "first-load budget of the landing page"
within 5m npm run --silent budget

# The server's tests, one run after another, each printing the time it took. Every server test runs
# three times: on SQLite with the Node.js 24 that package.json pins and with Node.js 22, the oldest
# supported (fetched from the npm registry the same way: docs/deploy.md#nodejs), then on the
# throwaway PostgreSQL cluster started below. Each run loads every file into one process
# (--test-isolation=none; Node.js 22 names the flag as experimental). Then the file and backup
# tests again on an S3 store (an s3rver each run starts on a port of its own), on SQLite and on
# PostgreSQL; the rest of the server does not touch the storage. Every run goes on after one
# fails, so one failure does not hide another.
server_runs() {
  local status=0 node22
  node22=$(npm exec --yes --package=node@22.23.3 -- sh -c 'command -v node')
  timed "server tests on Node.js 24 on SQLite" within 20m npm run --silent test:server || status=1
  timed "server tests on Node.js 22 on SQLite" within 20m "$node22" --conditions=source --import tsx \
    --import ./testing/no-leaks.ts --import ./testing/property-seed.ts --test --experimental-test-isolation=none \
    --test-reporter=spec server/test/*.test.ts || status=1
  TEST_POSTGRES_URL=$pg_url timed "server tests on PostgreSQL" within 20m npm run --silent test:server || status=1
  TEST_STORAGE=s3 timed "file tests on S3, on SQLite" within 5m npm run --silent test:files || status=1
  TEST_STORAGE=s3 TEST_POSTGRES_URL=$pg_url timed "file tests on S3, on PostgreSQL" within 5m npm run --silent test:files || status=1
  return "$status"
}

step "browser tests, server tests and deployment tests, side by side"
# Three parts at once (docs/testing.md#the-whole-suite): the browser tests, one file at a time;
# the server's runs above, one after another; the deployment tests: the Dockerfile built with
# podman on a local base and run (scripts/container-check.sh), mostly a wait on Debian's mirror and
# the npm registry the first time on a machine; its steps without a container
# (scripts/deploy-check.sh); deploy/nginx.conf in front of two servers on this PostgreSQL cluster
# (docs/scaling.md#several-servers-on-one-postgresql); deploy/compose.yaml and nginx.conf through
# their own tools (docs/deploy.md#compose).
pg_dir=$(mktemp -d /tmp/chat-site-pg.XXXXXX)
pg_url=$(bash scripts/pg-cluster.sh start "$pg_dir" "$(node --import tsx testing/free-port.ts)")
side_by_side \
  "browser tests in Chromium" 'timed "browser tests in Chromium" within 45m npm run --silent test:e2e' \
  "server tests on SQLite (Node.js 24 and 22) and PostgreSQL, file tests on S3" "server_runs" \
  "deployment tests: the container image, the production install, two servers behind nginx, deploy/ files" \
  'TEST_POSTGRES_URL=$pg_url timed "deployment tests" within 30m npm run --silent test:deploy'

step "Lighthouse audit (fails under 95 in any category)"
# The median of three runs each, of which the third is made only when the first two disagree
# (docs/performance.md#the-lighthouse-audit). Once the mobile preset's CPU slowdown is calibrated
# on this machine with a blank page (docs/performance.md#cpu-calibration), a run scores 99-100 and
# the median of three stays far from the gate; five runs made CI three minutes longer for nothing.
within 15m npm run --silent audit
