#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start, step 1: install what is missing, build Release, prepare the embedded default
# (a generated corpus, its query sets and index, cached under $XDG_CACHE_HOME/wandscope) and run
# the main job. With a display (DISPLAY or WAYLAND_DISPLAY) that is the workbench; without one,
# or with WANDSCOPE_HEADLESS=1, it is headless: every default query set against the default index
# with a results summary, then the default benchmark profile (benchprofiles/smoke.json), whose
# report lands in build/release/reports/smoke/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
bin=build/release/bin
if [[ -z ${WANDSCOPE_HEADLESS:-} && ( -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ) && -x $bin/wandscope ]]; then
  exec "$bin/wandscope" "$@"
fi
"$bin/wandscope-cli" default "$@"
exec "$bin/wandscope-cli" bench --profile benchprofiles/smoke.json --out build/release/reports/smoke
