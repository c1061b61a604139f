#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start, step 2: install what is missing, build Release and run the whole test suite
# (ctest). CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cd build/release
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
ctest --output-on-failure -j "$(nproc)" --timeout 900 "$@"
