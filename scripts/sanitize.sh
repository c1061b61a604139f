#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and runs the test suites under sanitizers, each in its own tree (docs/RELIABILITY.md,
# "Sanitizers"):
#   asan  build/asan  g++, -O1 -g1, -fsanitize=address,undefined: the WHOLE ctest suite (every
#                     label: engine, simd, cli, app, widgets, plugin, peers, teaching, fuzz
#                     replay, unit), GUI tests offscreen. Qt itself is not instrumented.
#   tsan  build/tsan  clang, -O1 -g1, -fsanitize=thread: the instrument (loadgen drivers, bench
#                     runner, histograms, run store) in engine_tests, and the workbench's worker
#                     threads (index, query, load, trace and compare workers behind their
#                     controllers and pages, History's compare, the overload run) in app_tests
#                     and trace_view_tests.
#   asan-engine  build/asan-engine  the same ASan+UBSan build without the workbench
#                     (-DWANDSCOPE_BUILD_APP=OFF): every test that is not a Qt test (engine,
#                     simd, cli, plugin, peers, teaching engine, fuzz replay). About half the
#                     build of asan; what .ci/run runs.
#   tsan-engine       the engine half of tsan only (engine_tests, plugin_tests).
# Verified on this machine (docs/RELIABILITY.md, "Sanitizers"): asan, the whole suite, and tsan,
# both halves, from a fresh clone through .ci/run on 2026-12-01 (asan: 614 tests, 0 failed, no
# report; tsan: 177 tests, 0 failed, no report; unity builds: TSan's tree 302 s to build, was
# 966 s file by file). The workbench's hand-offs to and from its worker threads go
# through app/workers/worker_thread.h, which makes them visible to TSan; what TSan cannot see
# inside Qt's and glib's own thread pools is handled by scripts/tsan-qt.supp (Qt's libraries
# only) and G_SLICE=always-malloc (docs/RELIABILITY.md, "Qt and TSan"). CI runs asan and tsan.
# Usage: scripts/sanitize.sh [asan|asan-engine|tsan|tsan-engine|all]... (default all; several
# modes run in order, e.g. `scripts/sanitize.sh asan tsan`, what .ci/run does). Environment: JOBS build
# parallelism (default 2), TEST_JOBS ctest parallelism (default 2), CTEST_ARGS extra ctest arguments.
# Benchmarks and libFuzzer executables are not built in these trees (fuzz_replay is, and
# replays every checked-in fuzz input). Findings are fixed, not suppressed (the one suppression
# file names only Qt's libraries) and -fno-sanitize-recover=all / halt_on_error=1 make the first
# report fail the test.
# Prints build and test wall time per sanitizer (the figures docs/RELIABILITY.md records).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
test_jobs=${TEST_JOBS:-2}
# -O1: Debug builds (-O0) under ASan ran the suite several times slower for a similar build time;
# -O1 keeps frames and line numbers good enough for reports. -g1 (line tables only): reports
# still name function, file and line, but the compile is about 30 % cheaper (app/cli/bench_command.cpp
# under ASan: 26.6 s user with -g, 18.7 s with -g1) and the links lighter; the ASan tree is most of
# the CI budget. Assertions stay on (no NDEBUG).
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-O1 -g1" "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1"
        -DWANDSCOPE_BUILD_APP=ON -DWANDSCOPE_BUILD_BENCH=OFF -DWANDSCOPE_FUZZ=OFF)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# tsan-qt.supp: Qt's own thread pool only (called_from_lib libQt6Core/libQt6Gui; it names no
# code of ours, see the file and docs/RELIABILITY.md, "Qt and TSan").
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan-qt.supp}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# glib's slice allocator recycles blocks between threads under glib's own (futex) locking, which
# TSan cannot see: plain malloc instead (the usual setting for valgrind and the sanitizers).
export G_SLICE=${G_SLICE:-always-malloc}

summary=()
now() { date +%s; }

