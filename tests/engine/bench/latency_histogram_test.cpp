// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/histogram_recorder.h"
#include "engine/bench/latency_histogram.h"
#include "engine/bench/quantile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

namespace wandscope::test {
namespace {

using engine::HistogramRecorder;
using engine::LatencyHistogram;

TEST(LatencyHistogram, BucketsAreContiguousAndWithinAThousandth) {
  // Every value maps to a bucket whose equivalent range contains it and is at most 1/1024 of it
  // wide (3 significant digits); consecutive buckets tile the line without gaps.
  std::mt19937_64 rng(7);
  SCOPED_TRACE("seed 7");
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t v = i < 5000 ? static_cast<std::uint64_t>(i) : rng() % LatencyHistogram::kMaxValue;
    const std::size_t b = LatencyHistogram::bucketIndex(v);
    ASSERT_LT(b, LatencyHistogram::kBuckets);
    const auto lo = LatencyHistogram::lowestEquivalent(b);
    const auto hi = LatencyHistogram::highestEquivalent(b);
    ASSERT_LE(lo, v);
    ASSERT_GE(hi, v);
    ASSERT_LE(static_cast<double>(hi - lo), static_cast<double>(lo) / 1024.0 + 1e-9) << v;
  }
  for (std::size_t b = 0; b + 1 < LatencyHistogram::kBuckets; ++b) {
    ASSERT_EQ(LatencyHistogram::highestEquivalent(b) + 1, LatencyHistogram::lowestEquivalent(b + 1)) << b;
  }
  EXPECT_LT(LatencyHistogram::bucketIndex(LatencyHistogram::kMaxValue), LatencyHistogram::kBuckets);
}

TEST(LatencyHistogram, QuantilesAreNearestRankWithinResolution) {
  std::mt19937_64 rng(11);
  SCOPED_TRACE("seed 11");
  std::lognormal_distribution<double> dist(std::log(2e6), 1.0);  // ~2 ms median, in ns
  LatencyHistogram h;
  std::vector<double> exact;
  for (int i = 0; i < 50000; ++i) {
    const auto v = static_cast<std::uint64_t>(dist(rng));
    h.record(v);
    exact.push_back(static_cast<double>(v));
  }
  std::sort(exact.begin(), exact.end());
  for (double q : {0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const double truth = exact[engine::nearestRank(exact.size(), q) - 1];
    const auto got = h.quantile(q);
    ASSERT_TRUE(got);
    // Never below the sample at that rank, at most 0.1 % above it.
    EXPECT_GE(static_cast<double>(*got), truth) << q;
    EXPECT_LE(static_cast<double>(*got), truth * (1 + 1.0 / 1024) + 1) << q;
  }
  EXPECT_EQ(static_cast<double>(*h.quantile(0.0)), exact.front());
  EXPECT_EQ(static_cast<double>(*h.quantile(1.0)), exact.back());
}

TEST(LatencyHistogram, OutOfRangeValuesAreCountedNotDropped) {
  LatencyHistogram h;
  h.record(5);
  h.record(LatencyHistogram::kMaxValue + 1);
  h.record(LatencyHistogram::kMaxValue * 3);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_EQ(h.overflow(), 2u);
  EXPECT_EQ(h.max(), LatencyHistogram::kMaxValue * 3);
  EXPECT_EQ(*h.quantile(0.9), LatencyHistogram::kMaxValue * 3);  // the rank is among the overflowed
  EXPECT_EQ(*h.quantile(0.2), 5u);
  EXPECT_FALSE(LatencyHistogram().quantile(0.5));
}

// Four writers record while a reader collects deltas concurrently (the monitor's tick): the deltas
// add up to exactly what was recorded, per bucket, with no lock on the writers' side.
TEST(HistogramRecorder, ConcurrentDeltasAddUpExactly) {
  constexpr int kWriters = 4;
  constexpr int kPerWriter = 200000;
  std::vector<std::unique_ptr<HistogramRecorder>> recorders;
  for (int w = 0; w < kWriters; ++w) recorders.push_back(std::make_unique<HistogramRecorder>());
  std::atomic<int> done{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      // Start only once the reader is about to collect, so on a loaded machine the writers
      // cannot all finish before the first concurrent tick (the test's point).
      while (!go.load()) std::this_thread::yield();
      std::mt19937_64 rng(static_cast<std::uint64_t>(w));
      for (int i = 0; i < kPerWriter; ++i) recorders[static_cast<std::size_t>(w)]->record(rng() % 10'000'000);
      done.fetch_add(1);
    });
  }
  LatencyHistogram merged;
  std::vector<std::vector<std::uint64_t>> seen(kWriters);
  std::uint64_t ticks = 0;
  go.store(true);
  do {
    for (int w = 0; w < kWriters; ++w) recorders[static_cast<std::size_t>(w)]->collectDelta(merged, seen[static_cast<std::size_t>(w)]);
    ++ticks;
  } while (done.load() < kWriters);
  for (auto& t : writers) t.join();
  for (int w = 0; w < kWriters; ++w) recorders[static_cast<std::size_t>(w)]->collectDelta(merged, seen[static_cast<std::size_t>(w)]);
  EXPECT_EQ(merged.count(), static_cast<std::uint64_t>(kWriters) * kPerWriter);
  LatencyHistogram expected;
  for (int w = 0; w < kWriters; ++w) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(w));
    for (int i = 0; i < kPerWriter; ++i) expected.record(rng() % 10'000'000);
  }
  for (std::size_t b = 0; b < LatencyHistogram::kBuckets; ++b) {
    ASSERT_EQ(merged.bucketCount(b), expected.bucketCount(b)) << b;
  }
  EXPECT_GT(ticks, 0u);
}

}  // namespace
}  // namespace wandscope::test
