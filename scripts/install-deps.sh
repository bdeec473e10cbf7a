#!/usr/bin/env bash
# Installs the C libraries CityPack links (libxml2, zlib, SQLite) and pkg-config, if they are missing.
# EXTRA_PACKAGES="a b" adds more Debian packages (CI adds the tools its tests use).
set -euo pipefail
packages=(libxml2-dev zlib1g-dev libsqlite3-dev pkg-config ${EXTRA_PACKAGES:-})
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
