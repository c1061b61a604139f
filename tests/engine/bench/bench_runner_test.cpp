// SPDX-License-Identifier: GPL-3.0-or-later
// The runner end to end on tiny configurations: ladder mechanics, closed-loop passes, observers,
// live sinks, the rung hook and cancellation. The saturation rule's thresholds are loosened here
// where a shared machine could trip them: these tests are about the machinery, and the rule has
// its own tests.
#include "engine/bench/bench_runner.h"
#include "engine/bench/compare_runner.h"
#include "engine/bench/report_writer.h"
#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include <mutex>
#include <thread>

namespace wandscope::test {
namespace {

using engine::BenchProfile;
using engine::BenchRunner;

struct CountingObserver : engine::RunObserver {
  int started = 0, rungs = 0, finished = 0;
  std::string runId;
  void onRunStarted(const engine::RunHeader& h) override {
    ++started;
    runId = h.runId;
  }
  void onRungFinished(const engine::RunHeader& h, const engine::RungResult&) override {
    EXPECT_EQ(h.runId, runId);
    ++rungs;
  }
  void onRunFinished(const engine::RunReport&) override { ++finished; }
};

struct RecordingSink : engine::LiveSink {
  std::mutex mutex;
  int ticks = 0, started = 0, finished = 0;
  bool tickHadCounters = false;
  std::size_t records = 0;
  std::vector<std::string> messages;
  void onRungStarted(const engine::RungPlan&) override { ++started; }
  void onTick(const engine::LiveTick& t) override {
    std::lock_guard lock(mutex);
    ++ticks;
    EXPECT_GE(t.elapsedSeconds, -1.0);
    if (t.completed > 0 && t.counterMeans.count("postings_decoded") > 0 && t.counterMeans.at("postings_decoded") > 0) {
      tickHadCounters = true;
    }
  }
  void onRecords(const engine::RungPlan&, const engine::RungRecords& r, const engine::Workload&) override {
    records += r.records.size();
  }
  void onRungFinished(const engine::RungResult&) override { ++finished; }
  void onMessage(const std::string& m) override { messages.push_back(m); }
};

struct StampingHook : engine::RungHook {
  int starts = 0;
  void onRungStarting(const engine::RungContext& c) override {
    ++starts;
    EXPECT_LE(c.t0Ns, c.measureStartNs);
    EXPECT_LT(c.measureStartNs, c.measureEndNs);
  }
  std::vector<engine::RungEvent> onRungFinished(const engine::RungContext&) override {
    return {{"commit", 0.1, 0.2, "test"}};
  }
};

BenchProfile synthetic(const std::string& ladder) {
  return engine::parseBenchProfile(R"({"name": "synthetic-ladder", "targets": ["synthetic:service_us=300"],
      "mode": "open", "ladder": )" + ladder +
                                       R"(, "rule": {"min_achieved_ratio": 0.5, "max_latency_ratio": 1000, "late_dispatch_us": 1000000}})",
                                   "synthetic.json", "");
}

// A rung that would schedule more requests than the driver keeps is invalid and not run, and
// says so in the report's words ("2,000,000", "100,000/s"), never "1e+05/s".
TEST(BenchRunner, ARungOverTheRequestLimitIsInvalidAndNotRun) {
  // Fixed rates that big are refused when the profile is read; multiples of a calibrated rate are
  // known only at run time. A 300 us target calibrates near 3,300/s (far less under a sanitizer on
  // a loaded machine: 1,000 x was once under the limit); 10^6 x any rate over 2/s for 1 s is over.
  auto profile = synthetic(R"({"multiples": [1000000], "calibration_s": 0.05, "calibration_warmup_s": 0,
                               "calibration_min_requests": 1, "settle_s": 0, "rung_duration_s": 1, "workers": 1})");
  BenchRunner runner(std::move(profile), {});
  const auto report = runner.run();
  ASSERT_EQ(report.rungs.size(), 1u);
  const auto& rung = report.rungs[0];
  EXPECT_EQ(rung.verdict, "invalid");
  EXPECT_EQ(rung.completed, 0u);
  const std::string rate = engine::formatRate(1e6 * report.calibration.at("synthetic:service_us=300").rate);
  EXPECT_EQ(rung.criterion, rate + " would schedule more than 2,000,000 requests in one rung (records are kept in "
                                   "memory); not run");
}

