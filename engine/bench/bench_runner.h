// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/live_sink.h"
#include "engine/bench/run_types.h"
#include "engine/index/index.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/workload.h"

#include <filesystem>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace wandscope::engine {

struct BenchRunOptions {
  std::filesystem::path cacheDir;   // where the default dataset is cached (userCacheDir())
  RunObserver* observer = nullptr;  // the run store: run start, every rung, run end
  LiveSink* live = nullptr;         // progress lines, live plots, per-request records
  RungHook* hook = nullptr;         // work beside the requests (the writes arm)
  std::stop_token stop;             // cancels: the current rung ends partial, the report too
  bool guiAttached = false;         // recorded in the environment
};

// Runs a profile: prepares its dataset and targets (every configuration error surfaces here,
// before anything is measured), then
//  - closed loop: cells = query set x concurrency x target; `passes` passes over the cells in
//    forward / reverse / forward ... order (each pass also walks its set in that direction), each
//    cell pass an untimed warm-up then the measured window; a cell's result pools its passes
//    (quantiles over all samples; CPU ms/query is the mean of the per-pass values, and each
//    pass's figures are kept in RungResult::passes);
//  - open loop, per target: the ladder's rates (or its multiples of the target's sequential
//    throughput, calibrated first with a one-client closed loop of at least
//    calibration_min_requests requests), each rung a settle period then the measured window or
//    request count, judged by the saturation rule against the ladder's first rung; the ladder
//    stops after the first failing or invalid rung unless stop_after_fail is false.
// Observers see the run start, every finished rung and the finished report; an observer that
// throws is dropped with a warning (the run goes on).
class BenchRunner {
 public:
  BenchRunner(BenchProfile profile, BenchRunOptions options);
  ~BenchRunner();
  BenchRunner(const BenchRunner&) = delete;
  BenchRunner& operator=(const BenchRunner&) = delete;

  // Loads the dataset and builds the targets. Called by run() when not called before. False when
  // the stop token was requested while the dataset was prepared: the preparation ended there and
  // removed what it had made, and nothing below is valid.
  [[nodiscard]] bool prepare();
  RunReport run();

  // Valid after prepare().
  const Workload& workload() const noexcept { return m_workload; }
  const std::vector<std::unique_ptr<Target>>& targets() const noexcept { return m_targets; }
  std::shared_ptr<const Index> index() const noexcept { return m_index; }

 private:
  void prepareDataset();  // prepare()'s work; throws a private type when stopped
  void runClosed(RunReport& report);
  void runOpen(RunReport& report);
  void finishRung(RunReport& report, RungResult rung);
  // Calls the observer; a failing observer (the store cannot write) is logged, noted in the
  // report's warnings and not called again: the measurement goes on and --out still gets it.
  template <typename F>
  void notify(RunReport& report, F&& call);
  bool stopped() const noexcept { return m_options.stop.stop_requested(); }

  BenchProfile m_profile;
  BenchRunOptions m_options;
  bool m_prepared = false;
  std::shared_ptr<const Index> m_index;
  std::filesystem::path m_corpus;  // the default dataset's corpus (peer targets build from it)
  Workload m_workload;
  std::vector<std::unique_ptr<Target>> m_targets;
  std::map<std::string, std::string> m_fingerprints;
  RunHeader m_header;
  bool m_observerFailed = false;
};

// A fresh run id: UTC time and a random suffix ("20250101T120000Z-3f9a1c").
std::string newRunId();

}  // namespace wandscope::engine
