// SPDX-License-Identifier: GPL-3.0-or-later
// Target specs, the synthetic target's distributions and stall, the built-in target, workloads.
#include "engine/core/error.h"
#include "engine/loadgen/builtin_target.h"
#include "engine/loadgen/closed_loop_driver.h"
#include "engine/loadgen/synthetic_target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/loadgen/workload.h"
#include "engine/query/searcher.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <stop_token>
#include <thread>

namespace wandscope::test {
namespace {

using engine::SyntheticTarget;
using engine::TargetSpec;

std::string usageError(const std::string& spec) {
  try {
    SyntheticTarget t(TargetSpec::parse(spec));
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    return e.what();
  }
  ADD_FAILURE() << spec;
  return {};
}

TEST(TargetSpec, ParsesKindAndOptions) {
  const auto s = TargetSpec::parse(" synthetic:service_us=200, dist=exp ,stall_ms=300@2,flag ");
  EXPECT_EQ(s.kind, "synthetic");
  EXPECT_EQ(s.text, "synthetic:service_us=200, dist=exp ,stall_ms=300@2,flag");
  ASSERT_EQ(s.options.size(), 4u);
  EXPECT_EQ(s.options[1], (std::pair<std::string, std::string>{"dist", "exp"}));
  EXPECT_EQ(s.options[2].second, "300@2");
  EXPECT_EQ(s.options[3].second, "on");
  EXPECT_EQ(TargetSpec::parse("builtin").options.size(), 0u);
  EXPECT_THROW(TargetSpec::parse("lucene"), engine::Error);
  EXPECT_THROW(TargetSpec::parse("builtin:=3"), engine::Error);
}

TEST(SyntheticTarget, SpecErrorsNameTheOption) {
  EXPECT_EQ(usageError("synthetic"), "target 'synthetic': service_us: required");
  EXPECT_EQ(usageError("synthetic:service_us=abc"), "target 'synthetic:service_us=abc': service_us: not a number: 'abc'");
  EXPECT_EQ(usageError("synthetic:service_us=5,dist=gamma"),
            "target 'synthetic:service_us=5,dist=gamma': dist: expected const, exp or lognormal, got 'gamma'");
  EXPECT_EQ(usageError("synthetic:service_us=5,stall_ms=300"),
            "target 'synthetic:service_us=5,stall_ms=300': stall_ms: expected M@T (M ms, T s after the window starts)");
  EXPECT_EQ(usageError("synthetic:service_us=5,color=red"),
            "target 'synthetic:service_us=5,color=red': color: unknown option (expected service_us, dist, sigma, spin, "
            "stall_ms or seed)");
}

// Draws depend on (seed, sequence) only and have the configured distribution.
TEST(SyntheticTarget, DistributionsHaveTheConfiguredCentre) {
  SyntheticTarget c(TargetSpec::parse("synthetic:service_us=200"));
  EXPECT_EQ(c.serviceNsFor(0), 200'000);
  EXPECT_EQ(c.serviceNsFor(12345), 200'000);
  SyntheticTarget e(TargetSpec::parse("synthetic:service_us=200,dist=exp,seed=3"));
  SyntheticTarget l(TargetSpec::parse("synthetic:service_us=200,dist=lognormal,sigma=0.5,seed=3"));
  constexpr int kN = 100000;
  double sum = 0;
  std::vector<double> logn;
  for (int i = 0; i < kN; ++i) {
    sum += static_cast<double>(e.serviceNsFor(static_cast<std::uint64_t>(i)));
    logn.push_back(static_cast<double>(l.serviceNsFor(static_cast<std::uint64_t>(i))));
  }
  EXPECT_NEAR(sum / kN, 200'000.0, 200'000.0 * 0.02);  // mean of exp: 5 sd is 1.6 %
  std::sort(logn.begin(), logn.end());
  EXPECT_NEAR(logn[kN / 2], 200'000.0, 200'000.0 * 0.02);  // lognormal: the median
  EXPECT_EQ(e.serviceNsFor(77), SyntheticTarget(TargetSpec::parse("synthetic:service_us=200,dist=exp,seed=3")).serviceNsFor(77));
}

// sigma is bounded and every draw capped at 10 s: sigma=1e300 drew 0 or 1,000 s and hung a bench
// (review, stop 32).
TEST(SyntheticTarget, ShapeAndDrawsAreBounded) {
  EXPECT_EQ(usageError("synthetic:service_us=10,dist=lognormal,sigma=1e300"),
            "target 'synthetic:service_us=10,dist=lognormal,sigma=1e300': sigma: must be <= 4");
  SyntheticTarget wide(TargetSpec::parse("synthetic:service_us=10000000,dist=lognormal,sigma=4,seed=1"));
  std::int64_t most = 0;
  for (std::uint64_t i = 0; i < 10000; ++i) most = std::max(most, wide.serviceNsFor(i));
  EXPECT_EQ(most, static_cast<std::int64_t>(SyntheticTarget::kMaxServiceNs)) << "the cap is reached, not passed";
}

// A spin stops when its worker is told to stop, and the request counts as failed: a 10 s draw
// never holds up Ctrl-C (its worker's stop) for the rest of its service time.
TEST(SyntheticTarget, ASpinStopsWithItsWorker) {
  for (const char* spin : {"wall", "cpu"}) {
    SyntheticTarget t(TargetSpec::parse(std::string("synthetic:service_us=10000000,spin=") + spin));
    std::stop_source stop;
    bool ok = true;
    std::thread worker([&] {
      t.awaitAdmission(stop.get_token());
      ok = t.execute(engine::WorkItem{}, {});
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto asked = std::chrono::steady_clock::now();
    stop.request_stop();
    worker.join();
    EXPECT_FALSE(ok) << spin;
    // Not a timing target: a spin that ignored the stop would run 10 s.
    EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5)) << spin;
  }
}

TEST(Workload, CyclesShufflesReversesAndRestricts) {
  engine::WorkloadQuerySet a{"a", "", {"a0", "a1", "a2"}, {"x", "y", "z"}};
  engine::WorkloadQuerySet b{"b", "", {"b0", "b1"}, {"u", "v"}};
  const engine::Workload cycle({a, b}, engine::WorkloadOrder::Cycle, 1);
  EXPECT_EQ(cycle.size(), 5u);
  EXPECT_EQ(cycle.item(0).querySet, 0u);
  EXPECT_EQ(cycle.item(3).querySet, 1u);
  EXPECT_EQ(cycle.item(3).query, 0u);
  EXPECT_EQ(cycle.item(5).query, 0u);  // wraps
  EXPECT_EQ(cycle.item(0, true).querySet, 1u);  // reverse starts at the end
  EXPECT_EQ(cycle.item(0, true).query, 1u);
  const auto onlyB = cycle.restrictedTo(1);
  EXPECT_EQ(onlyB.size(), 2u);
  EXPECT_EQ(onlyB.item(0).querySet, 1u);  // keeps the set's index in the whole workload
  EXPECT_EQ(onlyB.item(1).query, 1u);
  const engine::Workload shuffled({a, b}, engine::WorkloadOrder::Shuffle, 9);
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (std::uint64_t s = 0; s < 5; ++s) seen.insert({shuffled.item(s).querySet, shuffled.item(s).query});
  EXPECT_EQ(seen.size(), 5u);  // a permutation
  EXPECT_EQ(engine::querySetFingerprint({"a"}, {"x"}), engine::querySetFingerprint({"a"}, {"x"}));
  EXPECT_NE(engine::querySetFingerprint({"a"}, {"x"}), engine::querySetFingerprint({"a"}, {"y"}));
  EXPECT_EQ(engine::Workload().item(7).sequence, 7u);
}

// The built-in target runs the engine and reports exactly the counters search() does.
// A query the engine refuses is a bad input before anything runs, naming its set and id: a bench
// whose every request failed on it reported a valid run (review, stop 32).
TEST(BuiltinTarget, RefusesAQueryTheEngineWouldRefuseBeforeRunning) {
  const auto ti = buildTestIndex(corpusFromDsl("d0: a b c / d1: a a b"));
  std::string huge;
  for (std::size_t t = 0; t <= engine::kMaxQueryTerms; ++t) huge += "t" + std::to_string(t) + " ";
  engine::WorkloadQuerySet set{"rare-2", "", {"q0", "q-huge"}, {"a b", huge}};
  const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
  engine::BuiltinQueryOptions o;
  try {
    engine::BuiltinTarget target("builtin", ti->index, workload, o);
    FAIL() << "accepted a query of " << engine::kMaxQueryTerms + 1 << " terms";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("query set 'rare-2': query q-huge (number 2 of the set): the query has more "
                                         "than 1024 distinct terms"),
              std::string::npos)
        << e.what();
  }
}

TEST(BuiltinTarget, RunsTheEngineAndReportsItsCounters) {
  const auto ti = buildTestIndex(corpusFromDsl("d0: a b c / d1: a a b / d2: c d / d3: a d"));
  engine::WorkloadQuerySet set{"s", "", {"q0", "q1"}, {"a b", "c d"}};
  const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
  engine::BuiltinQueryOptions o;
  o.op = engine::Operator::Or;
  o.applySpec(TargetSpec::parse("builtin:algo=exhaustive,k=2"));
  EXPECT_EQ(o.k, 2u);
  engine::BuiltinTarget target("builtin:algo=exhaustive,k=2", ti->index, workload, o);
  ASSERT_FALSE(target.counterNames().empty());
  EXPECT_EQ(target.counterNames().front(), "postings_decoded");
  std::vector<std::uint64_t> counters(target.counterNames().size());
  ASSERT_TRUE(target.execute(workload.item(0), counters));
  engine::SearchRequest r;
  r.text = "a b";
  r.op = engine::Operator::Or;
  r.k = 2;
  r.algorithm = engine::Algorithm::Exhaustive;
  const auto direct = engine::search(*ti->index, r);
  std::vector<std::uint64_t> expected;
  direct.counters.forEach([&](const char*, std::uint64_t v) { expected.push_back(v); });
  EXPECT_EQ(counters, expected);
  EXPECT_GT(counters.front(), 0u);
  engine::WorkItem bad{0, 5, 0};
  EXPECT_FALSE(target.execute(bad, counters));
  // Spec errors name the spec.
  engine::BuiltinQueryOptions o2;
  o2.op = engine::Operator::And;
  EXPECT_THROW(o2.applySpec(TargetSpec::parse("builtin:algo=wand")), engine::Error);  // wand is OR-only
  EXPECT_THROW(o2.applySpec(TargetSpec::parse("builtin:nonsense=off")), engine::Error);
  EXPECT_THROW(o2.applySpec(TargetSpec::parse("builtin:k=0")), engine::Error);
  // An operator the profile set is named as the profile's, with the way out.
  const auto messageOf = [](engine::BuiltinQueryOptions o, const char* spec) {
    try {
      o.applySpec(TargetSpec::parse(spec));
    } catch (const engine::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  engine::BuiltinQueryOptions andProfile;
  andProfile.op = engine::Operator::And;
  EXPECT_NE(messageOf(andProfile, "builtin:algo=wand").find("op=and comes from the profile; op=or on the target"),
            std::string::npos)
      << messageOf(andProfile, "builtin:algo=wand");
  EXPECT_NE(messageOf({}, "builtin:op=and,algo=bmw").find("the target's own op"), std::string::npos)
      << messageOf({}, "builtin:op=and,algo=bmw");
  // ... and what would do (stop 36: search and run said so, targets and profiles did not).
  EXPECT_NE(messageOf(andProfile, "builtin:algo=wand").find("; AND queries take auto, exhaustive, block-max-and, bulk-and)"),
            std::string::npos)
      << messageOf(andProfile, "builtin:algo=wand");
}

// The closed loop's warm-up is untimed, each pass walks its order, and every measured request is
// one record with its counters.
TEST(ClosedLoopDriver, MeasuresWhatItRunsAfterTheWarmup) {
  const auto ti = buildTestIndex(corpusFromDsl("d0: a b c / d1: a a b / d2: c d / d3: a d"));
  engine::WorkloadQuerySet set{"s", "", {"q0", "q1", "q2"}, {"a b", "c d", "a"}};
  const engine::Workload workload({set}, engine::WorkloadOrder::Cycle, 1);
  engine::BuiltinQueryOptions o;
  o.op = engine::Operator::Or;
  engine::BuiltinTarget target("builtin", ti->index, workload, o);
  engine::ClosedLoopConfig c;
  c.clients = 2;
  c.warmupNs = 50'000'000;
  c.measureNs = 200'000'000;
  c.reverse = true;
  c.pass = 1;
  engine::ClosedLoopDriver driver(target, workload, c);
  bool started = false;
  const auto r = driver.run({}, {}, [&](std::int64_t t0, std::int64_t end) {
    started = true;
    EXPECT_EQ(end - t0, c.measureNs);
  });
  EXPECT_TRUE(started);
  EXPECT_GT(r.warmupRequests, 0u);
  ASSERT_GT(r.records.records.size(), 10u);
  EXPECT_EQ(r.records.counters.size(), r.records.records.size() * target.counterNames().size());
  for (const auto& rec : r.records.records) {
    EXPECT_TRUE(rec.measured);
    EXPECT_EQ(rec.pass, 1u);
    EXPECT_EQ(rec.outcome, engine::RequestOutcome::Ok);
    EXPECT_LE(rec.due, rec.start);
    EXPECT_LE(rec.start, rec.end);
  }
  // The measured stream starts at the head of the reverse order: the first request is q2.
  const auto first = std::min_element(r.records.records.begin(), r.records.records.end(),
                                      [](const auto& x, const auto& y) { return x.sequence < y.sequence; });
  EXPECT_EQ(first->sequence, 0u);
  EXPECT_EQ(first->query, 2u);
  EXPECT_TRUE(r.window.complete);
  EXPECT_GT(r.window.process.cpuNs, 0);
}

}  // namespace
}  // namespace wandscope::test
