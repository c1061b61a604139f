// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/open_compare.h"

#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_report_writer.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/compare_stats.h"
#include "engine/bench/environment.h"
#include "engine/core/wording.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wandscope::test {
namespace {

using engine::BenchProfile;

BenchProfile syntheticOpen(const std::string& ladder) {
  return engine::parseBenchProfile(R"({"name": "open-compare", "targets": ["synthetic:service_us=100"],
      "mode": "open", "ladder": )" + ladder +
                                       R"(, "rule": {"min_achieved_ratio": 0.5, "max_latency_ratio": 1000, "late_dispatch_us": 1000000}})",
                                   "open-compare.json", "");
}

engine::CompareOptions quickOptions() {
  engine::CompareOptions o;
  o.repetitions = 1;  // one AB pair of ladders
  o.bootstrapSamples = 400;
  return o;
}

TEST(CompareStats, QuantileRatioOfUnpairedSamples) {
  std::vector<double> a, b;
  for (int i = 1; i <= 1000; ++i) a.push_back(i);
  for (int i = 1; i <= 700; ++i) b.push_back(i * 0.5);  // another size: not paired
  const auto e = engine::bootstrapQuantileRatio(a, b, 0.5, 1000, 7);
  EXPECT_DOUBLE_EQ(e.ratio, 500.0 / 175.0);  // nearest rank: a_(500) = 500, b_(350) = 175
  EXPECT_LE(e.ciLow, e.ratio);
  EXPECT_GE(e.ciHigh, e.ratio);
  EXPECT_GT(e.ciLow, 2.0);
  EXPECT_EQ(engine::ratioVerdict(e.ciLow, e.ciHigh, 0.02), "faster");
  // The same seed gives the same interval; the other way round inverts it.
  const auto again = engine::bootstrapQuantileRatio(a, b, 0.5, 1000, 7);
  EXPECT_EQ(again.ciLow, e.ciLow);
  EXPECT_EQ(again.ciHigh, e.ciHigh);
  const auto inverse = engine::bootstrapQuantileRatio(b, a, 0.5, 0, 7);
  EXPECT_DOUBLE_EQ(inverse.ratio, 175.0 / 500.0);
}

TEST(OpenCompare, LaddersAlternateInAbbaOrder) {
  const std::vector<bool> expected{true, false, false, true, true, false, false, true};
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(engine::openLadderTarget(k, 2) == 0, expected[k]) << k;
}

TEST(OpenCompare, LaddersOfThreeTargetsRotate) {
  // ABC, BCA, CAB: every target once per round, each leading once in three rounds.
  const std::vector<std::size_t> expected{0, 1, 2, 1, 2, 0, 2, 0, 1};
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(engine::openLadderTarget(k, 3), expected[k]) << k;
}

// Three targets' ladders at the same absolute rates: per rate a p50 row for each B against A,
// capacity per target, live points assigned to the target whose ladder ran. Nothing about speed
// is asserted here (the two-target test above does that with a wide contrast).
TEST(OpenCompare, ThreeTargetsEachBComparedWithAAtTheSameRates) {
  auto profile = syntheticOpen(R"({"rates": [300, 600], "settle_s": 0.02, "requests": 210, "workers": 4,
                                   "in_flight_cap": 1000})");
  engine::CompareOptions o = quickOptions();
  std::vector<engine::OpenLatencyPoint> points;
  o.onOpenLatency = [&](const engine::OpenLatencyPoint& p) { points.push_back(p); };
  const std::vector<std::string> specs{"synthetic:service_us=100", "synthetic:service_us=300",
                                       "synthetic:service_us=200"};
  const auto report = engine::CompareRunner(profile, specs, o).run();
  EXPECT_EQ(report.mode, "open");
  ASSERT_FALSE(report.partial);
  ASSERT_EQ(report.targetCount(), 3u);
  ASSERT_EQ(points.size(), 6u);  // 3 ladders x 2 rates
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].ladder, i / 2) << i;
    EXPECT_EQ(points[i].target, i / 2) << i;  // round 0: A, B, B2
    EXPECT_EQ(points[i].a, i < 2) << i;
  }
  // p50 at both rates for B and for B2 (p99 is too thin at 210 requests).
  ASSERT_EQ(report.scenarios.size(), 4u);
  std::vector<std::pair<double, std::size_t>> seen;
  for (const auto& s : report.scenarios) {
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.metric, "open_p50_ms");
    ASSERT_TRUE(s.offeredRate);
    seen.emplace_back(*s.offeredRate, s.target);
    EXPECT_FALSE(s.estimate.verdict.empty());
    EXPECT_GE(s.samplesPerQuery, 200u);
  }
  EXPECT_EQ(seen, (std::vector<std::pair<double, std::size_t>>{{300, 1}, {300, 2}, {600, 1}, {600, 2}}));
  // A's figure at a rate is the same in B's row and in B2's.
  EXPECT_EQ(report.scenarios[0].a, report.scenarios[1].a);
  ASSERT_EQ(report.capacity.size(), 3u);
  for (std::size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(report.capacity[t].target, engine::CompareReport::targetLabel(t));
    EXPECT_EQ(report.capacity[t].spec, specs[t]);
    EXPECT_EQ(report.capacity[t].ladders, 1u);
    EXPECT_EQ(report.capacity[t].rates, (std::vector<double>{300, 600}));
  }
  EXPECT_NE(report.capacityVerdict.find("B2 sustains"), std::string::npos) << report.capacityVerdict;
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("Benefit B2 vs A"), std::string::npos) << md;
  EXPECT_NE(md.find("| B2: synthetic:service_us=200 | 1 |"), std::string::npos) << md;
}

