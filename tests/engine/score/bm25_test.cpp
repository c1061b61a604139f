// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/score/bm25.h"

#include "engine/core/error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace wandscope::test {
namespace {

using engine::Bm25;
using engine::Bm25Params;

// Hand computations (k1 = 1.2, b = 0.75, N = 3 documents of lengths 2, 3, 1: avgdl = 2):
//   idf(df=2) = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6)      = 0.4700036292...
//   idf(df=1) = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(2.6666..) = 0.9808292530...
//   K(2) = 1.2 * (0.25 + 0.75 * 2/2)   = 1.2
//   K(3) = 1.2 * (0.25 + 0.75 * 3/2)   = 1.65
//   K(1) = 1.2 * (0.25 + 0.75 * 1/2)   = 0.75
//   W(tf=1, K=1.2)  = 2.2 / 2.2        = 1
//   W(tf=2, K=1.65) = 4.4 / 3.65       = 1.2054794520...
//   W(tf=1, K=0.75) = 2.2 / 1.75       = 1.2571428571...
TEST(Bm25, MatchesHandComputedValues) {
  const Bm25 bm25(Bm25Params{1.2f, 0.75f}, 3, 6);
  EXPECT_FLOAT_EQ(bm25.avgdl(), 2.0f);
  EXPECT_NEAR(bm25.idf(2), 0.4700036292, 1e-7);
  EXPECT_NEAR(bm25.idf(1), 0.9808292530, 1e-7);
  EXPECT_NEAR(bm25.lengthNorm(2), 1.2, 1e-7);
  EXPECT_NEAR(bm25.lengthNorm(3), 1.65, 1e-6);
  EXPECT_NEAR(bm25.lengthNorm(1), 0.75, 1e-7);
  EXPECT_FLOAT_EQ(bm25.weight(1, bm25.lengthNorm(2)), 1.0f);
  EXPECT_NEAR(bm25.weight(2, bm25.lengthNorm(3)), 1.2054794520, 1e-6);
  EXPECT_NEAR(bm25.weight(1, bm25.lengthNorm(1)), 1.2571428571, 1e-6);
  // Contribution of "z" (df 1, tf 2) in a document of length 3: 0.98082925 * 1.20547945.
  EXPECT_NEAR(Bm25::contribution(bm25.idf(1), bm25.weight(2, bm25.lengthNorm(3))), 1.1823696, 1e-6);
}

TEST(Bm25, PyseriniParametersHandComputed) {
  // k1 = 0.9, b = 0.4, N = 1000, total tokens 150000 (avgdl 150), df = 10, tf = 3, dl = 100:
  //   idf = ln(1 + 990.5 / 10.5) = ln(95.333..) = 4.5573797...
  //   K   = 0.9 * (0.6 + 0.4 * 100/150) = 0.9 * 0.866666.. = 0.78
  //   W   = 1.9 * 3 / (3 + 0.78) = 5.7 / 3.78 = 1.5079365...
  const Bm25 bm25(Bm25Params{0.9f, 0.4f}, 1000, 150000);
  EXPECT_NEAR(bm25.idf(10), 4.5573797, 1e-6);
  EXPECT_NEAR(bm25.lengthNorm(100), 0.78, 1e-6);
  EXPECT_NEAR(bm25.weight(3, bm25.lengthNorm(100)), 1.5079365, 1e-6);
}

TEST(Bm25, IdfIsPositiveEvenForTermsInEveryDocument) {
  const Bm25 bm25(Bm25Params{}, 100, 1000);
  EXPECT_GT(bm25.idf(100), 0.0f);
  EXPECT_GT(bm25.idf(99), bm25.idf(100));
}

TEST(Bm25, WeightCeilingIsTwoUlpsAboveKPlusOneAndBoundsEveryWeight) {
  const Bm25Params params{1.2f, 0.75f};
  const Bm25 bm25(params, 10, 1000);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(bm25.weightCeiling(), std::nextafter(std::nextafter(2.2f, inf), inf));
  const std::uint64_t seed = 99;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> tf(1, 1u << 24);
  std::uniform_int_distribution<std::uint32_t> dl(0, 1u << 20);
  for (int i = 0; i < 200000; ++i) {
    const float w = bm25.weight(tf(rng), bm25.lengthNorm(dl(rng)));
    ASSERT_LE(w, bm25.weightCeiling());
    ASSERT_GE(w, 0.0f);
  }
  EXPECT_LE(bm25.weight(1u << 24, bm25.lengthNorm(0)), bm25.weightCeiling());
}

TEST(Bm25, WeightNeverIncreasesWithDocumentLengthAsF32) {
  // The frequency prune table bounds W(tf, K) over all documents by W(tf, K(0)). That needs W to
  // never increase with K, also after f32 rounding: tf + K rounds monotonically and correctly
  // rounded division by a larger denominator never gives a larger result.
  const Bm25 bm25(Bm25Params{1.2f, 0.75f}, 1000, 300000);
  for (std::uint32_t t : {1u, 2u, 7u, 63u, 2390u}) {
    float previous = std::numeric_limits<float>::infinity();
    for (std::uint32_t dl = 0; dl < 3000; ++dl) {
      const float w = bm25.weight(t, bm25.lengthNorm(dl));
      ASSERT_LE(w, previous) << "tf " << t << " dl " << dl;
      previous = w;
    }
  }
}

TEST(Bm25, WeightIsNotAlwaysMonotoneInTfAsF32) {
  // Mathematically W grows with tf; in f32 it can drop by one ULP between neighbours, because
  // numerator and denominator round independently. Bounds must therefore never assume that the
  // weight at a larger tf bounds the weight at a smaller one. This pins a concrete case.
  const Bm25 bm25(Bm25Params{1.2f, 0.75f}, 1000, 300000);
  const float norm = bm25.lengthNorm(0);
  EXPECT_LT(bm25.weight(2390, norm), bm25.weight(2389, norm));
}

TEST(Bm25, RejectsImpossibleParameters) {
  EXPECT_THROW(engine::validateBm25Params({-0.1f, 0.75f}), engine::Error);
  EXPECT_THROW(engine::validateBm25Params({1.2f, 1.5f}), engine::Error);
  EXPECT_THROW(engine::validateBm25Params({std::numeric_limits<float>::quiet_NaN(), 0.5f}), engine::Error);
  EXPECT_THROW(engine::validateBm25Params({std::numeric_limits<float>::infinity(), 0.5f}), engine::Error);
  EXPECT_NO_THROW(engine::validateBm25Params({0.0f, 0.0f}));
  EXPECT_NO_THROW(engine::validateBm25Params({0.9f, 1.0f}));
  // A search for exactness bugs built an index with k1 = 1e38: W overflowed to infinity for a
  // tf of 4, the build stored it, and every reader then called the index corrupt.
  EXPECT_NO_THROW(engine::validateBm25Params({engine::kMaxBm25K1, 0.75f}));
  EXPECT_THROW(engine::validateBm25Params({1e38f, 0.75f}), engine::Error);
  EXPECT_THROW(engine::validateBm25Params({std::nextafter(engine::kMaxBm25K1, 1e38f), 0.75f}), engine::Error);
  // At the limit, the largest tf and the longest document relative to avgdl keep W finite.
  const Bm25 bm25(Bm25Params{engine::kMaxBm25K1, 1.0f}, 4'294'967'295ull, 4'294'967'295ull);
  const float longest = bm25.lengthNorm(4'294'967'295u);
  EXPECT_TRUE(std::isfinite(longest));
  EXPECT_TRUE(std::isfinite(bm25.weight(4'294'967'295u, longest)));
  EXPECT_TRUE(std::isfinite(bm25.weight(4'294'967'295u, bm25.lengthNorm(0))));
}

}  // namespace
}  // namespace wandscope::test
