// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_types.h"
#include "engine/bench/live_sink.h"

#include <cstdint>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::engine {

class BenchRunner;
struct CompareOptions;

// The open-loop side of `compare` (docs/COMPARE.md, "Open loop"): A and B each run the profile's
// ladder at the same absolute rates, whole ladders in ABBA order (`repetitions` pairs: AB, BA,
// AB, ...), and per offered rate the p50 and p99 of due-time latency are compared as unpaired
// quantile ratios with a bootstrap interval; capacity (the rates every ladder of a target passed)
// is compared as intervals.

// The profile to run: rates in absolute requests/s (a ladder in multiples is resolved against A's
// calibrated sequential throughput, measured here exactly as `bench` does, so A and B are offered
// the same rates), every rung run (stop_after_fail off: each rate needs both targets' figures),
// targets in ABBA ladder order.
BenchProfile openComparisonProfile(const BenchProfile& profile, const std::string& a, const std::string& b,
                                   const CompareOptions& options);

// Collects every measured request's due-time latency per rung, in run order. With `onPoint`, it
// also reports after each open rung its target's latency at that rate pooled over the target's
// ladders so far (OpenLatencyPoint), on the runner's thread: what a live view plots while the
// ladders run. Ladders are told apart as runOpenComparison does (a rate not above the previous
// rung's starts the next ladder) and assigned to A or B by openLadderIsA.
class OpenLatencyCapture : public LiveSink {
 public:
  using PointFn = std::function<void(const OpenLatencyPoint&)>;
  explicit OpenLatencyCapture(PointFn onPoint = {}) : m_onPoint(std::move(onPoint)) {}

  void onRecords(const RungPlan& plan, const RungRecords& records, const Workload& workload) override;
  const std::vector<std::vector<double>>& latencyMs() const noexcept { return m_latencyMs; }

 private:
  void reportPoint(const RungPlan& plan);

  PointFn m_onPoint;
  std::vector<std::vector<double>> m_latencyMs;  // [open rung in run order] ok requests, ms
  // For onPoint: the ladder being run, and per side and rate the rungs (indexes into m_latencyMs).
  std::size_t m_ladder = 0;
  double m_previousRate = -1;
  std::map<double, std::vector<std::size_t>> m_rungsAt[2];  // [0: A, 1: B][rate]
};

// Runs the ladders of `runner` (built from openComparisonProfile with `capture` as its live sink,
// prepared), then fills `report`'s scenarios, capacity and result diffs.
void runOpenComparison(BenchRunner& runner, const BenchProfile& profile, const OpenLatencyCapture& capture,
                       const CompareOptions& options, CompareReport& report);

// The method in words for report.md.
std::string openMethodText(const BenchProfile& profile, const CompareOptions& options);

// Is ladder `k` (0-based, run order) one of A's? Pairs alternate AB, BA, AB, ...
constexpr bool openLadderIsA(std::size_t k) noexcept { return ((k / 2) % 2 == 0) == (k % 2 == 0); }

}  // namespace wandscope::engine
