// SPDX-License-Identifier: GPL-3.0-or-later
// Block BM25 scoring and the prune-table filter over 128 candidates, per target.
#include "bench/bench_registry.h"
#include "engine/codec/simd/block_score.h"
#include "engine/score/bm25.h"

#include <array>
#include <cstdint>
#include <random>

namespace wandscope::bench {
namespace {

namespace simd = engine::simd;

struct ScoreFixture {
  alignas(64) std::array<std::uint32_t, 128> tf{};
  alignas(64) std::array<float, 128> norm{};
};

ScoreFixture makeScoreFixture() {
  ScoreFixture f;
  std::mt19937_64 rng(7);
  const engine::Bm25 bm25(engine::Bm25Params{}, 1'000'000, 300'000'000);
  for (std::size_t i = 0; i < 128; ++i) {
    f.tf[i] = 1 + static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() % 40 : 0);
    f.norm[i] = bm25.lengthNorm(static_cast<std::uint32_t>(50 + rng() % 800));
  }
  return f;
}

void scoreBlock(benchmark::State& state, simd::Target target) {
  useTarget(state, target);
  const ScoreFixture f = makeScoreFixture();
  const simd::BlockScoreKernels& k = simd::blockScoreKernels();
  alignas(64) std::array<float, 128> out{};
  for (auto _ : state) {
    k.scoreBlock(f.tf.data(), f.norm.data(), 128, 3.25f, 2.2f, out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 128);
}

void pruneSurvivors(benchmark::State& state, simd::Target target) {
  useTarget(state, target);
  const ScoreFixture f = makeScoreFixture();
  const simd::BlockScoreKernels& k = simd::blockScoreKernels();
  alignas(64) std::array<std::uint8_t, 128> out{};
  const std::uint64_t bits = 0x3Eull;  // tf 1..5 cannot compete
  for (auto _ : state) {
    benchmark::DoNotOptimize(k.pruneSurvivors(f.tf.data(), 128, bits, out.data()));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 128);
}

}  // namespace

void registerBlockScoreBenchmarks(simd::Target target) {
  benchmark::RegisterBenchmark(benchName("score_block", target, "").c_str(), scoreBlock, target);
  benchmark::RegisterBenchmark(benchName("prune_survivors", target, "").c_str(), pruneSurvivors, target);
}

}  // namespace wandscope::bench
