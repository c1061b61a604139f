#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs exactly the Debian packages Wandscope needs that are missing. Idempotent and silent when
# everything is present. Uses apt-get directly as root, sudo otherwise.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config git clang
  # engine
  libhwy-dev zlib1g-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev libstemmer-dev
  libsqlite3-dev libxapian-dev
  # tests and microbenchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # the workbench (Qt 6 + QCustomPlot), its platform plugins, a font, and a headless X server
  qt6-base-dev qt6-svg-dev qt6-qpa-plugins libqcustomplot-dev fonts-dejavu-core xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}" >&2
if [[ $(id -u) -eq 0 ]]; then
  apt=(apt-get)
elif command -v sudo >/dev/null 2>&1; then
  apt=(sudo apt-get)
else
  echo "install-deps: not root and no sudo; install these packages first: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt[@]}" update -qq
"${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
