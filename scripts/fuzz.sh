#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets (clang, ASan + UBSan, build/fuzz) and fuzzes each for FUZZ_SECONDS
# (default 60), starting from its checked-in seeds in tests/fuzz/corpus/<target>/. New coverage
# goes to build/fuzz/corpus/<target>/ (not the repository); a crash leaves its input in
# build/fuzz/artifacts/<target>/ and fails the script: fix the bug, then check the input in as
# tests/fuzz/corpus/<target>/crash-<what> so fuzz.replay.<target> replays it in every ctest run.
# Prints executions per target (the figures docs/RELIABILITY.md records).
# Usage: scripts/fuzz.sh [target...] (default: all). Environment: FUZZ_SECONDS, JOBS (build
# parallelism and fuzz runs at a time, default 1), FUZZ_BUILD_DIR (default build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
jobs=${JOBS:-1}
build=${FUZZ_BUILD_DIR:-build/fuzz}

all_targets=(corpus_jsonl corpus_tsv corpus_gzip analyzer query_parser index_segment index_manifest
             bench_profile run_codec eval_files)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ is required (libFuzzer)" >&2
  exit 1
fi
mkdir -p "$build"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWANDSCOPE_BUILD_APP=OFF -DWANDSCOPE_BUILD_BENCH=OFF -DWANDSCOPE_FUZZ=ON >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" >"$build/build.log" 2>&1 ||
  { tail -40 "$build/build.log" >&2; echo "fuzz.sh: build failed (log: $build/build.log)" >&2; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# run_one TARGET: one libFuzzer run; its summary line goes to $build/fuzz-TARGET.line, its exit
# status is the run's.
run_one() {
  local t=$1 work="$build/corpus/$1" artifacts="$build/artifacts/$1" log="$build/fuzz-$1.log" rc
  mkdir -p "$work" "$artifacts"
  rm -f "$build/fuzz-$t.line"
  # -rss_limit_mb and -timeout turn memory blow-ups and hangs into findings too.
  set +e
  "$build/bin/fuzz_$t" "$work" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  set -e
  # (A crash while loading the seeds prints no coverage line: tolerated, so the summary line is
  # still written rather than an earlier run's left in place.)
  local runs cov corpus
  runs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -1 || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}' || true)
  corpus=$(find "$work" -type f | wc -l)
  printf '%-16s %10s execs in %ss  cov %6s  corpus %5s  %s\n' "$t" "${runs:-?}" "$seconds" "${cov:-?}" \
    "$corpus" "$([[ $rc -eq 0 ]] && echo ok || echo "FAILED (rc $rc, log $log)")" >"$build/fuzz-$t.line"
  if [[ $rc -ne 0 ]]; then
    # The target's own message (with the line after it), libFuzzer's verdict, and the input itself:
    # CI keeps only this output, so the finding must be reproducible from it.
    grep -E -A1 'ERROR|SUMMARY|fuzz:' "$log" | cut -c1-2000 | head -20 >&2 || true
    local unit
    unit=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -1 | awk '{print $5}' || true)
    if [[ -n $unit && -f $unit ]]; then
      echo "input $unit ($(stat -c %s "$unit") bytes; first 16 KiB as base64, decode with base64 -d):" >&2
      head -c 16384 "$unit" | base64 -w 0 >&2
      echo >&2
    fi
  fi
  return $rc
}

# Targets run $jobs at a time (each libFuzzer process is single-threaded), so JOBS=2 on a 2-core
# runner gives every target its full time in half the wall time.
status=0
running=0
for t in "${targets[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
while [[ $running -gt 0 ]]; do
  wait -n || status=1
  running=$((running - 1))
done
summary=()
for t in "${targets[@]}"; do
  line=$(cat "$build/fuzz-$t.line" 2>/dev/null || echo "$t: no result")
  echo "$line"
  summary+=("$line")
done
echo "fuzz.sh summary (${seconds}s per target):"
printf '  %s\n' "${summary[@]}"
exit $status