// B spins a hundred times longer per request (10 ms against 100 us: on a 2-core machine under a
// load of 10, scheduling alone pushed a 150 us target's p50 to 2.7 ms, so the contrast is wide):
// at both offered rates its due-time p50 is higher, with an interval excluding 1; p99 is not
// compared (it needs 10,000 samples per target).
TEST(OpenCompare, FindsTheSlowerTargetSlowerAtEveryOfferedRate) {
  auto profile = syntheticOpen(R"({"rates": [50, 100], "settle_s": 0.05, "requests": 220, "workers": 4,
                                   "in_flight_cap": 1000})");
  engine::CompareRunner runner(profile, "synthetic:service_us=100", "synthetic:service_us=10000", quickOptions());
  const auto report = runner.run();
  EXPECT_EQ(report.mode, "open");
  EXPECT_FALSE(report.partial);
  ASSERT_EQ(report.scenarios.size(), 2u);  // p50 at each rate
  for (const auto& s : report.scenarios) {
    EXPECT_EQ(s.metric, "open_p50_ms") << s.name;
    EXPECT_GT(s.b, s.a) << s.name;
    EXPECT_LT(s.estimate.ciHigh, 1.0) << s.name;
    EXPECT_EQ(s.estimate.verdict, "slower") << s.name;
    EXPECT_GE(s.samplesPerQuery, 220u) << s.name;
  }
  bool thinP99 = false;
  bool tlb = false;
  for (const auto& w : report.warnings) {
    thinP99 = thinP99 || w.find("p99 not compared") != std::string::npos;
    tlb = tlb || w.find("empties the TLB") != std::string::npos;
  }
  EXPECT_TRUE(thinP99);
  // The open loop reads the thread-CPU clock around every request: said where that empties the
  // TLB, on this host's own answer (closed comparisons read it per block and never say it).
  EXPECT_EQ(tlb, engine::collectEnvironment().syscallsFlushTlb);
  ASSERT_EQ(report.capacity.size(), 2u);
  for (const auto& c : report.capacity) {
    EXPECT_EQ(c.ladders, 1u) << c.target;
    EXPECT_EQ(c.rates, (std::vector<double>{50, 100})) << c.target;
  }
  EXPECT_EQ(report.capacity[0].spec, "synthetic:service_us=100");
  EXPECT_EQ(report.capacity[1].spec, "synthetic:service_us=10000");
  const std::string md = engine::compareReportMarkdown(report);
  EXPECT_NE(md.find("## Open loop"), std::string::npos) << md;
  EXPECT_NE(md.find("### Capacity"), std::string::npos) << md;
  const std::string json = engine::compareReportJson(report);
  EXPECT_NE(json.find("\"mode\": \"open\""), std::string::npos);
  EXPECT_NE(json.find("\"capacity_verdict\""), std::string::npos);
}

