// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/saturation_rule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace wandscope::test {
namespace {

using engine::RungResult;
using engine::SaturationRule;

RungResult healthy(double rate) {
  RungResult r;
  r.mode = "open";
  r.targetRate = rate;
  r.achievedRate = rate;
  r.completed = 10000;
  r.p50Ms = 2.0;
  r.p90Ms = 3.0;
  r.p99Ms = 5.0;
  r.durationSeconds = 10;
  r.latencyGrowth = 0.01;
  return r;
}

TEST(SaturationRule, PassesAHealthyRung) {
  const SaturationRule rule;
  const auto first = healthy(100);
  const auto r = healthy(200);
  const auto v = engine::judgeRung(rule, r, &first, true);
  EXPECT_EQ(v.verdict, "pass");
  EXPECT_TRUE(v.criterion.empty());
  EXPECT_TRUE(v.valid);
}

// A window with too few requests due cannot be judged: one request due in a microsecond window
// was "offered 1e+06/s", and a window with none failed on "achieved 0/s" (helper review, stop 32).
TEST(SaturationRule, ARungWithTooFewRequestsIsInvalidNotJudged) {
  const SaturationRule rule;
  for (const std::uint64_t completed : {std::uint64_t{0}, std::uint64_t{1}, SaturationRule::kMinRequests - 1}) {
    auto r = healthy(0.5);
    r.completed = completed;
    r.achievedRate = 0;
    const auto v = engine::judgeRung(rule, r, nullptr, true);
    EXPECT_EQ(v.verdict, "invalid") << completed;
    EXPECT_FALSE(v.valid);
    EXPECT_NE(v.criterion.find("too few requests to judge: " + std::to_string(completed) + " due"), std::string::npos)
        << v.criterion;
  }
  auto r = healthy(100);
  r.completed = SaturationRule::kMinRequests;
  EXPECT_EQ(engine::judgeRung(rule, r, nullptr, true).verdict, "pass");
}

// The growth criterion needs a window of four 1 s bins; a shorter rung's verdict says it was not
// judged (a 1,020/s rung over a 1,000/s target passed in 3 s with its queue growing).
TEST(SaturationRule, AGrowthTooShortToJudgeIsNamed) {
  const SaturationRule rule;
  auto r = healthy(1020);
  r.durationSeconds = 3;
  r.latencyGrowth.reset();
  const auto v = engine::judgeRung(rule, r, nullptr, true);
  EXPECT_EQ(v.verdict, "pass");
  EXPECT_EQ(v.unjudged, "latency growth (a window of 3 s; it needs 4 bins of at least 1 s)");
  EXPECT_TRUE(engine::judgeRung(rule, healthy(1020), nullptr, true).unjudged.empty());
}

TEST(SaturationRule, NamesEveryCriterionThatTripped) {
  const SaturationRule rule;
  const auto first = healthy(100);
  auto r = healthy(400);
  r.shed = 20;                // 20 / 10020 = 0.2 % > 0.1 %
  r.achievedRate = 380;       // 0.95 < 0.97
  r.p99Ms = 15.1;             // > 3 x 5
  r.latencyGrowth = 1.5;      // > 1
  const auto v = engine::judgeRung(rule, r, &first, true);
  EXPECT_EQ(v.verdict, "fail");
  EXPECT_NE(v.criterion.find("shed 0.20 % > 0.1 %"), std::string::npos) << v.criterion;
  EXPECT_NE(v.criterion.find("achieved 380/s < 0.97 x 400/s offered"), std::string::npos) << v.criterion;
  EXPECT_NE(v.criterion.find("p99 15.1 ms > 3 x first rung's 5 ms"), std::string::npos) << v.criterion;
  EXPECT_NE(v.criterion.find("latency growing"), std::string::npos) << v.criterion;
}

TEST(SaturationRule, LatencyUsesTheHighestQuantileShownInBoth) {
  const SaturationRule rule;
  auto first = healthy(100);
  first.p99Ms.reset();  // first rung too thin for p99: fall back to p90
  auto r = healthy(200);
  r.p99Ms = 100.0;      // would trip on p99, but p99 is not comparable
  r.p90Ms = 8.0;        // 8 < 3 x 3 -> pass
  EXPECT_EQ(engine::judgeRung(rule, r, &first, true).verdict, "pass");
  r.p90Ms = 9.5;
  const auto v = engine::judgeRung(rule, r, &first, true);
  EXPECT_EQ(v.verdict, "fail");
  EXPECT_NE(v.criterion.find("p90"), std::string::npos);
}

TEST(SaturationRule, ShedAtTheBoundaryAndBelowPasses) {
  const SaturationRule rule;
  auto r = healthy(100);
  r.completed = 999;
  r.shed = 1;  // exactly 0.1 %: not above
  EXPECT_EQ(engine::judgeRung(rule, r, nullptr, true).verdict, "pass");
  r.shed = 2;
  EXPECT_EQ(engine::judgeRung(rule, r, nullptr, true).verdict, "fail");
}

TEST(SaturationRule, AGeneratorThatFellBehindMakesTheRungInvalid) {
  const SaturationRule rule;
  auto r = healthy(100);
  r.lateDispatchFraction = 0.02;
  auto v = engine::judgeRung(rule, r, nullptr, true);
  EXPECT_EQ(v.verdict, "invalid");
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.criterion.find("generator behind"), std::string::npos);
  r.lateDispatchFraction = 0;
  r.partial = true;
  v = engine::judgeRung(rule, r, nullptr, true);
  EXPECT_EQ(v.verdict, "invalid");
  EXPECT_EQ(v.criterion, "cancelled");
}

