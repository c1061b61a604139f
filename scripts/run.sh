#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start, step 1: install what is missing, build Release, prepare the embedded default
# (a generated corpus, its query sets and index, cached under $XDG_CACHE_HOME/wandscope) and run
# the main job: every default query set against the default index, with a results summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
exec build/release/bin/wandscope-cli default "$@"
