#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `pg-cluster.sh start DIR PORT` installs Debian's
# postgresql when it is missing, creates a cluster in DIR, starts it on 127.0.0.1:PORT with
# trust authentication and prints its URL; `pg-cluster.sh stop DIR` stops it and removes DIR.
set -euo pipefail

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  return 1
}

. "$(dirname "$0")/install-from-debian.sh"

# PostgreSQL refuses to run as root: as root the cluster belongs to the postgres user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd=${1:?usage: pg-cluster.sh start DIR PORT | stop DIR}
dir=${2:?cluster directory}
case "$cmd" in
  start)
    port=${3:?port}
    bin=$(find_bin || { install_from_debian postgresql; find_bin; })
    rm -rf "$dir" && mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin=$(find_bin) || exit 0
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: pg-cluster.sh start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
