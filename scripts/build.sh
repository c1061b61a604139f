#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Configures and builds the Release tree the quick-start commands use (build/release).
# Environment: WANDSCOPE_WERROR=ON (CI) turns warnings into errors; BUILD_DIR overrides the tree;
# JOBS the parallelism; WANDSCOPE_CMAKE_ARGS extra configure arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build/release}
jobs=${JOBS:-$(nproc)}
mkdir -p "$build_dir"
log="$build_dir/build.log"
# shellcheck disable=SC2086
if ! cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DWANDSCOPE_WERROR="${WANDSCOPE_WERROR:-OFF}" ${WANDSCOPE_CMAKE_ARGS:-} >"$log" 2>&1; then
  cat "$log" >&2
  echo "build.sh: configuring failed (log: $log)" >&2
  exit 1
fi
echo "build.sh: building $build_dir with $jobs jobs (log: $log)" >&2
set +e
cmake --build "$build_dir" -j "$jobs" >>"$log" 2>&1
rc=$?
set -e
grep -E "(warning|error):" "$log" | sort -u | head -40 >&2 || true
if [[ $rc -ne 0 ]]; then
  tail -40 "$log" >&2
  echo "build.sh: build failed (log: $log)" >&2
  exit $rc
fi
