// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/score/score_bounds.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace wandscope::test {
namespace {

using namespace engine;

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

float up(float x, int ulps = 1) {
  for (int i = 0; i < ulps; ++i) x = std::nextafter(x, kInf);
  return x;
}
float down(float x, int ulps = 1) {
  for (int i = 0; i < ulps; ++i) x = std::nextafter(x, -kInf);
  return x;
}

TEST(ScoreBounds, FactorIsOneUpToTwoTermsThenWidens) {
  EXPECT_EQ(sumUpperBoundFactor(0), 1.0);
  EXPECT_EQ(sumUpperBoundFactor(1), 1.0);
  EXPECT_EQ(sumUpperBoundFactor(2), 1.0);
  const double eps = std::numeric_limits<float>::epsilon();
  EXPECT_EQ(sumUpperBoundFactor(3), 1.0 + 4.0 * eps);
  EXPECT_EQ(sumUpperBoundFactor(6), 1.0 + 10.0 * eps);
}

TEST(ScoreBounds, OutwardRoundingNeverGoesDown) {
  const std::uint64_t seed = 17;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(0.0, 100.0);
  for (int i = 0; i < 100000; ++i) {
    const double x = dist(rng);
    const float f = outwardF32(x);
    ASSERT_GE(static_cast<double>(f), x);
    ASSERT_LT(static_cast<double>(down(f)), x) << "not the smallest f32 >= x";
  }
  EXPECT_EQ(outwardF32(1.0), 1.0f);
  EXPECT_EQ(outwardF32(kInf), kInf);
  EXPECT_TRUE(std::isnan(outwardF32(std::numeric_limits<double>::quiet_NaN())));
}

// The review case of the reference notes: an f32 prefix sum of bounds that rounds down would
// reject a document scoring above the floor. The f64 sum, widened and rounded outward, does not.
TEST(ScoreBounds, AnF32SumOfBoundsThatRoundsBelowTheFloorStillCompetes) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<float> dist(0.1f, 10.0f);
  int found = 0;
  for (int i = 0; i < 200000 && found < 50; ++i) {
    const float a = dist(rng);
    const float b = dist(rng);
    const float c = dist(rng);
    const float f32Sum = (a + b) + c;
    const double exact = static_cast<double>(a) + b + c;
    if (static_cast<double>(f32Sum) >= exact) continue;  // only the cases that round down
    ++found;
    // A floor just above the f32 sum but below the exact sum: a document could score above it.
    const float floor = f32Sum;
    const double factor = sumUpperBoundFactor(3);
    EXPECT_FALSE(scoreSumCannotCompete(0.0f, exact, floor, factor));
    EXPECT_GT(conservativeSum(std::vector<float>{a, b, c}), floor);
    // Every summation order of the three actual contributions stays within the bound.
    const float bound = conservativeBound(exact, factor);
    EXPECT_LE((a + c) + b, bound);
    EXPECT_LE((b + c) + a, bound);
    EXPECT_LE((c + b) + a, bound);
  }
  EXPECT_EQ(found, 50) << "the generator should find rounding-down cases";
}

TEST(ScoreBounds, NonFiniteInputsNeverPrune) {
  EXPECT_FALSE(scoreSumCannotCompete(1.0f, std::numeric_limits<double>::quiet_NaN(), 5.0f, 1.0));
  EXPECT_FALSE(scoreSumCannotCompete(kNan, 0.0, 5.0f, 1.0));
  EXPECT_FALSE(scoreSumCannotCompete(1.0f, 1.0, kNan, 1.0));
  EXPECT_FALSE(scoreSumCannotCompete(1.0f, std::numeric_limits<double>::infinity(), 1e30f, 1.0));
  EXPECT_FALSE(scoreSumCannotCompete(0.0f, 0.0, -kInf, 1.0)) << "an empty heap's floor prunes nothing";
  EXPECT_TRUE(scoreSumCannotCompete(1e30f, 1e30, kInf, 1.0)) << "k = 0: everything is rejected";
  EXPECT_EQ(exclusivePartialScoreLimit(-kInf, 1.0, 1.0), -kInf);
  EXPECT_EQ(exclusivePartialScoreLimit(kNan, 1.0, 1.0), -kInf);
  EXPECT_EQ(exclusivePartialScoreLimit(5.0f, std::numeric_limits<double>::quiet_NaN(), 1.0), -kInf);
  EXPECT_EQ(exclusivePartialScoreLimit(kInf, 1.0, 1.0), kInf);
  EXPECT_EQ(exclusivePartialScoreLimit(1.0f, 2.0, 1.0), -kInf) << "the remaining bound alone beats the floor";
}

