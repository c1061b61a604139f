// SPDX-License-Identifier: GPL-3.0-or-later
// find_next_geq over a decoded 128-value block, per target: "far" targets anywhere in the block
// (searched from its start) and "near" ones a few postings ahead of a random position (a cursor's
// nextGeq). std::lower_bound, what the cursor used before, is listed with the scalar target.
// count_below over the whole block for the "far" targets: the long windows' lookup of a candidate
// in its decoded block (ALGORITHMS.md), which compares every lane instead of stopping at the match.
#include "bench/bench_registry.h"
#include "engine/codec/simd/find_geq.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::bench {
namespace {

namespace simd = engine::simd;

struct Query {
  std::uint32_t start;
  std::uint32_t target;
};

struct GeqFixture {
  alignas(64) std::array<std::uint32_t, 128> block{};
  std::vector<Query> queries;
};

GeqFixture makeGeqFixture(bool near) {
  GeqFixture f;
  std::mt19937_64 rng(42);
  std::uint32_t d = 0x7FFF0000u;  // straddles 2^31: the unsigned compare matters
  for (auto& x : f.block) {
    d += 1 + static_cast<std::uint32_t>(rng() % 66);  // ~3% density
    x = d;
  }
  for (int i = 0; i < 4096; ++i) {
    if (near) {
      const auto p = static_cast<std::uint32_t>(rng() % 120);
      f.queries.push_back({p, f.block[p + rng() % 8] - static_cast<std::uint32_t>(rng() % 2)});
    } else {
      f.queries.push_back({0, f.block[0] + static_cast<std::uint32_t>(rng() % (f.block[127] - f.block[0]))});
    }
  }
  return f;
}

// find_next_geq from the query's start, or count_below (always from the block's start: "far").
// The two kernels share a signature.
void findGeq(benchmark::State& state, simd::Target target, bool near, bool countBelow) {
  useTarget(state, target);
  const GeqFixture f = makeGeqFixture(near);
  const simd::FindNextGeqFn kernel = countBelow ? simd::countBelowKernel() : simd::findNextGeqKernel();
  std::size_t q = 0;
  for (auto _ : state) {
    const Query& query = f.queries[q];
    q = (q + 1) & 4095;
    benchmark::DoNotOptimize(kernel(f.block.data() + query.start, 128 - query.start, query.target));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void lowerBound(benchmark::State& state, bool near) {
  const GeqFixture f = makeGeqFixture(near);
  std::size_t q = 0;
  for (auto _ : state) {
    const Query& query = f.queries[q];
    q = (q + 1) & 4095;
    benchmark::DoNotOptimize(std::lower_bound(f.block.data() + query.start, f.block.data() + 128, query.target));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace

void registerFindGeqBenchmarks(simd::Target target) {
  for (const bool near : {false, true}) {
    const char* what = near ? "near" : "far";
    benchmark::RegisterBenchmark(benchName("find_geq", target, what).c_str(), findGeq, target, near, false);
    if (!near) benchmark::RegisterBenchmark(benchName("count_below", target, what).c_str(), findGeq, target, near, true);
    if (target == simd::Target::Scalar) {
      std::string name("find_geq/lower_bound/");
      name.append(what);
      benchmark::RegisterBenchmark(name.c_str(), lowerBound, near);
    }
  }
}

}  // namespace wandscope::bench
