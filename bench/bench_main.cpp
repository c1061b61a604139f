// SPDX-License-Identifier: GPL-3.0-or-later
// wandscope_bench: every kernel on every SIMD target this CPU supports, the target in each name
// and label, and the machine's best and supported targets in the report's context.
#include "bench/bench_registry.h"

#include <benchmark/benchmark.h>

#include <string>

int main(int argc, char** argv) {
  namespace simd = wandscope::engine::simd;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string supported;
  for (const simd::Target t : simd::supportedTargets()) {
    if (!supported.empty()) supported.append(",");
    supported.append(simd::targetName(t));
    // avx3_vp2 differs from avx3 in the long-run intersection only (simd_target.h).
    if (t == simd::Target::Avx3Vp2) {
      wandscope::bench::registerIntersectBenchmarks(t);
      continue;
    }
    wandscope::bench::registerBp128Benchmarks(t);
    wandscope::bench::registerFindGeqBenchmarks(t);
    wandscope::bench::registerIntersectBenchmarks(t);
    wandscope::bench::registerBlockScoreBenchmarks(t);
  }
  wandscope::bench::registerTailDecodeBenchmarks();
  benchmark::AddCustomContext("simd_best", simd::targetName(simd::bestTarget()));
  benchmark::AddCustomContext("simd_supported", supported);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  simd::forceTarget("best");
  return 0;
}