// A ladder that ends in overload: the low rungs pass, the overloaded one fails on shedding, the
// ladder stops there and the capacity interval brackets it. (The cap is large so that a shared
// machine starving the spinning worker for a few tens of ms does not shed at the low rungs, and the
// low rungs ask for a few percent of a core: on a 2-core machine with a load of 12, a spinning
// thread gets its fair share and no more, which the instrument correctly reports as a slower
// target.)
TEST(BenchRunner, LadderStopsAfterTheFirstFailingRung) {
  auto profile = synthetic(R"({"rates": [100, 200, 10000, 20000], "settle_s": 0.1, "rung_duration_s": 2,
                               "workers": 1, "in_flight_cap": 1000})");
  CountingObserver observer;
  RecordingSink sink;
  StampingHook hook;
  engine::BenchRunOptions options;
  options.observer = &observer;
  options.live = &sink;
  options.hook = &hook;
  BenchRunner runner(std::move(profile), options);
  const auto report = runner.run();
  ASSERT_EQ(report.rungs.size(), 3u);  // 8000/s never ran
  EXPECT_EQ(report.rungs[0].verdict, "pass") << report.rungs[0].criterion;
  EXPECT_EQ(report.rungs[1].verdict, "pass") << report.rungs[1].criterion;
  EXPECT_EQ(report.rungs[2].verdict, "fail");
  EXPECT_NE(report.rungs[2].criterion.find("shed"), std::string::npos) << report.rungs[2].criterion;
  EXPECT_GT(report.rungs[2].shed, 0u);
  EXPECT_EQ(report.rungs[2].inFlightHighWater, 1000u);  // reached, never exceeded
  const auto& cap = report.capacity.at("synthetic:service_us=300");
  EXPECT_EQ(cap.lastPass, 200.0);
  EXPECT_EQ(cap.firstFail, 10000.0);
  EXPECT_EQ(observer.started, 1);
  EXPECT_EQ(observer.rungs, 3);
  EXPECT_EQ(observer.finished, 1);
  EXPECT_EQ(sink.started, 3);
  EXPECT_EQ(sink.finished, 3);
  EXPECT_GT(sink.ticks, 0);
  EXPECT_GT(sink.records, 8000u);
  EXPECT_EQ(hook.starts, 3);
  ASSERT_EQ(report.rungs[0].events.size(), 1u);
  EXPECT_EQ(report.rungs[0].events[0].name, "commit");
  EXPECT_FALSE(report.partial);
  for (const auto& r : report.rungs) {
    EXPECT_EQ(r.mode, "open");
    EXPECT_GT(r.rssPeakMib, 0.0);
    EXPECT_GT(r.processCpuMs, 0.0);
    EXPECT_TRUE(r.serviceP50Ms);  // >= 200 samples in every rung
  }
  EXPECT_NEAR(*report.rungs[0].serviceP50Ms, 0.3, 0.03);
  EXPECT_FALSE(report.header.environment.cpuModel.empty());
  EXPECT_FALSE(report.saturationRule.empty());
  // Its 2 s rungs are too short for the growth criterion: the two passes say so.
  const auto warned = std::find_if(report.warnings.begin(), report.warnings.end(), [](const std::string& w) {
    return w.find("growth criterion was not judged on 2 rung(s)") != std::string::npos;
  });
  ASSERT_NE(warned, report.warnings.end()) << ::testing::PrintToString(report.warnings);
  EXPECT_NE(warned->find("100/s: latency growth (a window of 2 s"), std::string::npos) << *warned;
  EXPECT_NE(warned->find("200/s"), std::string::npos) << *warned;
}

TEST(BenchRunner, KeepsGoingAfterAFailWhenAskedTo) {
  auto profile = synthetic(R"({"rates": [10000, 20000], "settle_s": 0, "rung_duration_s": 0.3, "workers": 1,
                               "in_flight_cap": 2, "stop_after_fail": false})");
  BenchRunner runner(std::move(profile), {});
  const auto report = runner.run();
  ASSERT_EQ(report.rungs.size(), 2u);
  EXPECT_EQ(report.rungs[0].verdict, "fail");
  EXPECT_EQ(report.rungs[1].verdict, "fail");
}

TEST(BenchRunner, CancellationMarksTheRunPartial) {
  auto profile = synthetic(R"({"rates": [100, 200], "settle_s": 0, "rung_duration_s": 60, "workers": 1})");
  std::stop_source stop;
  engine::BenchRunOptions options;
  options.stop = stop.get_token();
  CountingObserver observer;
  options.observer = &observer;
  BenchRunner runner(std::move(profile), options);
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    stop.request_stop();
  });
  const auto report = runner.run();
  EXPECT_TRUE(report.partial);
  ASSERT_EQ(report.rungs.size(), 1u);
  EXPECT_TRUE(report.rungs[0].partial);
  EXPECT_EQ(report.rungs[0].verdict, "invalid");
  EXPECT_EQ(observer.finished, 1);
}

// Nothing half-made is left under `cache` to pass for a prepared dataset: no index, no corpus.
void expectNoDatasetLeft(const std::filesystem::path& cache) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(cache)) {
    const std::string name = entry.path().filename().string();
    EXPECT_NE(name.rfind("MANIFEST", 0), 0u) << entry.path();
    EXPECT_EQ(name.find(".jsonl"), std::string::npos) << entry.path();
  }
}

