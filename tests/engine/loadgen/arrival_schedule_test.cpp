// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/error.h"
#include "engine/loadgen/arrival_schedule.h"

#include <gtest/gtest.h>

#include <cmath>

namespace wandscope::test {
namespace {

using engine::ArrivalProcess;
using engine::ArrivalSchedule;

// due_i is computed from i alone: no error accumulates however far the schedule runs.
TEST(ArrivalSchedule, UniformHasNoAccumulatedError) {
  const ArrivalSchedule million(ArrivalProcess::Uniform, 1e6);
  EXPECT_EQ(million.uniformOffsetNs(1'000'000), 1'000'000'000);  // request 1e6 at 1e6/s: exactly 1 s
  EXPECT_EQ(million.uniformOffsetNs(3'600'000'000), 3'600'000'000'000);  // an hour in: still exact
  const ArrivalSchedule three(ArrivalProcess::Uniform, 3);
  EXPECT_EQ(three.uniformOffsetNs(1), 333'333'333);          // floor(1e9 / 3)
  EXPECT_EQ(three.uniformOffsetNs(3), 1'000'000'000);
  EXPECT_EQ(three.uniformOffsetNs(3'000'000), 1'000'000'000'000'000);  // 1e6 s
  // A fractional rate from the second seed's ladder: 27.28/s, request 2728 due at exactly 100 s.
  const ArrivalSchedule seed(ArrivalProcess::Uniform, 27.28);
  EXPECT_EQ(seed.rate(), 27.28);
  EXPECT_EQ(seed.uniformOffsetNs(2728), 100'000'000'000);
  EXPECT_EQ(seed.uniformOffsetNs(2'728'000'000), 100'000'000'000'000'000);  // 3.17 years, exact
  // Every whole multiple of the rate lands on a whole second, across rates.
  for (double rate : {0.5, 7.0, 999.0, 12345.678, 1e7}) {
    const ArrivalSchedule s(ArrivalProcess::Uniform, rate);
    const auto milli = static_cast<std::uint64_t>(std::llround(rate * 1000));
    for (std::uint64_t k : {1ull, 13ull, 1000ull}) {
      EXPECT_EQ(s.uniformOffsetNs(k * milli), static_cast<std::int64_t>(k * 1'000'000'000'000ull)) << rate;
    }
  }
}

TEST(ArrivalSchedule, UniformListsExactlyTheRequestsDueInAWindow) {
  const ArrivalSchedule s(ArrivalProcess::Uniform, 1000);
  const auto offsets = s.offsetsBefore(1'000'000'000, 1'000'000);
  ASSERT_EQ(offsets.size(), 1000u);
  for (std::size_t i = 0; i < offsets.size(); ++i) ASSERT_EQ(offsets[i], static_cast<std::int64_t>(i) * 1'000'000);
  EXPECT_EQ(s.firstOffsets(5).back(), 4'000'000);
  EXPECT_EQ(s.offsetsBefore(1'000'000'000, 10).size(), 10u);  // the limit holds
}

TEST(ArrivalSchedule, RatesOutOfRangeAreUsageErrors) {
  EXPECT_THROW(ArrivalSchedule(ArrivalProcess::Uniform, 0), engine::Error);
  EXPECT_THROW(ArrivalSchedule(ArrivalProcess::Uniform, -5), engine::Error);
  EXPECT_THROW(ArrivalSchedule(ArrivalProcess::Uniform, std::nan("")), engine::Error);
  EXPECT_THROW(ArrivalSchedule(ArrivalProcess::Uniform, 2e7), engine::Error);
  EXPECT_EQ(ArrivalSchedule(ArrivalProcess::Uniform, 1.23456).rate(), 1.235);  // rounded to 0.001/s
}

// Seeded Poisson arrivals have the right mean rate and Poisson dispersion, for several seeds.
TEST(ArrivalSchedule, PoissonHasTheRightMeanRate) {
  for (std::uint64_t seed : {1ull, 2ull, 3ull, 42ull, 987654321ull}) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const ArrivalSchedule s(ArrivalProcess::Poisson, 1000, seed);
    const auto offsets = s.offsetsBefore(200'000'000'000, 1'000'000);  // 200 s
    // 200,000 expected; sd of a Poisson count is sqrt(200000) = 447: allow 5 sd.
    EXPECT_NEAR(static_cast<double>(offsets.size()), 200000.0, 5 * 447.0);
    const double meanGap = static_cast<double>(offsets.back() - offsets.front()) / static_cast<double>(offsets.size() - 1);
    EXPECT_NEAR(meanGap, 1e6, 1e6 * 0.012);  // 1 ms within 1.2 % (5 sd of the mean of 2e5 exponentials)
    // Counts per 1 s window: mean 1000 and variance ~ mean (index of dispersion ~ 1).
    std::vector<double> counts(200, 0);
    for (auto t : offsets) counts[static_cast<std::size_t>(t / 1'000'000'000)] += 1;
    double mean = 0, var = 0;
    for (double c : counts) mean += c;
    mean /= static_cast<double>(counts.size());
    for (double c : counts) var += (c - mean) * (c - mean);
    var /= static_cast<double>(counts.size() - 1);
    EXPECT_NEAR(var / mean, 1.0, 0.35);
    // Exponential gaps: CV ~ 1.
    double gm = 0, gv = 0;
    for (std::size_t i = 1; i < offsets.size(); ++i) gm += static_cast<double>(offsets[i] - offsets[i - 1]);
    gm /= static_cast<double>(offsets.size() - 1);
    for (std::size_t i = 1; i < offsets.size(); ++i) {
      const double d = static_cast<double>(offsets[i] - offsets[i - 1]) - gm;
      gv += d * d;
    }
    EXPECT_NEAR(std::sqrt(gv / static_cast<double>(offsets.size() - 2)) / gm, 1.0, 0.02);
  }
}

TEST(ArrivalSchedule, PoissonIsReproducibleFromItsSeed) {
  const ArrivalSchedule a(ArrivalProcess::Poisson, 500, 7);
  const ArrivalSchedule b(ArrivalProcess::Poisson, 500, 7);
  const ArrivalSchedule c(ArrivalProcess::Poisson, 500, 8);
  EXPECT_EQ(a.firstOffsets(1000), b.firstOffsets(1000));
  EXPECT_NE(a.firstOffsets(1000), c.firstOffsets(1000));
  EXPECT_EQ(a.firstOffsets(1).front(), 0);
  const auto offsets = a.firstOffsets(1000);
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
}

}  // namespace
}  // namespace wandscope::test