// beatsFloor (the hot loops' f64 test) decides exactly as rounding the bound outward to f32 and
// comparing: swept over sums a few f64 ULPs around f32 floors, for 1-6 clauses, and NaN.
TEST(ScoreBounds, BeatsFloorDecidesAsTheRoundedBoundAtEveryUlp) {
  const std::uint64_t seed = 4243;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> floors(0.001f, 60.0f);
  for (int trial = 0; trial < 4000; ++trial) {
    const float floor = floors(rng);
    const std::size_t clauses = 1 + rng() % 6;
    const double factor = sumUpperBoundFactor(clauses);
    // Sums whose widened value lands on, just below and just above the floor.
    const double centre = static_cast<double>(floor) / factor;
    double sum = centre;
    for (int u = 0; u < 40; ++u) sum = std::nextafter(sum, 0.0);
    for (int u = -40; u <= 40; ++u, sum = std::nextafter(sum, kInf)) {
      ASSERT_EQ(beatsFloor(sum, factor, floor), conservativeBound(sum, factor) > floor)
          << "floor " << floor << " sum " << sum << " clauses " << clauses << " ulp " << u;
    }
  }
  EXPECT_TRUE(beatsFloor(std::numeric_limits<double>::quiet_NaN(), 1.0, 5.0)) << "a NaN bound never prunes";
}

// The limit turns the f64 predicate into one f32 comparison with identical decisions. Sweep the
// ULP neighbourhood of the boundary across floors, remaining bounds and clause counts.
TEST(ScoreBounds, ExclusivePartialScoreLimitMatchesThePredicateAtEveryUlp) {
  const std::uint64_t seed = 4242;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> floors(0.001f, 60.0f);
  for (int trial = 0; trial < 4000; ++trial) {
    const float floor = floors(rng);
    const double remaining = std::uniform_real_distribution<double>(0.0, static_cast<double>(floor))(rng);
    const std::size_t clauses = 1 + rng() % 6;
    const double factor = sumUpperBoundFactor(clauses);
    const float limit = exclusivePartialScoreLimit(floor, remaining, factor);
    ASSERT_TRUE(std::isfinite(limit)) << "floor " << floor << " remaining " << remaining;
    ASSERT_TRUE(scoreSumCannotCompete(limit, remaining, floor, factor));
    ASSERT_FALSE(scoreSumCannotCompete(up(limit), remaining, floor, factor));
    for (int u = -40; u <= 40; ++u) {
      const float p = u < 0 ? down(limit, -u) : up(limit, u);
      if (p < 0.0f) continue;
      ASSERT_EQ(p <= limit, scoreSumCannotCompete(p, remaining, floor, factor))
          << "floor " << floor << " remaining " << remaining << " clauses " << clauses << " ulp " << u;
    }
  }
}

TEST(ScoreBounds, LimitAtTinyAndHugeFloors) {
  for (float floor : {std::numeric_limits<float>::denorm_min(), 1e-30f, 1.0f, 1e30f,
                      std::numeric_limits<float>::max()}) {
    const float limit = exclusivePartialScoreLimit(floor, 0.0, 1.0);
    if (limit == kInf) {
      // Every finite partial score is rejected: the largest finite one is.
      ASSERT_TRUE(scoreSumCannotCompete(std::numeric_limits<float>::max(), 0.0, floor, 1.0)) << floor;
      continue;
    }
    ASSERT_TRUE(scoreSumCannotCompete(limit, 0.0, floor, 1.0)) << floor;
    ASSERT_FALSE(scoreSumCannotCompete(up(limit), 0.0, floor, 1.0)) << floor;
  }
  // With nothing remaining and factor 1 the limit is the floor itself.
  EXPECT_EQ(exclusivePartialScoreLimit(3.5f, 0.0, 1.0), 3.5f);
}

}  // namespace
}  // namespace wandscope::test