// Stopped while its dataset is generated and indexed (200,000 documents by default): the
// preparation ends at its next progress report, the report is partial and says nothing was
// measured, the run store is not told of a run, and no half-made dataset is left in the cache.
// Stop did nothing until the dataset was ready, and then an empty run was stored (review, stop 34).
TEST(BenchRunner, AStopWhileTheDatasetIsPreparedEndsThePreparation) {
  const TempDir cache;
  auto profile = engine::parseBenchProfile(R"({"name": "stop-while-preparing", "dataset": {"default": {"docs": 20000}},
      "targets": ["builtin"], "mode": "closed", "closed": {"warmup_s": 0, "measure_s": 0.1}})",
                                           "p.json", "");
  std::stop_source stop;
  struct StoppingSink : engine::LiveSink {
    std::stop_source* stop = nullptr;
    int progress = 0;
    void onProgress(const engine::Progress&) override {
      ++progress;
      stop->request_stop();
    }
  } sink;
  sink.stop = &stop;
  engine::BenchRunOptions options;
  options.stop = stop.get_token();
  options.cacheDir = cache.path();
  options.live = &sink;
  CountingObserver observer;
  options.observer = &observer;
  BenchRunner runner(std::move(profile), options);
  const auto report = runner.run();
  EXPECT_EQ(sink.progress, 1) << "the preparation went on after the stop";
  EXPECT_TRUE(report.partial);
  EXPECT_FALSE(report.started);
  EXPECT_TRUE(report.rungs.empty());
  EXPECT_EQ(report.header.targets, std::vector<std::string>{"builtin"});
  EXPECT_TRUE(std::any_of(report.warnings.begin(), report.warnings.end(), [](const std::string& w) {
    return w.find("stopped while the dataset was prepared: nothing was measured") != std::string::npos;
  }));
  EXPECT_EQ(observer.started, 0);
  EXPECT_EQ(observer.finished, 0);
  expectNoDatasetLeft(cache.path());
  // The report reads as one: report.md is written from it.
  EXPECT_NE(engine::reportMarkdown(report).find("nothing was measured"), std::string::npos);
  EXPECT_FALSE(runner.prepare()) << "still stopped: prepared nothing";
}

// A comparison stopped while its dataset is prepared has no target to report on: it says so as an
// error, instead of preparing the whole dataset first (or letting a private exception escape).
TEST(CompareRunner, AStopWhileTheDatasetIsPreparedIsAnErrorSayingNothingWasCompared) {
  const TempDir cache;
  const auto profile = engine::parseBenchProfile(R"({"name": "stop-while-preparing", "dataset": {"default": {"docs": 20000}},
      "targets": ["builtin"], "mode": "closed", "closed": {"warmup_s": 0, "measure_s": 0.1}})",
                                                 "p.json", "");
  std::stop_source stop;
  stop.request_stop();
  engine::CompareOptions o;
  o.stop = stop.get_token();
  o.cacheDir = cache.path();
  try {
    (void)engine::CompareRunner(profile, {"builtin", "builtin:bulk_and=off"}, o).run();
    ADD_FAILURE() << "a stopped comparison reported";
  } catch (const engine::Error& e) {
    EXPECT_EQ(std::string(e.what()), "stopped while the dataset was prepared: nothing was compared");
  }
  expectNoDatasetLeft(cache.path());
}

