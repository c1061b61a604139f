#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# build-engine-at.sh REV OUTDIR: builds the engine plugin (docs/PLUGIN_ABI.md) of any git revision
# in a temporary worktree, with the release configuration (the `release` preset / scripts/build.sh:
# CMAKE_BUILD_TYPE=Release, the project's own per-target flags, no -march=native), and puts
# OUTDIR/libwandscope_engine_plugin.so and OUTDIR/BUILD_INFO there. The worktree and its build tree
# are removed afterwards, whatever happens. Then, e.g.:
#   scripts/build-engine-at.sh main /tmp/main-engine
#   wandscope-cli compare --profile P --target plugin:/tmp/main-engine/libwandscope_engine_plugin.so \
#     --target builtin --out /tmp/cmp
# Exit codes: 0 built; 2 usage or unknown revision; 3 the revision predates the plugin ABI;
# 1 the build failed (its log tail is printed).
# Environment: JOBS (default 2), WANDSCOPE_CMAKE_ARGS (extra configure arguments, recorded).
set -euo pipefail

usage() { echo "usage: $0 REV OUTDIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
rev=$1
out=$2
repo=$(cd "$(dirname "$0")/.." && git rev-parse --show-toplevel)
cd "$repo"

if ! sha=$(git rev-parse --verify --quiet "${rev}^{commit}"); then
  echo "build-engine-at.sh: '$rev' is not a commit in $repo" >&2
  exit 2
fi
short=$(git rev-parse --short=12 "$sha")
abi_header=engine/api/wandscope_engine_api.h
if ! git cat-file -e "$sha:$abi_header" 2>/dev/null; then
  first=$(git log --diff-filter=A --format=%h --reverse -- "$abi_header" | head -1 || true)
  echo "build-engine-at.sh: revision $rev ($short) predates the engine plugin ABI: it has no $abi_header," >&2
  echo "  so it cannot be built as a plugin.${first:+ The ABI first appears in $first.}" >&2
  exit 3
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wandscope-engine-at.XXXXXX")
cleanup() {
  git -C "$repo" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

git worktree add --detach --quiet "$tmp/src" "$sha"
jobs=${JOBS:-2}
# The release configuration; tests, benchmarks and the Qt app are not needed for the plugin.
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DWANDSCOPE_BUILD_APP=OFF -DWANDSCOPE_BUILD_TESTS=OFF
  -DWANDSCOPE_BUILD_BENCH=OFF)
# shellcheck disable=SC2206
extra=(${WANDSCOPE_CMAKE_ARGS:-})
log="$tmp/build.log"
echo "build-engine-at.sh: building the engine plugin at $rev ($short) with $jobs jobs" >&2
if ! cmake -S "$tmp/src" -B "$tmp/build" "${cmake_args[@]}" "${extra[@]}" >"$log" 2>&1 ||
   ! cmake --build "$tmp/build" -j "$jobs" --target wandscope_engine_plugin >>"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "build-engine-at.sh: building $rev ($short) failed" >&2
  exit 1
fi
plugin=$(find "$tmp/build" -name 'libwandscope_engine_plugin.so' -print -quit)
if [[ -z $plugin ]]; then
  echo "build-engine-at.sh: the build of $short produced no libwandscope_engine_plugin.so" >&2
  exit 1
fi
mkdir -p "$out"
cp "$plugin" "$out/libwandscope_engine_plugin.so.tmp"
mv "$out/libwandscope_engine_plugin.so.tmp" "$out/libwandscope_engine_plugin.so"
{
  echo "revision: $rev"
  echo "commit: $sha"
  echo "subject: $(git log -1 --format=%s "$sha")"
  echo "built_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "compiler: $(${CXX:-c++} --version | head -1)"
  echo "cmake_args: ${cmake_args[*]} ${extra[*]:-}"
} >"$out/BUILD_INFO"
echo "$out/libwandscope_engine_plugin.so"
