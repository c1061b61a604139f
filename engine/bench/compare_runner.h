// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/bench_profile.h"
#include "engine/bench/compare_types.h"

#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace wandscope::engine {

// One pass of a closed-loop comparison over a query set, as it starts (CompareOptions::onPass).
struct ComparePass {
  std::size_t set = 0;     // the workload's query set
  std::size_t target = 0;  // 0 = A, 1 = B, 2 = B2, ...; in the A/A calibration 1 is A's second instance
  bool aa = false;         // a pass of the A/A calibration
  bool timed = false;      // false: an untimed warm pass before a timed block (warmPasses)
};

struct CompareOptions {
  unsigned repetitions = 3;        // ABBA / BAAB quartets (n targets: rotated rounds) per query set (>= 1)
  double warmupSeconds = 1;        // untimed, per target per query set (at least one pass)
  // Closed loop: untimed passes of a target over the set right before each of its timed blocks,
  // so that a block starts from its own target's cache state rather than from what the other
  // target's block left behind (PERF.md, "Cache state between blocks"). 0 to kMaxWarmPasses.
  static constexpr unsigned kDefaultWarmPasses = 3;
  static constexpr unsigned kMaxWarmPasses = 100;
  unsigned warmPasses = kDefaultWarmPasses;
  bool aa = false;                 // also run A against a second instance of A: the noise floor
  double noiseFloor = 0.02;        // differences within +-2 % are "no difference"
  unsigned bootstrapSamples = 2000;
  std::filesystem::path cacheDir;  // for "dataset": "default"
  std::stop_token stop;            // ends the run between passes; the report is then partial
  std::function<void(const std::string&)> onMessage;  // one line per finished query set, warnings
  // A finished query set's rows (A vs B, both metrics, then A vs B2, ...) and, with `aa`, its A/A rows, on the
  // runner's thread right after its onMessage line: what a live view plots as sets finish.
  std::function<void(const std::vector<CompareScenario>& rows, const std::vector<CompareScenario>& aaRows)> onScenarios;
  // Open loop: after each rung, its target's latency at that rate pooled over the target's
  // ladders so far (OpenLatencyPoint), on the runner's thread: the open ladders' live plot.
  std::function<void(const OpenLatencyPoint& point)> onOpenLatency;
  // Closed loop: each pass of the interleaved rounds (warm, then timed) as it starts, on the
  // runner's thread: progress for a view, and the schedule the tests check.
  std::function<void(const ComparePass& pass)> onPass;
};

// Interleaved comparison of two or more targets in one process (docs/COMPARE.md). The first
// target is the baseline A; every further one (B, B2, B3, ...) is compared against A on its own:
//  - the profile's dataset, query sets, op, k, algorithm, order and seed; its targets are replaced
//    by A, B, ... (and a second, separately built instance of A for the A/A calibration), built by
//    BenchRunner::prepare, so every target kind works (builtin, plugin:, peers);
//  - per query set: the results of A and each B are compared query by query (untimed), each
//    target is warmed separately, then `repetitions` rounds of blocks run with the lead rotating
//    per round: every target once in rotated order, then in reverse (two targets: ABBA, BAAB,
//    ...; three: ABCCBA, BCAACB, CABBAC, ...). A block is `warmPasses` untimed passes of its
//    target, then one timed pass over the set in the workload's order, on this thread (closed
//    loop, one client), timing every query's thread CPU and wall time and the pass's process CPU;
//  - per set, B and metric: A's and B's figures in the first seed's sense (mean block CPU
//    ms/query, p50 of every query's wall time) and the ratio A/B of geometric means over queries
//    of each query's median, with a paired bootstrap 95 % interval and a verdict against the
//    noise floor (raised per scenario to what the A/A run shows, with --aa). A/A stays A vs A.
class CompareRunner {
 public:
  // `targets`: A, then one or more B (at least two in all).
  CompareRunner(BenchProfile profile, std::vector<std::string> targets, CompareOptions options);
  CompareRunner(BenchProfile profile, std::string a, std::string b, CompareOptions options);

  CompareReport run();

  // The block order of round `round` (0-based) over `targets` targets: indexes into the targets,
  // the rotation by `round` forwards and then backwards (2 targets: 0 1 1 0, then 1 0 0 1).
  static std::vector<std::size_t> blockOrder(std::size_t targets, unsigned round);

 private:
  BenchProfile m_profile;
  std::vector<std::string> m_targets;
  CompareOptions m_options;
};

}  // namespace wandscope::engine