// The built-in engine over an index and a query file: closed-loop cells with forward / reverse
// passes, then a ladder in multiples of each target's calibrated sequential throughput.
TEST(BenchRunner, BuiltinClosedCellsAndACalibratedLadder) {
  const auto ti = buildTestIndex(randomCorpus(3, {300, 60, 30, 0.0}));
  ti->dir.write("q.tsv", "q1\tw1 w2\nq2\tw3\nq3\tw1 w5 w7\nq4\tw2 w9\n");
  // The rule is loose on purpose: this tests the ladder's wiring, and on a shared 2-core machine a
  // scheduler stall sheds a few requests even at 5 % of capacity (the criteria have their own tests).
  // The in-flight cap rides out stalls up to the whole rung: at 5 % of a few 10,000 queries/s the
  // default 64 slots last ~13 ms, and a run beside two other processes once shed 24 % of a rung.
  const std::string json = R"({"name": "builtin-mini",
      "dataset": {"index": ")" + ti->indexPath.string() + R"(", "query_sets": {"s": ")" +
                           (ti->dir.path() / "q.tsv").string() + R"("}},
      "query": {"op": "or", "k": 5},
      "targets": ["builtin", "builtin:algo=exhaustive"], "mode": "both",
      "closed": {"concurrency": [1, 2], "warmup_s": 0.05, "measure_s": 0.2, "passes": 2},
      "ladder": {"multiples": [0.05, 0.1], "calibration_s": 0.2, "calibration_warmup_s": 0.05,
                 "calibration_min_requests": 50, "settle_s": 0, "rung_duration_s": 0.5, "workers": 2,
                 "in_flight_cap": 8192},
      "rule": {"min_achieved_ratio": 0.5, "max_latency_ratio": 1000, "max_growth": 1000, "max_shed_fraction": 0.2,
               "late_dispatch_us": 1000000}})";
  auto profile = engine::parseBenchProfile(json, "mini.json", "");
  CountingObserver observer;
  RecordingSink sink;
  engine::BenchRunOptions options;
  options.observer = &observer;
  options.live = &sink;
  BenchRunner runner(std::move(profile), options);
  const auto report = runner.run();
  std::size_t closed = 0, open = 0;
  for (const auto& r : report.rungs) {
    if (r.mode == "closed") {
      ++closed;
      EXPECT_EQ(r.querySet, "s");
      ASSERT_EQ(r.passes.size(), 2u);
      EXPECT_FALSE(r.passes[0].reverse);
      EXPECT_TRUE(r.passes[1].reverse);
      EXPECT_GT(r.completed, 0u);
      EXPECT_GT(r.cpuMsPerQuery, 0.0);
      EXPECT_NEAR(r.cpuMsPerQuery, (r.passes[0].cpuMsPerQuery + r.passes[1].cpuMsPerQuery) / 2, 1e-12);
      EXPECT_GT(r.counters.at("postings_decoded"), 0.0);
      EXPECT_EQ(r.verdict, "n/a");
    } else {
      ++open;
      EXPECT_EQ(r.mode, "open");
      EXPECT_EQ(r.verdict, "pass") << r.criterion;
      EXPECT_GT(r.counters.at("postings_decoded"), 0.0);
    }
  }
  EXPECT_EQ(closed, 4u);  // 1 set x 2 concurrencies x 2 targets
  EXPECT_EQ(open, 4u);    // 2 rungs x 2 targets
  ASSERT_EQ(report.calibration.size(), 2u);
  for (const auto& [target, cal] : report.calibration) {
    EXPECT_GE(cal.requests, 50u) << target;
    EXPECT_GT(cal.rate, 0.0);
  }
  // The ladder's rates are the multiples of the calibrated throughput.
  const auto& cal = report.calibration.at("builtin");
  EXPECT_NEAR(report.rungs[4].targetRate, 0.05 * cal.rate, 1e-9);
  // The live message states the calibration as the reports do, never "2.132e+05/s".
  const auto said = std::find_if(sink.messages.begin(), sink.messages.end(),
                                 [](const std::string& m) { return m.rfind("calibrated builtin:", 0) == 0; });
  ASSERT_NE(said, sink.messages.end());
  EXPECT_NE(said->find("sequential throughput " + engine::formatRate(cal.rate) + " (" + engine::grouped(cal.requests) +
                       " requests"),
            std::string::npos)
      << *said;
  EXPECT_EQ(report.header.environment.fingerprints.count("index"), 1u);
  EXPECT_EQ(report.header.environment.fingerprints.count("queries:s"), 1u);
  EXPECT_EQ(observer.rungs, 8);
  EXPECT_GT(sink.records, 0u);
  EXPECT_TRUE(sink.tickHadCounters);  // live ticks carry per-query counter means
  // The report round-trips through its writers.
  const auto j = nlohmann::json::parse(engine::reportJson(report));
  EXPECT_EQ(j["rungs"].size(), 8u);
  EXPECT_NE(engine::reportMarkdown(report).find("### Concurrency 2, CPU ms per query"), std::string::npos);
}

TEST(BenchRunner, UnknownQuerySetIsABadInputErrorBeforeAnythingRuns) {
  const auto ti = buildTestIndex(corpusFromDsl("d0: a b / d1: b c"));
  ti->dir.write("q.tsv", "q1\ta\n");
  auto profile = engine::parseBenchProfile(R"({"name": "x", "dataset": {"index": ")" + ti->indexPath.string() +
                                               R"(", "query_sets": {"s": ")" + (ti->dir.path() / "q.tsv").string() +
                                               R"("}}, "query_sets": ["t"], "targets": ["builtin"], "mode": "closed",
                                               "closed": {}})",
                                           "x.json", "");
  BenchRunner runner(std::move(profile), {});
  try {
    (void)runner.prepare();
    ADD_FAILURE();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_EQ(std::string(e.what()), "x.json: query_sets[0]: the dataset has no query set 't' (it has: s)");
  }
}

}  // namespace
}  // namespace wandscope::test