TEST(SaturationRule, ErrorsAndUndrainedRequestsFail) {
  const SaturationRule rule;
  auto r = healthy(100);
  r.errors = 1;
  EXPECT_EQ(engine::judgeRung(rule, r, nullptr, true).verdict, "fail");
  r.errors = 0;
  r.notRun = 3;
  const auto v = engine::judgeRung(rule, r, nullptr, false);
  EXPECT_EQ(v.verdict, "fail");
  EXPECT_NE(v.criterion.find("did not drain"), std::string::npos);
}

TEST(SaturationRule, CapacityIsLastPassToFirstFail) {
  std::vector<RungResult> rungs = {healthy(10), healthy(20), healthy(40), healthy(80)};
  rungs[0].verdict = rungs[1].verdict = "pass";
  rungs[2].verdict = "fail";
  rungs[2].criterion = "shed 5 % > 0.1 %";
  rungs[3].verdict = "fail";
  std::vector<const RungResult*> ladder;
  for (const auto& r : rungs) ladder.push_back(&r);
  auto c = engine::capacityOf(ladder);
  EXPECT_EQ(c.lastPass, 20.0);
  EXPECT_EQ(c.firstFail, 40.0);
  EXPECT_EQ(c.criterion, "shed 5 % > 0.1 %");
  // All pass: the upper end is open.
  rungs[2].verdict = rungs[3].verdict = "pass";
  c = engine::capacityOf(ladder);
  EXPECT_EQ(c.lastPass, 80.0);
  EXPECT_FALSE(c.firstFail);
  // First rung fails: the lower end is open.
  rungs[0].verdict = "invalid";
  rungs[0].criterion = "cancelled";
  c = engine::capacityOf(ladder);
  EXPECT_FALSE(c.lastPass);
  EXPECT_EQ(c.firstFail, 10.0);
  EXPECT_EQ(c.criterion, "invalid: cancelled");
}

// The capacity in words. An interval whose upper end is an invalid rung was shown on the Load page
// as "[5876.7/s, 11753/s]", as if the target had failed at 11,753/s; the generator had fallen
// behind there, so nothing was learned about the target at that rate.
TEST(SaturationRule, CapacityWordsNeverPassAnInvalidRungOffAsAFailure) {
  using Capacity = engine::RunReport::Capacity;
  EXPECT_EQ(engine::describeCapacity(Capacity{20.0, 40.0, "shed 5 % > 0.1 %"}),
            "[20/s, 40/s] (first failing rung: shed 5 % > 0.1 %)");
  EXPECT_EQ(engine::describeCapacity(Capacity{5876.7, std::nullopt, ""}), "[5,877/s, above the last rung]");
  EXPECT_EQ(engine::describeCapacity(Capacity{std::nullopt, 10.0, "p99 9x"}),
            "[below the first rung, 10/s] (first failing rung: p99 9x)");
  EXPECT_EQ(engine::describeCapacity(Capacity{5876.7, 11753.0, "invalid: generator behind"}),
            "at least 5,877/s; the next rung, 11,753/s, could not be judged (invalid: generator behind)");
  // Rates in words as everywhere (engine::formatRate): never "1e+04/s" (review, stop 32).
  EXPECT_EQ(engine::describeCapacity(Capacity{10000.0, 30000.0, "shed"}), "[10,000/s, 30,000/s] (first failing rung: shed)");
  EXPECT_EQ(engine::describeCapacity(Capacity{std::nullopt, 10.0, "invalid: cancelled"}),
            "not established: the first rung, 10/s, could not be judged (invalid: cancelled)");
}

TEST(SaturationRule, TheilSenIgnoresOutliers) {
  std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<double> y = {1, 3, 5, 7, 900, 11, 13, 15};  // slope 2 with one wild point
  EXPECT_DOUBLE_EQ(*engine::theilSenSlope(x, y), 2.0);
  EXPECT_FALSE(engine::theilSenSlope({1}, {1}));
  EXPECT_NE(SaturationRule{}.describe().find("0.1 %"), std::string::npos);
}

}  // namespace
}  // namespace wandscope::test
