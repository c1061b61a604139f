// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/top_k_collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace wandscope::test {
namespace {

using engine::Hit;
using engine::TopKCollector;

TEST(TopKCollector, KeepsTheKBestInScoreThenDocOrder) {
  TopKCollector topk(3);
  topk.insert(1, 1.0f);
  topk.insert(2, 5.0f);
  topk.insert(3, 3.0f);
  topk.insert(4, 4.0f);
  topk.insert(5, 0.5f);
  const auto hits = topk.finish();
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0], (Hit{2, 5.0f}));
  EXPECT_EQ(hits[1], (Hit{4, 4.0f}));
  EXPECT_EQ(hits[2], (Hit{3, 3.0f}));
  EXPECT_EQ(topk.kthScore(), 3.0f);
}

// A preset floor refuses hits at or below it from the first one on, and the floor never falls
// below it once the heap fills.
TEST(TopKCollector, APresetFloorRefusesHitsAtOrBelowItBeforeTheHeapIsFull) {
  engine::QueryCounters counters;
  TopKCollector topk(3, &counters);
  topk.presetFloor(2.0f);
  EXPECT_EQ(topk.floor(), 2.0f);
  EXPECT_EQ(counters.thresholdRaises, 1u);
  EXPECT_FALSE(topk.insert(1, 2.0f));  // exclusive: equal to the floor is out
  EXPECT_FALSE(topk.insert(2, 1.0f));
  EXPECT_TRUE(topk.insert(3, std::nextafter(2.0f, 3.0f)));
  EXPECT_TRUE(topk.insert(4, 5.0f));
  EXPECT_EQ(topk.floor(), 2.0f);  // not full yet
  EXPECT_TRUE(topk.insert(5, 4.0f));
  EXPECT_EQ(topk.floor(), std::nextafter(2.0f, 3.0f));  // full: the k-th score, above the preset
  topk.presetFloor(10.0f);  // only before the first hit
  EXPECT_EQ(topk.floor(), std::nextafter(2.0f, 3.0f));
  const auto hits = topk.finish();
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[2].doc, 3u);
  EXPECT_FALSE(topk.tieAtK());
  EXPECT_EQ(counters.heapInserts, 3u);
  EXPECT_EQ(counters.thresholdRaises, 2u);

  TopKCollector lower(2);
  lower.presetFloor(-std::numeric_limits<float>::infinity());  // not a raise: no effect
  EXPECT_TRUE(lower.insert(1, 0.0f));
}

TEST(TopKCollector, TiesKeepTheSmallerDocIdWhateverTheArrivalOrder) {
  for (bool ascending : {true, false}) {
    TopKCollector topk(2);
    std::vector<engine::DocId> docs = {10, 20, 30, 40};
    if (!ascending) std::reverse(docs.begin(), docs.end());
    for (auto d : docs) topk.insert(d, 1.0f);
    const auto hits = topk.finish();
    ASSERT_EQ(hits.size(), 2u);
    EXPECT_EQ(hits[0].doc, 10u);
    EXPECT_EQ(hits[1].doc, 20u);
    EXPECT_TRUE(topk.tieAtK());
  }
}

TEST(TopKCollector, FloorIsMinusInfinityUntilFullThenTheKthScore) {
  TopKCollector topk(2);
  EXPECT_EQ(topk.floor(), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(topk.wouldEnter(0.0f)) << "a zero-score document must enter an empty heap";
  topk.insert(1, 0.0f);
  EXPECT_FALSE(topk.full());
  topk.insert(2, 2.0f);
  EXPECT_TRUE(topk.full());
  EXPECT_EQ(topk.floor(), 0.0f);
  EXPECT_FALSE(topk.wouldEnter(0.0f)) << "the floor is exclusive";
  EXPECT_TRUE(topk.wouldEnter(0.5f));
  topk.insert(3, 1.0f);
  EXPECT_EQ(topk.floor(), 1.0f);
}

TEST(TopKCollector, NanNeverEnters) {
  TopKCollector topk(3);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(topk.insert(1, nan));
  EXPECT_FALSE(topk.wouldEnter(nan));
  topk.insert(2, 1.0f);
  EXPECT_FALSE(topk.insert(3, nan));
  const auto hits = topk.finish();
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_TRUE(std::isnan(topk.kthScore())) << "fewer than k hits: no k-th score";
}

TEST(TopKCollector, KZeroCollectsNothing) {
  TopKCollector topk(0);
  EXPECT_FALSE(topk.insert(1, 1.0f));
  EXPECT_FALSE(topk.wouldEnter(1e30f));
  EXPECT_TRUE(topk.finish().empty());
}

TEST(TopKCollector, TieAtKIsFalseWhenStrictlySeparated) {
  TopKCollector topk(2);
  topk.insert(1, 3.0f);
  topk.insert(2, 2.0f);
  topk.insert(3, 1.0f);
  topk.finish();
  EXPECT_FALSE(topk.tieAtK());
}

// Property: for random scores with many ties, in random arrival order, the collector returns
// exactly the first k of a full sort under (score desc, doc asc). (This test catches a heap whose
// comparator keeps the best instead of the worst hit on top.)
TEST(TopKCollector, MatchesAFullSortOnRandomInput) {
  const std::uint64_t seed = 424242;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
    const std::size_t k = std::uniform_int_distribution<std::size_t>(0, 40)(rng);
    std::vector<Hit> all;
    for (std::size_t i = 0; i < n; ++i) {
      all.push_back({static_cast<engine::DocId>(i), static_cast<float>(rng() % 17) * 0.25f});
    }
    std::shuffle(all.begin(), all.end(), rng);
    TopKCollector topk(k);
    for (const auto& h : all) topk.insert(h.doc, h.score);
    auto expected = all;
    std::sort(expected.begin(), expected.end(), engine::ranksBefore);
    if (expected.size() > k) expected.resize(k);
    ASSERT_EQ(topk.finish(), expected) << "trial " << trial << " n " << n << " k " << k;
    if (k > 0 && n > k) {
      auto sorted = all;
      std::sort(sorted.begin(), sorted.end(), engine::ranksBefore);
      EXPECT_EQ(topk.tieAtK(), sorted[k].score == sorted[k - 1].score) << "trial " << trial;
    }
  }
}

TEST(TopKCollector, CountsInsertsAndThresholdRaises) {
  engine::QueryCounters counters;
  TopKCollector topk(2, &counters);
  topk.insert(1, 1.0f);
  topk.insert(2, 2.0f);  // full: floor 1
  topk.insert(3, 0.5f);  // rejected
  topk.insert(4, 3.0f);  // floor 2
  EXPECT_EQ(counters.heapInserts, 3u);
  EXPECT_EQ(counters.thresholdRaises, 2u);
}

}  // namespace
}  // namespace wandscope::test
