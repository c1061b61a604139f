// SPDX-License-Identifier: GPL-3.0-or-later
// The A/B comparison: statistics and result diffing as plain functions, then end to end on the
// test plugins (a build with a 200 us spin per query is found slower with an interval excluding
// 1; an A/A run of one build finds no difference) and the report's fields.
#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_report_writer.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/result_diff.h"
#include "engine/core/error.h"
#include "tests/engine/api/plugin_fixture.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stop_token>

namespace wandscope::test {
namespace {

using engine::TargetHit;

TEST(CompareStats, RatioOfGeometricMeansNotMeanOfRatios) {
  // A's times are 1 and 100, B's 2 and 50: geometric means are equal (10 and 10), while the mean
  // of ratios would be (0.5 + 2) / 2 = 1.25.
  const std::vector<double> a{1, 100}, b{2, 50};
  const auto e = engine::bootstrapRatio(a, b, 500, 1);
  EXPECT_NEAR(e.ratio, 1.0, 1e-12);
  EXPECT_LE(e.ciLow, e.ratio);
  EXPECT_GE(e.ciHigh, e.ratio);
}

TEST(CompareStats, BootstrapIntervalCoversAConstantRatioExactly) {
  std::vector<double> a, b;
  for (int i = 1; i <= 50; ++i) {
    a.push_back(2.0 * i);
    b.push_back(1.0 * i);
  }
  const auto e = engine::bootstrapRatio(a, b, 1000, 3);
  EXPECT_NEAR(e.ratio, 2.0, 1e-9);
  EXPECT_NEAR(e.ciLow, 2.0, 1e-9);
  EXPECT_NEAR(e.ciHigh, 2.0, 1e-9);
  // Reproducible for a seed.
  const auto again = engine::bootstrapRatio(a, b, 1000, 3);
  EXPECT_EQ(again.ciLow, e.ciLow);
  EXPECT_THROW((void)engine::bootstrapRatio(a, std::vector<double>{1.0}, 100, 1), engine::Error);
}

// Microsecond queries: the clock reads inside every CPU figure pull the CPU benefit toward 1; the
// report says so once, naming the sets where they reach 10 % of the per-query median (one warning
// per set filled the Compare page).
TEST(CompareStats, ClockReadsAreNamedWhenTheyAreALargeShareOfTheSamples) {
  const auto w = engine::clockShareWarning({{"rare-2", 0.002}, {"mid-df-2", 0.004}, {"seq-2", 0.0041}}, 0.0004);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, "the clock reads timing each query (about 0.4 us, the same for every target) are 10 % or more of the "
                "median thread CPU per query on 2 of 3 sets (rare-2 20 %, mid-df-2 10 %): every CPU figure of those "
                "sets includes them, which pulls each CPU benefit toward 1");
  EXPECT_FALSE(engine::clockShareWarning({{"s", 0.0041}}, 0.0004).has_value());
  EXPECT_FALSE(engine::clockShareWarning({{"s", 0.001}}, 0.0).has_value());
  EXPECT_FALSE(engine::clockShareWarning({{"s", std::numeric_limits<double>::infinity()}}, 0.0004).has_value());
  EXPECT_FALSE(engine::clockShareWarning({}, 0.0004).has_value());
}

TEST(CompareStats, Verdicts) {
  EXPECT_EQ(engine::ratioVerdict(1.10, 1.30, 0.02), "faster");
  EXPECT_EQ(engine::ratioVerdict(0.50, 0.80, 0.02), "slower");
  EXPECT_EQ(engine::ratioVerdict(0.99, 1.01, 0.02), "no-difference");
  EXPECT_EQ(engine::ratioVerdict(1.00, 1.10, 0.02), "inconclusive");
  EXPECT_EQ(engine::ratioVerdict(0.90, 1.10, 0.02), "inconclusive");
  EXPECT_NEAR(engine::aaNoiseFloor(0.97, 1.02), 1 / 0.97 - 1, 1e-12);
  EXPECT_EQ(engine::speedupText(1.234), "1.234x speedup");
  EXPECT_EQ(engine::speedupText(1.005), "1.005x speedup");  // was "1.00x" beside [1.002x, 1.008x]
  // B's time change, named as such: "+71.2 %" alone beside "0.58x speedup" read as a benefit.
  EXPECT_EQ(engine::percentText(2.0), "time -50.0 %");
  EXPECT_EQ(engine::percentText(0.5), "time +100.0 %");
  EXPECT_DOUBLE_EQ(engine::medianOf({3, 1, 2, 10}), 2.5);
  EXPECT_DOUBLE_EQ(engine::medianOf({3, 1, 2}), 2);
}

TEST(ResultDiff, ExactDocIdsAndScoreBits) {
  const std::vector<TargetHit> a{{1, 3.0f}, {2, 2.0f}, {3, 1.0f}};
  EXPECT_FALSE(engine::diffHits(a, a).any());
  auto b = a;
  b[2].score = std::nextafter(1.0f, 2.0f);  // one ULP
  auto d = engine::diffHits(a, b);
  EXPECT_TRUE(d.scoreBitsDiffer);
  EXPECT_FALSE(d.rowSetDiffers);
  EXPECT_EQ(d.firstDivergingRank, 3u);
  b = {{1, 3.0f}, {3, 2.0f}, {2, 2.0f}};  // same set and bits, a tie broken the other way
  d = engine::diffHits({{1, 3.0f}, {2, 2.0f}, {3, 2.0f}}, b);
  EXPECT_TRUE(d.orderDiffers);
  EXPECT_FALSE(d.scoreBitsDiffer);
  EXPECT_EQ(d.firstDivergingRank, 2u);
  b = {{1, 3.0f}, {2, 2.0f}};
  d = engine::diffHits(a, b);
  EXPECT_TRUE(d.rowSetDiffers);
  EXPECT_EQ(d.firstDivergingRank, 3u);

  engine::ResultDiff total;
  engine::addQueryDiff(total, "q1", true, engine::diffHits(a, a));
  engine::addQueryDiff(total, "q2", true, d);
  engine::addQueryDiff(total, "q3", false, {});
  EXPECT_EQ(total.queries, 3u);
  EXPECT_EQ(total.rowSetDiff, 1u);
  EXPECT_EQ(total.failed, 1u);
  EXPECT_EQ(total.differingQueries, (std::vector<std::string>{"q2", "q3"}));
  EXPECT_TRUE(total.differs());
}

engine::CompareReport compare(const std::string& a, const std::string& b, double noiseFloor, bool aa = false,
                              unsigned repetitions = 3) {
  const auto& f = pluginFixture();
  auto profile = engine::loadBenchProfile(f.profile);
  engine::CompareOptions o;
  o.repetitions = repetitions;
  o.warmupSeconds = 0.05;
  o.noiseFloor = noiseFloor;
  o.aa = aa;
  o.bootstrapSamples = 1000;
  return engine::CompareRunner(profile, a, b, o).run();
}

const engine::CompareScenario& cpuRow(const engine::CompareReport& r) {
  for (const auto& s : r.scenarios) {
    if (s.metric == "cpu_ms_per_query") return s;
  }
  throw std::runtime_error("no CPU scenario");
}

const std::string kFast = std::string("plugin:") + WANDSCOPE_TEST_PLUGIN_FAST;
const std::string kSlow = std::string("plugin:") + WANDSCOPE_TEST_PLUGIN_SLOW;

// A target with its own k (or op) answers other queries than A: the report says so rather than
// leave a speed-up beside 'results differ' unexplained (a walkthrough compared op=or with op=and).
TEST(Compare, SaysWhenATargetAnswersOtherQueries) {
  const auto warned = [](const engine::CompareReport& r) {
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [](const std::string& w) { return w.find("answers other queries than A") != std::string::npos; });
  };
  const auto other = compare(kFast, kFast + ":k=3", 0.02, false, 1);
  EXPECT_TRUE(warned(other));
  const auto same = compare(kFast, kSlow, 0.02, false, 1);
  EXPECT_FALSE(warned(same));
}

