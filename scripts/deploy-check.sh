#!/usr/bin/env bash
# The container image's steps without a container (scripts/container-check.sh builds the image), for
# the deployment tests (e2e/deploy/) and for anyone checking a deployment by hand
# (docs/deploy.md). After `npm run build`:
#
#   deploy-check.sh stage DIR     copies what the Dockerfile's runtime stage copies into DIR and
#                                 runs its `npm ci --omit=dev` there: no build tools, no sources
#   deploy-check.sh start DIR     runs the server from DIR as the image does: NODE_ENV=production,
#                                 `node server/dist/server.js`, as nobody when run as root (the
#                                 image's non-root user); the other settings come from the
#                                 environment, as with `docker run -e`
#   deploy-check.sh shipped       prints those paths, one a line
#   deploy-check.sh nginx DIR LISTEN UPSTREAM...
#                                 runs Debian's nginx in the foreground with deploy/nginx.conf,
#                                 its own pid, logs and temporary files in DIR, listening on
#                                 LISTEN (host:port) in front of the UPSTREAM servers (host:port)
#                                 instead of compose.yaml's site-a:8080 and site-b:8080; with
#                                 FILES_DIR set, /internal-files/ is that directory, read by
#                                 workers running as its owner
#                                 (docs/storage.md#nginx-sends-the-files); with S3_UPSTREAM
#                                 (host:port), /internal-s3/ fetches from that S3 endpoint
#                                 instead of compose.yaml's minio:9000, which is no name here
#                                 (docs/storage.md#with-s3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# What a deployment ships, read from the Dockerfile itself (one list, not two): the package files
# the runtime-packages stage copies, and what the image copies from the build stage.
dockerfile="$root/Dockerfile"
mapfile -t shipped < <(awk '
  /^FROM .* AS runtime-packages/ { stage = "packages"; next }
  /^FROM / { stage = (stage == "packages" ? "image" : "") }
  stage == "packages" && /^COPY / && !/--from/ { for (i = 2; i < NF; i++) print $i }
  stage == "image" && /^COPY --from=build / { for (i = 3; i < NF; i++) { sub(/^\/src\//, "", $i); print $i } }
' "$dockerfile")
# The runtime-packages stage's npm ci, as the Dockerfile writes it.
npm_ci=$(sed -n 's/^RUN \(npm ci --omit=dev[^&]*\).*/\1/p' "$dockerfile")

stage() {
  local dir=$1
  [ ${#shipped[@]} -gt 0 ] && [ -n "$npm_ci" ] || { echo "could not read the Dockerfile's runtime stage" >&2; exit 1; }
  for path in "${shipped[@]}"; do
    [ -e "$root/$path" ] || { echo "$path is missing: run npm run build first" >&2; exit 1; }
    mkdir -p "$dir/$(dirname "$path")"
    cp -R "$root/$path" "$dir/$path"
  done
  # The image's npm ci; --prefer-offline takes what npm's cache already holds.
  (cd "$dir" && $npm_ci --prefer-offline --loglevel=error >&2)
  # The one place the server writes to (the default SQLite file and file store), as in the image.
  mkdir -p "$dir/data"
  if [ "$(id -u)" -eq 0 ]; then
    chown nobody: "$dir/data"
    chmod 755 "$dir"
  fi
}

start() {
  cd "$1"
  export NODE_ENV=production
  if [ "$(id -u)" -eq 0 ]; then
    local as_nobody=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    local node
    node=$(readlink -f "$(command -v node)")
    # The checkout's own Node.js (package.json pins it) may sit where nobody cannot reach it: a
    # clone under /root, or in a directory mktemp made. The install then gets a link to it, as
    # an image has its own.
    if ! "${as_nobody[@]}" test -x "$node"; then
      mkdir -p runtime
      ln -f "$node" runtime/node 2>/dev/null || cp "$node" runtime/node
      node=$PWD/runtime/node
    fi
    # exec, not a child: the signals a service manager sends reach the server itself.
    exec "${as_nobody[@]}" "$node" server/dist/server.js
  fi
  exec node server/dist/server.js
}

run_nginx() {
  local dir=$1 listen=$2
  shift 2
  [ $# -ge 1 ] || { echo "usage: deploy-check.sh nginx DIR LISTEN UPSTREAM..." >&2; exit 2; }
  bash "$root/scripts/ensure-nginx.sh"
  mkdir -p "$dir"
  chmod 755 "$dir"
  local servers="" upstream
  for upstream in "$@"; do servers+="    server $upstream max_fails=1 fail_timeout=5s;\n"; done
  # deploy/nginx.conf with its addresses (and the file store's directory) replaced, nothing else.
  # Without S3_UPSTREAM the S3 location goes unused, but nginx still resolves its address at start.
  local s3=${S3_UPSTREAM:-127.0.0.1:9}
  awk -v listen="$listen" -v servers="$servers" -v files="${FILES_DIR:-}" -v s3="$s3" '
    /^    server site-a:8080 / { printf "%s", servers; next }
    /^    server minio:9000;$/ { print "    server " s3 ";"; next }
    /^        proxy_set_header Host minio:9000;$/ { print "        proxy_set_header Host " s3 ";"; next }
    /^        alias \/srv\/chat-site\/files\/;$/ && files != "" { print "        alias " files "/;"; next }
    /^    server site-b:8080 / { next }
    /^    listen 80;$/ { print "    listen " listen ";"; next }
    { print }
  ' "$root/deploy/nginx.conf" >"$dir/site.conf"
  # The file store is the server's user's alone (0700, 0600): nginx's workers read it as that user.
  local user=""
  if [ -n "${FILES_DIR:-}" ] && [ "$(id -u)" -eq 0 ]; then user="user $(stat -c %U "$FILES_DIR") $(stat -c %G "$FILES_DIR");"; fi
  # What the nginx image's own nginx.conf holds around conf.d, with this instance's paths.
  cat >"$dir/nginx.conf" <<EOF
daemon off;
$user
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    access_log $dir/access.log;
    sendfile on;
    keepalive_timeout 65;
    include $dir/site.conf;
}
EOF
  exec /usr/sbin/nginx -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf"
}

cmd=${1:-}
case "$cmd" in
  stage) stage "${2:?usage: deploy-check.sh stage DIR}" ;;
  start) start "${2:?usage: deploy-check.sh start DIR}" ;;
  shipped) printf '%s\n' "${shipped[@]}" ;;
  nginx) shift; run_nginx "$@" ;;
  *) echo "usage: deploy-check.sh stage DIR | start DIR | shipped | nginx DIR LISTEN UPSTREAM..." >&2; exit 2 ;;
esac
