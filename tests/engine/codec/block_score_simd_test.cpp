// SPDX-License-Identifier: GPL-3.0-or-later
// Block BM25 scoring and the prune-table filter on every supported target: bit-identical to the
// scalar scorer (Bm25::weight / Bm25::contribution) and equal to the scalar filter.
#include "engine/codec/simd/block_score.h"
#include "engine/score/bm25.h"
#include "tests/engine/codec/simd_test_support.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::test {
namespace {

namespace simd = engine::simd;

TEST(BlockScoreSimd, KernelTableMatchesTheForcedTarget) {
  forEachSimdTarget([](simd::Target target) { EXPECT_EQ(simd::blockScoreKernels().target, compiledFor(target)); });
}

TEST(BlockScoreSimd, BitIdenticalToTheScalarScorer) {
  const std::uint64_t seed = 0x5EED0301;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::BlockScoreKernels& k = simd::blockScoreKernels();
    for (int trial = 0; trial < 300; ++trial) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      engine::Bm25Params params;
      params.k1 = trial % 3 == 0 ? 1.2f : static_cast<float>(rng() % 3000) / 1000.0f;
      params.b = trial % 3 == 0 ? 0.75f : static_cast<float>(rng() % 1001) / 1000.0f;
      const std::uint64_t docs = 1 + rng() % 10'000'000;
      const engine::Bm25 bm25(params, docs, docs * (1 + rng() % 2000));
      const float idf = bm25.idf(1 + rng() % docs);
      const std::size_t n = static_cast<std::size_t>(trial % 131);
      std::vector<std::uint32_t> tf(n);
      std::vector<float> norm(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t kind = rng() % 8;
        tf[i] = kind == 0   ? 1u
                : kind == 1 ? static_cast<std::uint32_t>(1 + rng() % (1u << 24))
                : kind == 2 ? static_cast<std::uint32_t>(rng())  // beyond 2^24: rounded conversion
                : kind == 3 ? 0xFFFFFFFFu - static_cast<std::uint32_t>(rng() % 512)
                            : static_cast<std::uint32_t>(1 + rng() % 64);
        norm[i] = bm25.lengthNorm(static_cast<std::uint32_t>(rng() % 100'000));
      }
      std::vector<float> out(n + 1, -1.0f);
      k.scoreBlock(tf.data(), norm.data(), n, idf, params.k1 + 1.0f, out.data());
      std::vector<float> out2(n);
      simd::scoreBlock(tf.data(), norm.data(), n, idf, params.k1 + 1.0f, out2.data());
      for (std::size_t i = 0; i < n; ++i) {
        const float expected = engine::Bm25::contribution(idf, bm25.weight(tf[i], norm[i]));
        ASSERT_EQ(std::bit_cast<std::uint32_t>(out[i]), std::bit_cast<std::uint32_t>(expected))
            << "tf " << tf[i] << " norm " << norm[i] << " at " << i;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(out2[i]), std::bit_cast<std::uint32_t>(expected));
      }
      EXPECT_EQ(out[n], -1.0f) << "wrote past the end";
    }
  });
}

TEST(BlockScoreSimd, PruneTableBits) {
  std::array<bool, simd::kPruneBuckets> table{};
  table[0] = true;
  table[5] = true;
  table[63] = true;
  EXPECT_EQ(simd::pruneTableBits(table.data()), (1ull << 0) | (1ull << 5) | (1ull << 63));
}

TEST(BlockScoreSimd, PruneSurvivorsMatchReference) {
  const std::uint64_t seed = 0x5EED0302;
  SCOPED_TRACE("seed " + std::to_string(seed));
  forEachSimdTarget([&](simd::Target) {
    std::mt19937_64 rng(seed);
    const simd::BlockScoreKernels& k = simd::blockScoreKernels();
    for (int trial = 0; trial < 400; ++trial) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      // Tables as the bulk AND builds them (a prefix of buckets, plus bucket 63) and random ones.
      std::uint64_t bits = 0;
      if (trial % 2 == 0) {
        const unsigned cut = static_cast<unsigned>(rng() % 64);
        bits = cut == 0 ? 0 : (~0ull >> (64 - cut)) << 1;
        if (rng() % 2 == 0) bits |= 1ull << 63;
      } else {
        bits = rng();
      }
      if (trial == 1) bits = 0;
      if (trial == 3) bits = ~0ull;
      const std::size_t n = static_cast<std::size_t>(trial % 130);
      std::vector<std::uint32_t> tf(n);
      for (auto& x : tf) {
        const std::uint64_t kind = rng() % 4;
        x = kind == 0 ? static_cast<std::uint32_t>(rng()) : kind == 1 ? 0xFFFFFFFFu - static_cast<std::uint32_t>(rng() % 3)
                                                                      : static_cast<std::uint32_t>(rng() % 70);
      }
      std::vector<std::uint8_t> expected(n + 1, 0xEE);
      const std::size_t m = simd::scalar::pruneSurvivors(tf.data(), n, bits, expected.data());
      std::vector<std::uint8_t> out(n + 1, 0xEE);
      const std::size_t got = k.pruneSurvivors(tf.data(), n, bits, out.data());
      ASSERT_EQ(got, m);
      ASSERT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m), expected.begin()));
      EXPECT_EQ(out[n], 0xEE) << "wrote past the end";
      std::vector<std::uint8_t> out2(n);
      ASSERT_EQ(simd::pruneSurvivors(tf.data(), n, bits, out2.data()), m);
    }
  });
}

}  // namespace
}  // namespace wandscope::test