// Stop 37: a query's thread CPU came from a thread-CPU clock read on each side of it, a system
// call that on some hosts empties the TLB and so cost the query more than the read itself (PERF.md,
// "Clock reads and the TLB"). The clock is read at a block's ends now and a query's CPU is its
// wall time times its block's on-CPU share: never above its wall time, where the reads, outside
// the wall-time bracket, put every unpreempted query's CPU above it.
TEST(Compare, PerQueryCpuIsTheWallTimesTheBlocksOnCpuShare) {
  const auto r = compare(kFast, kSlow, 0.02, false, 2);
  ASSERT_EQ(r.scenarios.size(), 2u);
  const auto& cpu = r.scenarios[0];
  const auto& wall = r.scenarios[1];
  ASSERT_EQ(cpu.metric, "cpu_ms_per_query");
  ASSERT_EQ(wall.metric, "p50_ms");
  EXPECT_GT(cpu.aGeomean, 0.0);
  EXPECT_LE(cpu.aGeomean, wall.aGeomean);
  EXPECT_LE(cpu.bGeomean, wall.bGeomean);
  for (const auto& w : r.warnings) EXPECT_EQ(w.find("empties the TLB"), std::string::npos) << w;
  EXPECT_DOUBLE_EQ(engine::onCpuShare(500, 1000), 0.5);
  EXPECT_DOUBLE_EQ(engine::onCpuShare(1001, 1000), 1.0) << "the clocks tick apart; never above 1";
  EXPECT_DOUBLE_EQ(engine::onCpuShare(0, 0), 1.0) << "an empty block";
  EXPECT_DOUBLE_EQ(engine::onCpuShare(-1, 1000), 1.0);
}

