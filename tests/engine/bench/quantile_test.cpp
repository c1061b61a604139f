// SPDX-License-Identifier: GPL-3.0-or-later
// The one quantile definition (nearest rank), its thin-sample rule and the distribution-free
// interval, pinned against hand-computed cases.
#include "engine/bench/quantile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace wandscope::test {
namespace {

using engine::confidenceRanks;
using engine::minSamplesFor;
using engine::nearestRank;
using engine::nearestRankInterval;
using engine::nearestRankQuantile;

std::vector<double> oneTo(std::size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

TEST(Quantile, NearestRankHandCases) {
  // Ten samples 1..10, no thin rule: rank ceil(q n).
  const auto ten = oneTo(10);
  EXPECT_EQ(nearestRankQuantile(ten, 0.0, 0), 1.0);
  EXPECT_EQ(nearestRankQuantile(ten, 0.5, 0), 5.0);   // ceil(5) = 5, not 5.5 (no interpolation)
  EXPECT_EQ(nearestRankQuantile(ten, 0.9, 0), 9.0);   // exactly 9: no rounding up to 10
  EXPECT_EQ(nearestRankQuantile(ten, 0.91, 0), 10.0);  // ceil(9.1) = 10
  EXPECT_EQ(nearestRankQuantile(ten, 0.05, 0), 1.0);   // ceil(0.5) = 1
  EXPECT_EQ(nearestRankQuantile(ten, 1.0, 0), 10.0);
  // Four samples, median: rank ceil(2) = 2 -> the lower middle value (Rally would give 2.5).
  EXPECT_EQ(nearestRankQuantile({1, 2, 3, 4}, 0.5, 0), 2.0);
  EXPECT_EQ(nearestRankQuantile({7}, 0.99, 0), 7.0);
  // q n a hair above an integer through floating point: 0.99 * 10000 is rank 9900, not 9901.
  EXPECT_EQ(nearestRank(10000, 0.99), 9900u);
  EXPECT_EQ(nearestRank(100000, 0.999), 99900u);
  EXPECT_EQ(nearestRank(3, 0.5), 2u);
}

TEST(Quantile, ThinSamplesAreAbsentNotCaveated) {
  // 100 samples beyond: p50 needs 200, p90 1,000, p99 10,000, p99.9 100,000.
  EXPECT_EQ(minSamplesFor(0.5), 200u);
  EXPECT_EQ(minSamplesFor(0.9), 1000u);
  EXPECT_EQ(minSamplesFor(0.99), 10000u);
  EXPECT_EQ(minSamplesFor(0.999), 100000u);
  EXPECT_FALSE(nearestRankQuantile(oneTo(199), 0.5));
  EXPECT_EQ(nearestRankQuantile(oneTo(200), 0.5), 100.0);
  EXPECT_FALSE(nearestRankQuantile(oneTo(9999), 0.99));
  EXPECT_EQ(nearestRankQuantile(oneTo(10000), 0.99), 9900.0);
  EXPECT_FALSE(nearestRankQuantile(oneTo(99999), 0.999));
  EXPECT_FALSE(nearestRankQuantile({}, 0.5, 0));
}

TEST(Quantile, ConfidenceRanksHandComputed) {
  // n = 10,000, q = 0.99: 9900 -+ 1.96 sqrt(99) = 9900 -+ 19.50 -> ranks 9880 and 9920.
  auto r = confidenceRanks(10000, 0.99);
  EXPECT_EQ(r.lowRank, 9880u);
  EXPECT_EQ(r.highRank, 9920u);
  // n = 200, q = 0.5: 100 -+ 1.96 sqrt(50) = 100 -+ 13.86 -> 86 and 114.
  r = confidenceRanks(200, 0.5);
  EXPECT_EQ(r.lowRank, 86u);
  EXPECT_EQ(r.highRank, 114u);
  // Clamped at the ends.
  // n = 3, q = 0.5: 1.5 -+ 1.96 sqrt(0.75) = 1.5 -+ 1.70 -> -0.2 and 3.2, clamped to 1 and 3.
  r = confidenceRanks(3, 0.5);
  EXPECT_EQ(r.lowRank, 1u);
  EXPECT_EQ(r.highRank, 3u);

  const auto ci = nearestRankInterval(oneTo(10000), 0.99);
  ASSERT_TRUE(ci);
  EXPECT_EQ(ci->low, 9880.0);
  EXPECT_EQ(ci->high, 9920.0);
  EXPECT_FALSE(nearestRankInterval(oneTo(9999), 0.99));  // absent exactly when the quantile is
}

// The interval's exact coverage, P(lowRank <= B < highRank) with B ~ Binomial(n, q) (the number
// of samples below the true quantile), is at least 95 % for the sizes reports use.
TEST(Quantile, IntervalCoverageIsAtLeastNominal) {
  for (const auto& [n, q] : std::vector<std::pair<std::size_t, double>>{
           {200, 0.5}, {300, 0.5}, {1000, 0.5}, {1000, 0.9}, {10000, 0.99}, {20000, 0.99}, {100000, 0.999}}) {
    SCOPED_TRACE(testing::Message() << "n=" << n << " q=" << q);
    const auto r = confidenceRanks(n, q);
    double coverage = 0;
    for (std::size_t i = r.lowRank; i < r.highRank; ++i) {
      const double nd = static_cast<double>(n), id = static_cast<double>(i);
      coverage += std::exp(std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) + id * std::log(q) +
                           (nd - id) * std::log(1 - q));
    }
    EXPECT_GE(coverage, 0.949);
    EXPECT_LE(coverage, 0.97);
  }
}

}  // namespace
}  // namespace wandscope::test