# configure <dir> <cc> <cxx> <sanitizers> [cmake args...]: a tree configured before with another compiler or
# sanitizer is started afresh. (Changing the compiler of an existing cache makes CMake delete it
# and re-run with the compiler alone: the tree silently becomes a Release build without
# sanitizers. That happened to build/asan once.)
configure() {
  local dir=$1 cc=$2 cxx=$3 san=$4 cache=$1/CMakeCache.txt
  shift 4
  mkdir -p "$(dirname "$dir")"  # a fresh checkout has no build/ yet, and the log goes beside the tree
  if [[ -f $cache ]] && ! { grep -qx "WANDSCOPE_SANITIZE:STRING=$san" "$cache" &&
      [[ $(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache") == "$(command -v "$cxx")" ]]; }; then
    rm -rf "$cache" "$dir/CMakeFiles"
  fi
  cmake -S . -B "$dir" "${common[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DWANDSCOPE_SANITIZE="$san" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log" >&2; exit 1; }
  grep -qx "WANDSCOPE_SANITIZE:STRING=$san" "$cache" && grep -qx "CMAKE_BUILD_TYPE:STRING=Debug" "$cache" ||
    { echo "sanitize.sh: $dir is not configured as asked (see $cache)" >&2; exit 1; }
}

# build <dir> <label> <targets...>: configure already done; logs to <dir>/build.log.
build() {
  local dir=$1 label=$2
  shift 2
  local t0
  t0=$(now)
  echo "sanitize.sh: building $dir ($label) with $jobs jobs (log: $dir/build.log)" >&2
  if ! cmake --build "$dir" -j "$jobs" "$@" >"$dir/build.log" 2>&1; then
    tail -40 "$dir/build.log" >&2
    echo "sanitize.sh: $label build failed (log: $dir/build.log)" >&2
    exit 1
  fi
  summary+=("$(printf '%-11s build %5ss' "$label" $(($(now) - t0)))")
}

# run_tests <dir> <label> <ctest args...>
run_tests() {
  local dir=$1 label=$2
  shift 2
  local t0 rc
  t0=$(now)
  set +e
  # shellcheck disable=SC2086
  (cd "$dir" && ctest --output-on-failure -j "$test_jobs" --timeout 1800 "$@" ${CTEST_ARGS:-}) \
    | tee "$dir/test.log" | grep -vE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed'
  rc=${PIPESTATUS[0]}
  set -e
  local ran
  ran=$(grep -oE '[0-9]+ tests failed out of [0-9]+' "$dir/test.log" | tail -1)
  summary+=("$(printf '%-11s tests %5ss  %s  %s' "$label" $(($(now) - t0)) "${ran:-?}" \
    "$([[ $rc -eq 0 ]] && echo ok || echo "FAILED (log $dir/test.log)")")")
  return $rc
}

run_asan() {
  configure build/asan gcc g++ address,undefined
  build build/asan asan
  run_tests build/asan asan
}

run_asan_engine() {
  configure build/asan-engine gcc g++ address,undefined -DWANDSCOPE_BUILD_APP=OFF
  build build/asan-engine asan-engine
  run_tests build/asan-engine asan-engine
}

# The threaded parts of the engine: the instrument (drivers, runner, histograms, the A/B compare
# runners, open and closed loop, with engine builds loaded as plugins), the run store, and the
# parallel index build, commit and corpus generator.
tsan_engine='^(ArrivalSchedule|BenchProfile|BenchRunner|BuiltinTarget|ClosedLoopDriver|HistogramRecorder|LatencyHistogram|OpenLoopDriver|Quantile|ReportWriter|RequestLogWriter|RunCodec|RunStore|RunStoreCrash|RunStoreListing|RungSummary|SaturationRule|SchemaMigrations|SyntheticTarget|TargetSpec|Workload|Compare|OpenCompare|PluginEngine|PluginTarget|IndexBuild|IndexBuildFault|IndexWriter|CorpusGenerator|CorpusGeneratorLargeVocabulary|CorpusGeneratorZipf)\.'
# The workbench's workers on QThreads, driven through their controllers and pages (ComparePage,
# HistoryPage and Overload drive the compare and load workers too).
tsan_app='^(WorkerThread|IndexController|QueryControllerTest|LoadPage|Pages|QtLogSink|TracePage|ComparePage|HistoryPage|Overload)\.'

run_tsan() {
  configure build/tsan clang clang++ thread
  build build/tsan tsan --target engine_tests plugin_tests app_tests trace_view_tests
  run_tests build/tsan tsan -R "$tsan_engine|$tsan_app"
}

run_tsan_engine() {
  configure build/tsan clang clang++ thread
  build build/tsan tsan --target engine_tests plugin_tests
  run_tests build/tsan tsan -R "$tsan_engine"
}
status=0
[[ $# -gt 0 ]] || set -- all
for what in "$@"; do
  case "$what" in
    asan) run_asan || status=1 ;;
    asan-engine) run_asan_engine || status=1 ;;
    tsan) run_tsan || status=1 ;;
    tsan-engine) run_tsan_engine || status=1 ;;
    all) run_asan || status=1; run_tsan || status=1 ;;
    *) echo "usage: $0 [asan|asan-engine|tsan|tsan-engine|all]..." >&2; exit 2 ;;
  esac
done
echo "sanitize.sh summary (load average now: $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  %s\n' "${summary[@]}"
exit $status