TEST(Compare, FindsTheSlowBuildSlowerWithAnIntervalExcludingOne) {
  const auto r = compare(kFast, kSlow, 0.02);
  EXPECT_EQ(r.a.buildId, "test-fast");
  EXPECT_EQ(r.b.buildId, "test-slow");
  ASSERT_EQ(r.scenarios.size(), 2u);
  for (const auto& s : r.scenarios) {
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.estimate.verdict, "slower");
    EXPECT_LT(s.estimate.ciHigh, 1.0);
    EXPECT_LT(s.estimate.ratio, 1.0);
    EXPECT_GT(s.b, s.a);
    // The same work: results identical to the bit.
    EXPECT_EQ(s.diff.queries, 60u);
    EXPECT_EQ(s.diff.rowSetDiff, 0u);
    EXPECT_EQ(s.diff.scoreBitDiff, 0u);
    EXPECT_FALSE(s.diff.firstDivergingRank.has_value());
    EXPECT_EQ(s.samplesPerQuery, 6u);  // 3 repetitions x 2 blocks per target
  }
  // 200 us of spin per query: B costs at least ~0.15 ms more per query.
  EXPECT_GT(cpuRow(r).b - cpuRow(r).a, 0.15);
  // Swapped, the same build is faster.
  const auto swapped = compare(kSlow, kFast, 0.02);
  EXPECT_EQ(cpuRow(swapped).estimate.verdict, "faster");
  EXPECT_GT(cpuRow(swapped).estimate.ciLow, 1.0);
}

TEST(Compare, AnAARunOfOneBuildFindsNoDifference) {
  // The floor is loose (10 %) because this runs on shared CI machines with queries of a few
  // microseconds; the point is that identical builds are not called faster or slower.
  // Identical builds must never be called faster or slower. On an idle machine the verdict is
  // no-difference; on a loaded one the interval can straddle the floor ("inconclusive"), which
  // is the honest answer there (a clean-clone CI run under load failed an exact no-difference).
  // Under a load of 10 on two cores a single run was seen to call one side faster: drift that
  // ABBA balances only on average. So up to three runs, and a systematic bias (every run calling
  // the same build different) still fails.
  std::string seen;
  bool calm = false;
  for (int attempt = 0; attempt < 3 && !calm; ++attempt) {
    const auto r = compare(kFast, kFast, 0.10, false, 5);
    const auto& s = cpuRow(r);
    seen += fmt::format("{} {:.3f} [{:.3f}, {:.3f}]; ", s.estimate.verdict, s.estimate.ratio, s.estimate.ciLow,
                        s.estimate.ciHigh);
    calm = (s.estimate.verdict == "no-difference" || s.estimate.verdict == "inconclusive") &&
           s.estimate.ciLow <= 1.1 && s.estimate.ciHigh >= 1 / 1.1;
  }
  EXPECT_TRUE(calm) << seen;
}

