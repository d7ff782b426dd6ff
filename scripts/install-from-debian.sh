#!/usr/bin/env bash
# Sourced by the scripts that install a tool from Debian when it is missing (ensure-nginx.sh,
# ensure-tools.sh, ensure-chromium.sh, pg-cluster.sh): one way to install, one message when the
# machine is not ours to change.
#
#   install_from_debian [--no-install-recommends] PACKAGE...
#
# Installs the packages as root (package lists updated once per script run); without root it
# names the command to run and fails. With no package it does nothing.
install_from_debian() {
  local options=()
  if [ "${1:-}" = --no-install-recommends ]; then
    options=(--no-install-recommends)
    shift
  fi
  [ $# -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing $* and this is not root: run 'apt-get install -y $*' first" >&2
    exit 1
  fi
  echo "Installing Debian's $*…" >&2
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${debian_lists_updated:-}" ]; then
    apt-get update -qq >&2
    debian_lists_updated=1
  fi
  apt-get install -y -qq "${options[@]}" "$@" >&2
}
