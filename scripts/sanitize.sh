#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and runs the test suites under sanitizers, in their own trees (no Qt needed):
#   asan  build/asan  g++ Debug, -fsanitize=address,undefined: every engine_tests and cli_tests test
#                     and the fuzz corpus replay (fuzz.replay.*)
#   tsan  build/tsan  clang Debug, -fsanitize=thread: the threaded parts (loadgen drivers, bench
#                     runner, run store) of engine_tests
# Usage: scripts/sanitize.sh [asan|tsan|all] (default all). Environment: JOBS build parallelism
# (default 1: the machine is shared), TEST_JOBS ctest parallelism (default 2).
# Findings are fixed, not suppressed: no suppression files exist and -fno-sanitize-recover=all
# makes the first report fail the test.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=${JOBS:-1}
test_jobs=${TEST_JOBS:-2}
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DWANDSCOPE_BUILD_APP=OFF -DWANDSCOPE_BUILD_BENCH=OFF)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

run_asan() {
  cmake -S . -B build/asan "${common[@]}" -DWANDSCOPE_SANITIZE=address,undefined >/dev/null
  cmake --build build/asan -j "$jobs" --target engine_tests cli_tests wandscope-cli fuzz_replay
  (cd build/asan && ctest --output-on-failure -j "$test_jobs" --timeout 1800 -L 'engine|cli|fuzz')
}

run_tsan() {
  cmake -S . -B build/tsan "${common[@]}" -DWANDSCOPE_SANITIZE=thread \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  cmake --build build/tsan -j "$jobs" --target engine_tests
  # The instrument (loadgen drivers, bench runner, histograms) and the run store own the threads.
  (cd build/tsan && ctest --output-on-failure -j "$test_jobs" --timeout 1800 -L engine \
    -R '^(ArrivalSchedule|BenchProfile|BenchRunner|BuiltinTarget|ClosedLoopDriver|HistogramRecorder|LatencyHistogram|OpenLoopDriver|Quantile|ReportWriter|RequestLogWriter|RunCodec|RunStore|RunStoreCrash|RunStoreListing|RungSummary|SaturationRule|SchemaMigrations|SyntheticTarget|TargetSpec|Workload)\.')
}

case "$what" in
  asan) run_asan ;;
  tsan) run_tsan ;;
  all) run_asan; run_tsan ;;
  *) echo "usage: $0 [asan|tsan|all]" >&2; exit 2 ;;
esac