TEST(Compare, BuiltinAgainstAPluginBuildAndTheAACalibration) {
  const auto r = compare("builtin", kFast, 0.02, true);
  ASSERT_EQ(r.aaScenarios.size(), 2u);
  ASSERT_EQ(r.scenarios.size(), 2u);
  for (const auto& s : r.scenarios) {
    EXPECT_FALSE(s.diff.differs());
    // The A/A interval can only raise the floor.
    EXPECT_GE(s.estimate.noiseFloor, 0.02);
  }
  const auto j = nlohmann::json::parse(engine::compareReportJson(r));
  ASSERT_EQ(j["scenarios"].size(), 2u);
  for (const char* key : {"name", "metric", "a", "b", "ratio", "ci_low", "ci_high", "verdict", "row_set_diff",
                          "score_bit_diff", "first_diverging_rank"}) {
    EXPECT_TRUE(j["scenarios"][0].contains(key)) << key;
  }
  EXPECT_TRUE(j["scenarios"][0]["first_diverging_rank"].is_null());
  EXPECT_EQ(j["scenarios"][0]["row_set_diff"], 0);
  EXPECT_EQ(j["aa_scenarios"].size(), 2u);
  const std::string md = engine::compareReportMarkdown(r);
  EXPECT_NE(md.find("| Scenario / metric | A: builtin | B: " + kFast + " | Benefit vs A |"), std::string::npos) << md;
  EXPECT_NE(md.find("random, CPU ms/query"), std::string::npos);
  EXPECT_NE(md.find("A/A calibration"), std::string::npos);
  EXPECT_EQ(md.find("Results differ"), std::string::npos);
}

TEST(Compare, DifferentResultsFlagTheHeadline) {
  // k=5 against k=10: the same engine returning less is different work, and the report says so.
  const auto r = compare("builtin", "builtin:k=5", 0.02);
  const auto& s = cpuRow(r);
  EXPECT_GT(s.diff.rowSetDiff, 0u);
  EXPECT_EQ(s.diff.firstDivergingRank, 6u);
  EXPECT_FALSE(s.diff.differingQueries.empty());
  const std::string md = engine::compareReportMarkdown(r);
  EXPECT_NE(md.find("Results differ"), std::string::npos);
  EXPECT_NE(md.find("⚠ results differ"), std::string::npos);
}

TEST(CompareRunner, BlockOrderIsAbbaGeneralisedWithTheLeadRotating) {
  using V = std::vector<std::size_t>;
  EXPECT_EQ(engine::CompareRunner::blockOrder(2, 0), (V{0, 1, 1, 0}));  // ABBA
  EXPECT_EQ(engine::CompareRunner::blockOrder(2, 1), (V{1, 0, 0, 1}));  // BAAB
  EXPECT_EQ(engine::CompareRunner::blockOrder(2, 2), (V{0, 1, 1, 0}));
  EXPECT_EQ(engine::CompareRunner::blockOrder(3, 0), (V{0, 1, 2, 2, 1, 0}));
  EXPECT_EQ(engine::CompareRunner::blockOrder(3, 1), (V{1, 2, 0, 0, 2, 1}));
  EXPECT_EQ(engine::CompareRunner::blockOrder(3, 2), (V{2, 0, 1, 1, 0, 2}));
  // Fair: over n rounds every target leads once and every target runs 2n blocks.
  for (std::size_t n = 2; n <= 5; ++n) {
    std::vector<std::size_t> blocks(n), leads(n);
    for (unsigned r = 0; r < n; ++r) {
      const auto order = engine::CompareRunner::blockOrder(n, r);
      ASSERT_EQ(order.size(), 2 * n);
      ++leads[order.front()];
      for (const auto t : order) ++blocks[t];
    }
    EXPECT_EQ(blocks, std::vector<std::size_t>(n, 2 * n)) << n;
    EXPECT_EQ(leads, std::vector<std::size_t>(n, 1)) << n;
  }
}