// The live points: one per rung, ladders in ABBA order, each target's latency pooled over its
// ladders so far. 120 requests per rung are too thin for a p50 (200) until a target's second
// ladder, whose points are then exactly the report's figures.
TEST(OpenCompare, LivePointsPoolEachTargetsLaddersIntoTheReportsFigures) {
  auto profile = syntheticOpen(R"({"rates": [200, 400], "settle_s": 0.05, "requests": 120, "workers": 4,
                                   "in_flight_cap": 1000})");
  engine::CompareOptions o = quickOptions();
  o.repetitions = 2;  // ladders A, B, B, A
  std::vector<engine::OpenLatencyPoint> points;
  o.onOpenLatency = [&](const engine::OpenLatencyPoint& p) { points.push_back(p); };
  engine::CompareRunner runner(profile, "synthetic:service_us=100", "synthetic:service_us=2000", o);
  const auto report = runner.run();
  ASSERT_FALSE(report.partial);
  ASSERT_EQ(points.size(), 8u);  // 4 ladders x 2 rates
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(p.ladder, i / 2);
    EXPECT_EQ(p.a, engine::openLadderTarget(i / 2, 2) == 0);
    EXPECT_EQ(p.rate, i % 2 == 0 ? 200.0 : 400.0);
    EXPECT_FALSE(p.p99Ms);  // 10,000 samples
    if (i < 4) {  // each target's first ladder: one rung's requests, too thin for a p50
      EXPECT_LE(p.samples, 120u);
      EXPECT_FALSE(p.p50Ms);
    }
  }
  // The last ladder of B (ladder 2) and of A (ladder 3) pool two rungs per rate.
  ASSERT_EQ(report.scenarios.size(), 2u);
  for (std::size_t j = 0; j < 2; ++j) {
    const auto& s = report.scenarios[j];
    SCOPED_TRACE(s.name);
    ASSERT_EQ(s.metric, "open_p50_ms");
    const auto& b = points[4 + j];
    const auto& a = points[6 + j];
    ASSERT_TRUE(s.offeredRate);
    ASSERT_EQ(*s.offeredRate, a.rate);
    ASSERT_TRUE(a.p50Ms && b.p50Ms);
    EXPECT_GT(a.samples, 120u);
    EXPECT_EQ(*a.p50Ms, s.a);
    EXPECT_EQ(*b.p50Ms, s.b);
  }
}

// A ladder in multiples is resolved once, against A's calibrated throughput, so both targets are
// offered the same absolute rates.
TEST(OpenCompare, MultiplesAreResolvedAgainstAsThroughputForBothTargets) {
  auto profile = syntheticOpen(R"({"multiples": [0.1, 0.2], "calibration_s": 0.3, "calibration_warmup_s": 0.05,
                                   "calibration_min_requests": 50, "settle_s": 0.05, "requests": 100,
                                   "workers": 2, "in_flight_cap": 1000})");
  engine::CompareOptions o = quickOptions();
  std::vector<std::string> messages;
  o.onMessage = [&](const std::string& m) { messages.push_back(m); };
  const BenchProfile resolved = engine::openComparisonProfile(profile, "synthetic:service_us=500",
                                                              "synthetic:service_us=100", o);
  ASSERT_EQ(resolved.ladder.rates.size(), 2u);
  EXPECT_TRUE(resolved.ladder.multiples.empty());
  EXPECT_NEAR(resolved.ladder.rates[1], 2 * resolved.ladder.rates[0], 1e-9);
  // One client spinning 500 us: at most 2,000/s, and on a shared machine well above 50/s.
  EXPECT_GT(resolved.ladder.rates[0], 5.0);
  EXPECT_LT(resolved.ladder.rates[0], 200.0);
  EXPECT_FALSE(resolved.ladder.stopAfterFail);
  EXPECT_EQ(resolved.targets, (std::vector<std::string>{"synthetic:service_us=500", "synthetic:service_us=100"}));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.front().find("calibrated A"), std::string::npos) << messages.front();
  // In the reports' words: "2.132e+05 requests/s" was its old form.
  EXPECT_NE(messages.front().find("calibrated A (synthetic:service_us=500): " +
                                  engine::formatRate(resolved.ladder.rates[0] / 0.1) + ";"),
            std::string::npos)
      << messages.front();
}

}  // namespace
}  // namespace wandscope::test
