// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

// The saturation rule, fixed before any number was measured (docs/PERF.md states it in
// words; describe() prints the same text into every report). An open-loop rung is
//
//   invalid when it holds fewer than kMinRequests requests due in its measured window (too few
//   to judge: one request in a microsecond window was "offered 1e+06/s"), or when the
//   instrument, not the target, is the limit:
//     - more than maxLateDispatchFraction (1 %) of its requests were dispatched more than
//       lateDispatchUs (1 ms) after their due time (equivalently: dispatch lag p99 > 1 ms; stated
//       as a share so it is decidable on rungs too small to show a p99), or
//     - it was cancelled before its schedule ended;
//   failed when any of these holds (every one that holds is listed):
//     - shed: shed / (completed + shed) > maxShedFraction (0.1 %);
//     - errors: any request failed;
//     - drain: admitted requests were still running drainTimeout after the last due time;
//     - throughput: achieved / offered rate < minAchievedRatio (0.97), where achieved =
//       completed / max(window, last completion - window start) and offered = requests due in
//       the window / window (the target rate for uniform arrivals; Poisson windows vary);
//     - latency: the highest quantile shown in both this rung and the ladder's first rung
//       (p99, else p90, else p50) is above maxLatencyRatio (3x) that of the first rung (the
//       lowest rate of the same ladder: an open-loop denominator, not a sequential replay);
//     - growth: the Theil-Sen slope of binned median latency over the measured window, times
//       the window, exceeds maxGrowth (1.0) times the rung's median: the queue is still growing
//       (judged only on windows of kGrowthMinBins bins of at least kGrowthMinBinSeconds; a
//       shorter rung says the criterion was not judged, RungVerdict::unjudged);
//   passed otherwise.
// The maximum sustainable rate is the interval [last passing rung, first failing rung].
struct SaturationRule {
  static constexpr std::uint64_t kMinRequests = 20;
  static constexpr std::size_t kGrowthMinBins = 4;
  static constexpr double kGrowthMinBinSeconds = 1.0;

  double maxShedFraction = 0.001;
  double minAchievedRatio = 0.97;
  double maxLatencyRatio = 3.0;
  double maxGrowth = 1.0;
  double lateDispatchUs = 1000;
  double maxLateDispatchFraction = 0.01;

  std::string describe() const;
};

struct RungVerdict {
  std::string verdict;    // "pass" | "fail" | "invalid"
  std::string criterion;  // every criterion that tripped, "; "-separated ("" on pass)
  bool valid = true;
  std::string unjudged;   // a criterion the rung was too short to judge ("" when every one was)
};

// Judges `rung` (its statistics already filled) against `first`, the first rung of the same
// ladder (null when `rung` is the first). `drained` is false when the drain timed out.
RungVerdict judgeRung(const SaturationRule& rule, const RungResult& rung, const RungResult* first, bool drained);

// [last passing rung, first failing rung] over a ladder's rungs in rate order; an invalid rung
// ends the interval like a failure (the instrument could not load the target harder).
RunReport::Capacity capacityOf(const std::vector<const RungResult*>& ladder);

// The capacity in words, for every place that states it (the CLI, report.md, the Load page):
// "[LO, HI] (first failing rung: CRITERION)", with "below the first rung" / "above the last rung"
// for an end the ladder did not reach. When the rung that ends the interval was invalid, the
// target was not shown to fail there (the generator could not load it harder), so that is said
// instead of an interval: "at least LO; the next rung, HI, could not be judged (invalid: ...)".
// Rates as engine::formatRate writes them ("5,877/s", "150.4/s").
std::string describeCapacity(const RunReport::Capacity& c);

// Theil-Sen slope (median of pairwise slopes) of y over x; absent with fewer than 2 points.
std::optional<double> theilSenSlope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace wandscope::engine