// Stop 43: a block started from the cache state the other target's block had left, which on a
// shared host decays with elapsed time: the faster target's figure depended on how long the other
// target's block ran (rare-3 OR `auto`: 12.8-14.8 us beside exhaustive, 7.5-9.3 beside `taat`, the
// same path; PERF.md, "Cache state between blocks"). Each timed block now follows untimed passes
// of its own target over the same queries.
TEST(Compare, EachTimedBlockFollowsWarmPassesOfItsOwnTarget) {
  const auto& f = pluginFixture();
  struct Pass {
    std::size_t target;
    bool timed;
    bool operator==(const Pass&) const = default;
  };
  const auto schedule = [&](unsigned warmPasses, engine::CompareReport& report) {
    engine::CompareOptions o;
    o.repetitions = 2;
    o.warmupSeconds = 0;
    o.bootstrapSamples = 200;
    o.warmPasses = warmPasses;
    std::vector<Pass> passes;
    o.onPass = [&](const engine::ComparePass& p) {
      EXPECT_EQ(p.set, 0u);
      EXPECT_FALSE(p.aa);
      passes.push_back({p.target, p.timed});
    };
    report = engine::CompareRunner(engine::loadBenchProfile(f.profile), kFast, kSlow, o).run();
    return passes;
  };
  engine::CompareReport r;
  std::vector<Pass> expected;
  for (const std::size_t t : {0, 1, 1, 0, 1, 0, 0, 1}) {  // ABBA, BAAB
    expected.push_back({t, false});
    expected.push_back({t, false});
    expected.push_back({t, true});
  }
  EXPECT_EQ(schedule(2, r), expected);
  EXPECT_EQ(r.warmPasses, 2u);
  EXPECT_EQ(cpuRow(r).samplesPerQuery, 4u) << "warm passes are never samples";
  EXPECT_NE(r.method.find("each preceded by 2 untimed passes of its own target"), std::string::npos) << r.method;
  EXPECT_EQ(nlohmann::json::parse(engine::compareReportJson(r))["method"]["warm_passes"], 2);

  // 0: the method before stop 43, timed blocks back to back.
  expected.clear();
  for (const std::size_t t : {0, 1, 1, 0, 1, 0, 0, 1}) expected.push_back({t, true});
  EXPECT_EQ(schedule(0, r), expected);
  EXPECT_EQ(r.warmPasses, 0u);
  EXPECT_EQ(r.method.find("untimed pass"), std::string::npos) << r.method;

  engine::CompareOptions bad;
  bad.warmPasses = engine::CompareOptions::kMaxWarmPasses + 1;
  EXPECT_THROW(engine::CompareRunner(engine::loadBenchProfile(f.profile), kFast, kSlow, bad), engine::Error);
}

// A stop during the last block's warm passes kept the set with that block missing (one target
// with fewer samples than the other) instead of dropping it (review, stop 43).
TEST(Compare, AStopDuringTheLastWarmPassDropsTheSet) {
  const auto& f = pluginFixture();
  engine::CompareOptions o;
  o.repetitions = 1;
  o.warmupSeconds = 0;
  o.bootstrapSamples = 200;
  o.warmPasses = 2;
  std::stop_source stop;
  o.stop = stop.get_token();
  std::size_t passes = 0;
  o.onPass = [&](const engine::ComparePass& p) {
    // ABBA: the fourth block (A) is the last; stop on its second warm pass.
    if (++passes == 3 * 3 + 2) {
      EXPECT_EQ(p.target, 0u);
      EXPECT_FALSE(p.timed);
      stop.request_stop();
    }
  };
  const auto r = engine::CompareRunner(engine::loadBenchProfile(f.profile), kFast, kSlow, o).run();
  EXPECT_EQ(passes, 3u * 3 + 2) << "nothing ran after the stop";
  EXPECT_TRUE(r.partial);
  EXPECT_TRUE(r.scenarios.empty()) << "a set missing a timed block is not reported";
}

