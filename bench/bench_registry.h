// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/simd_target.h"

#include <benchmark/benchmark.h>

#include <string>

namespace wandscope::bench {

// Each file registers its benchmarks once per target (names "<kernel>/<target>/<case>").
void registerBp128Benchmarks(engine::simd::Target target);
void registerFindGeqBenchmarks(engine::simd::Target target);
void registerIntersectBenchmarks(engine::simd::Target target);
void registerBlockScoreBenchmarks(engine::simd::Target target);
// Scalar code, the same on every target: registered once.
void registerTailDecodeBenchmarks();

// Forces the benchmark's target (the run records it as the "simd_target" label).
inline void useTarget(benchmark::State& state, engine::simd::Target target) {
  engine::simd::forceTarget(target);
  state.SetLabel(engine::simd::targetName(engine::simd::currentTarget()));
}

inline std::string benchName(const char* kernel, engine::simd::Target target, const std::string& what) {
  std::string s(kernel);
  s.append("/").append(engine::simd::targetName(target));
  if (!what.empty()) s.append("/").append(what);
  return s;
}

}  // namespace wandscope::bench
