// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_types.h"
#include "engine/bench/live_sink.h"

#include <cstdint>
#include <algorithm>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::engine {

class BenchRunner;
struct CompareOptions;

// The open-loop side of `compare` (docs/COMPARE.md, "Open loop"): A, B (and B2, ...) each run the
// profile's ladder at the same absolute rates, whole ladders in rotated order (`repetitions`
// rounds; two targets: AB, BA, AB, ...; three: ABC, BCA, CAB, ...), and per offered rate the p50
// and p99 of due-time latency of each B are compared with A's as unpaired quantile ratios with a
// bootstrap interval; capacity (the rates every ladder of a target passed) is compared as
// intervals, each B against A.

// The profile to run: rates in absolute requests/s (a ladder in multiples is resolved against A's
// calibrated sequential throughput, measured here exactly as `bench` does, so A and B are offered
// the same rates), every rung run (stop_after_fail off: each rate needs every target's figures),
// targets in ladder order (openLadderTarget). `targets`: A, then one or more B.
BenchProfile openComparisonProfile(const BenchProfile& profile, const std::vector<std::string>& targets,
                                   const CompareOptions& options);
inline BenchProfile openComparisonProfile(const BenchProfile& profile, const std::string& a, const std::string& b,
                                          const CompareOptions& options) {
  return openComparisonProfile(profile, std::vector<std::string>{a, b}, options);
}

// Collects every measured request's due-time latency per rung, in run order. With `onPoint`, it
// also reports after each open rung its target's latency at that rate pooled over the target's
// ladders so far (OpenLatencyPoint), on the runner's thread: what a live view plots while the
// ladders run. Ladders are told apart as runOpenComparison does (a rate not above the previous
// rung's starts the next ladder) and assigned to a target by openLadderTarget.
class OpenLatencyCapture : public LiveSink {
 public:
  using PointFn = std::function<void(const OpenLatencyPoint&)>;
  explicit OpenLatencyCapture(PointFn onPoint = {}, std::size_t targets = 2)
      : m_onPoint(std::move(onPoint)), m_rungsAt(std::max<std::size_t>(targets, 1)) {}

  void onRecords(const RungPlan& plan, const RungRecords& records, const Workload& workload) override;
  const std::vector<std::vector<double>>& latencyMs() const noexcept { return m_latencyMs; }

 private:
  void reportPoint(const RungPlan& plan);

  PointFn m_onPoint;
  std::vector<std::vector<double>> m_latencyMs;  // [open rung in run order] ok requests, ms
  // For onPoint: the ladder being run, and per side and rate the rungs (indexes into m_latencyMs).
  std::size_t m_ladder = 0;
  double m_previousRate = -1;
  std::vector<std::map<double, std::vector<std::size_t>>> m_rungsAt;  // [target][rate]
};

// Runs the ladders of `runner` (built from openComparisonProfile with `capture` as its live sink,
// prepared), then fills `report`'s scenarios, capacity and result diffs.
void runOpenComparison(BenchRunner& runner, const BenchProfile& profile, const OpenLatencyCapture& capture,
                       const CompareOptions& options, CompareReport& report);

// The method in words for report.md.
std::string openMethodText(const BenchProfile& profile, const CompareOptions& options, std::size_t targets = 2);

// Whose is ladder `k` (0-based, run order) of a comparison of `targets` targets? Round r runs
// every target once, starting at target r mod n: AB, BA, AB, ... for two; ABC, BCA, CAB, ... for
// three.
constexpr std::size_t openLadderTarget(std::size_t k, std::size_t targets) noexcept {
  return targets == 0 ? 0 : (k % targets + k / targets) % targets;
}

}  // namespace wandscope::engine
