// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The result types of a comparison of two or more targets (`wandscope-cli compare`, the
// workbench's Compare page): target 0 is the baseline A, every further target (B, B2, B3, ...) is
// compared against A on its own. Plain values; docs/COMPARE.md documents the method and
// report.json's fields.

#include "engine/bench/run_types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::engine {

// Result equality of two targets over one query set (k hits per query, rank order).
struct ResultDiff {
  std::uint64_t queries = 0;         // queries compared
  std::uint64_t rowSetDiff = 0;      // queries whose sets of returned doc ids differ
  std::uint64_t scoreBitDiff = 0;    // queries where a doc both returned has different f32 score bits
  std::uint64_t orderDiff = 0;       // queries with equal sets and bits but another rank order (ties)
  std::uint64_t failed = 0;          // queries either target failed or has no results for
  std::optional<std::uint32_t> firstDivergingRank;  // 1-based, smallest over the set; none if identical
  std::vector<std::string> differingQueries;        // ids of queries with any difference, set order
  bool differs() const noexcept { return rowSetDiff > 0 || scoreBitDiff > 0 || failed > 0; }
};

// A ratio A/B of geometric means with its bootstrap interval and verdict. ratio > 1: B is faster.
struct RatioEstimate {
  double ratio = 1;
  double ciLow = 1;
  double ciHigh = 1;
  double noiseFloor = 0;  // fractional: 0.02 = differences within +-2 % count as none
  std::string verdict;    // "faster" | "slower" | "no-difference" | "inconclusive" (B relative to A)
};

// One row of the table: a query set and a metric.
struct CompareScenario {
  std::string name;       // "mid-df-2, CPU ms/query"
  std::string querySet;
  std::string metric;     // "cpu_ms_per_query" | "p50_ms" | "open_p50_ms" | "open_p99_ms"
  std::optional<double> offeredRate;  // open: the offered rate, requests/s; closed: none
  double a = 0;           // the first seed's figure for A: mean block CPU ms/query, or p50 of all samples
  double b = 0;
  double aGeomean = 0;    // geometric mean over queries of the per-query medians (the ratio's basis)
  double bGeomean = 0;
  RatioEstimate estimate;
  std::uint64_t queries = 0;
  std::uint64_t samplesPerQuery = 0;  // per target
  ResultDiff diff;        // of the scenario's query set (the same for both metrics of a set)
  // The B side of this row: an index into the report's targets (1 = B, 2 = B2, ...). A row
  // compares A with that one target; `b`, `bGeomean`, the estimate and the diff are that target's.
  std::size_t target = 1;
};

// Result equality of A and one B over one query set (open mode keeps these per set and target).
struct SetResultDiff {
  std::string querySet;
  std::size_t target = 1;  // index into the report's targets, as CompareScenario::target
  ResultDiff diff;
};

// Open loop: how far each target's ladders got at the compared rates (docs/COMPARE.md).
struct OpenCapacity {
  std::string target;                  // "A", "B", "B2", ... (CompareReport::targetLabel)
  std::string spec;
  unsigned ladders = 0;                // ladders run for this target (ABBA order)
  std::vector<double> rates;           // the compared offered rates, ascending
  std::vector<unsigned> passed;        // [rate] ladders whose rung at that rate passed
  std::vector<double> shedFraction;    // [rate] shed / (completed + shed) over its ladders
  std::optional<double> lastPass;      // highest rate at which every ladder passed, and every lower rate too
  std::optional<double> firstFail;     // lowest rate at which some ladder did not pass
  std::vector<std::string> criteria;   // [rate] the first failing criterion, "" when all passed
};

// Open loop, live: one target's due-time latency at one offered rate, pooled over that target's
// ladders run so far, reported after each open rung (CompareOptions::onOpenLatency). Once the
// target's last ladder ran it is exactly the figure the report compares at that rate (the same
// samples, nearest rank). For plotting while the ladders run; reports never use it.
struct OpenLatencyPoint {
  std::size_t ladder = 0;              // 0-based, run order (openLadderTarget says whose)
  std::size_t target = 0;              // whose ladder: 0 = A, 1 = B, 2 = B2, ...
  bool a = true;                       // A's ladder (target == 0)
  double rate = 0;                     // offered requests/s (the rung's target rate)
  std::size_t samples = 0;             // ok measured requests pooled at this rate
  std::optional<double> p50Ms, p99Ms;  // absent while thin (quantile.h: 200 / 10,000 samples)
};

// What the comparison was and how it ran.
struct CompareSide {
  std::string spec;       // "plugin:/tmp/a.so", "builtin:bulk_and=off"
  std::string buildId;    // the plugin's build id, or this binary's "<version>+<commit12>"
  std::string detail;     // compiler, flags, SIMD target of that build
};

struct CompareReport {
  // 2: n targets (report.json's targets[], a scenario's `target`); a two-target report reads as
  // version 1 did.
  static constexpr int kSchemaVersion = 2;
  std::string runId;
  std::string profileName;
  std::string profileJson;
  CompareSide a, b;
  std::vector<CompareSide> more;  // B2, B3, ...: further targets, each compared against A as B is
  Environment environment;
  unsigned repetitions = 0;       // ABBA quartets per scenario (n targets: rotated rounds)
  double warmupSeconds = 0;       // per target per scenario
  unsigned warmPasses = 0;        // untimed passes before each timed block (0 in reports before it existed)
  unsigned bootstrapSamples = 0;
  double noiseFloor = 0;          // the floor asked for (A/A may raise it per scenario)
  bool aa = false;
  std::string method;             // the method in words (report.md's "Method")
  std::vector<CompareScenario> scenarios;    // A vs B (then A vs B2, ... per query set or rate)
  std::vector<CompareScenario> aaScenarios;  // A vs A (a second instance), when aa
  std::vector<std::string> warnings;
  bool partial = false;
  // "closed" (the scenarios above are per query set) or "open" (per offered rate: p50/p99 of
  // due-time latency, metric "open_p50_ms"/"open_p99_ms", plus capacity and per-set diffs).
  std::string mode = "closed";
  std::vector<OpenCapacity> capacity;  // open: A, B, B2, ...
  std::string capacityVerdict;         // open: which sustains more, or neither (per B with n > 2)
  std::vector<SetResultDiff> diffs;    // open: result equality per query set and B

  // All targets: A, B, B2, ...
  std::size_t targetCount() const noexcept { return 2 + more.size(); }
  const CompareSide& side(std::size_t i) const { return i == 0 ? a : i == 1 ? b : more.at(i - 2); }
  CompareSide& side(std::size_t i) { return i == 0 ? a : i == 1 ? b : more.at(i - 2); }
  // "A", "B", "B2", "B3", ...
  static std::string targetLabel(std::size_t i) {
    return i == 0 ? std::string("A") : i == 1 ? std::string("B") : "B" + std::to_string(i);
  }
};

}  // namespace wandscope::engine