// Three targets in one run: A (the fast build), B (the slow build: 200 us of spin per query) and
// B2 (the built-in engine returning 5 hits instead of 10). Each B gets its own rows, estimate,
// verdict and result equality against A; the report lists all three.
TEST(Compare, ThreeTargetsEachBAgainstAWithItsOwnVerdictAndResults) {
  const auto& f = pluginFixture();
  auto profile = engine::loadBenchProfile(f.profile);
  engine::CompareOptions o;
  o.repetitions = 2;
  o.warmupSeconds = 0.02;
  o.bootstrapSamples = 500;
  std::vector<std::string> lines;
  o.onMessage = [&](const std::string& m) { lines.push_back(m); };
  std::size_t batches = 0;
  o.onScenarios = [&](const std::vector<engine::CompareScenario>& rows, const std::vector<engine::CompareScenario>&) {
    ++batches;
    EXPECT_EQ(rows.size(), 4u);  // CPU and p50 for B, then for B2
  };
  const auto r = engine::CompareRunner(profile, {kFast, kSlow, "builtin:k=5"}, o).run();
  ASSERT_EQ(r.targetCount(), 3u);
  EXPECT_EQ(r.a.buildId, "test-fast");
  EXPECT_EQ(r.b.buildId, "test-slow");
  EXPECT_EQ(r.more[0].spec, "builtin:k=5");
  EXPECT_EQ(batches, 1u);
  ASSERT_EQ(r.scenarios.size(), 4u);
  const std::vector<std::size_t> targets{1, 1, 2, 2};
  for (std::size_t i = 0; i < r.scenarios.size(); ++i) {
    const auto& s = r.scenarios[i];
    SCOPED_TRACE(s.name + " vs target " + std::to_string(s.target));
    EXPECT_EQ(s.target, targets[i]);
    EXPECT_EQ(s.metric, i % 2 == 0 ? "cpu_ms_per_query" : "p50_ms");
    EXPECT_EQ(s.samplesPerQuery, 4u);  // 2 rounds x 2 blocks per target
    EXPECT_TRUE(s.estimate.verdict == "faster" || s.estimate.verdict == "slower" ||
                s.estimate.verdict == "no-difference" || s.estimate.verdict == "inconclusive");
    EXPECT_LE(s.estimate.ciLow, s.estimate.ratio);
    EXPECT_GE(s.estimate.ciHigh, s.estimate.ratio);
    EXPECT_EQ(s.diff.queries, 60u);
  }
  // A's figures are shared; each B's are its own.
  EXPECT_EQ(r.scenarios[0].a, r.scenarios[2].a);
  EXPECT_NE(r.scenarios[0].b, r.scenarios[2].b);
  // B: the same results as A, to the bit; B2: 5 hits where A has 10.
  EXPECT_FALSE(r.scenarios[0].diff.differs());
  EXPECT_FALSE(r.scenarios[0].diff.firstDivergingRank);
  EXPECT_GT(r.scenarios[2].diff.rowSetDiff, 0u);
  EXPECT_EQ(r.scenarios[2].diff.firstDivergingRank, 6u);
  EXPECT_FALSE(r.scenarios[2].diff.differingQueries.empty());
  // The spin makes B slower than A whatever the load (the two-target test's contrast).
  EXPECT_EQ(r.scenarios[0].estimate.verdict, "slower");
  // One progress line per B for the set.
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find(", B "), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(", B2 "), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("DIFFER"), std::string::npos) << lines[1];

  const auto j = nlohmann::json::parse(engine::compareReportJson(r));
  ASSERT_EQ(j["targets"].size(), 3u);
  EXPECT_EQ(j["scenarios"][2]["target"], 2);
  EXPECT_EQ(j["scenarios"][2]["first_diverging_rank"], 6);
  EXPECT_TRUE(j["scenarios"][0]["first_diverging_rank"].is_null());
  const std::string md = engine::compareReportMarkdown(r);
  EXPECT_NE(md.find("| B2: builtin:k=5 | Benefit B vs A |"), std::string::npos) << md;
  EXPECT_NE(md.find("⚠ results differ (B2)"), std::string::npos) << md;
}

TEST(Compare, BadOptionsAndBadPluginsAreRefused) {
  const auto& f = pluginFixture();
  auto profile = engine::loadBenchProfile(f.profile);
  engine::CompareOptions o;
  o.repetitions = 0;
  EXPECT_THROW(engine::CompareRunner(profile, "builtin", "builtin", o), engine::Error);
  o = {};
  o.noiseFloor = -1;
  EXPECT_THROW(engine::CompareRunner(profile, "builtin", "builtin", o), engine::Error);
  o = {};
  EXPECT_THROW(engine::CompareRunner(profile, std::vector<std::string>{"builtin"}, o), engine::Error);
  try {
    (void)engine::CompareRunner(profile, "builtin", "plugin:/nonexistent.so", o).run();
    FAIL();
  } catch (const engine::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wandscope::test
