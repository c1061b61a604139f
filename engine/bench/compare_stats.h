// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::engine {

// The statistics of a comparison (docs/COMPARE.md), as plain functions.

// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
double medianOf(std::vector<double> values);

// Geometric mean of positive values (values <= 0 are clamped to `floor` first); 0 when empty.
double geometricMean(std::span<const double> values, double floor = 1e-9);

// The ratio of geometric means GM(a) / GM(b) of paired per-query values (a[i] and b[i] are the
// same query), with a percentile bootstrap 95 % interval: `samples` resamples of the queries with
// replacement (SplitMix64 seeded with `seed`, so the interval is reproducible), each giving the
// ratio of the resample's geometric means. Pairing keeps per-query difficulty out of the
// interval's width. Requires a.size() == b.size() > 0. Values <= 0 are clamped to 1 ns' worth
// (1e-6 ms).
RatioEstimate bootstrapRatio(std::span<const double> a, std::span<const double> b, unsigned samples,
                             std::uint64_t seed);

// The ratio Q_q(a) / Q_q(b) of two unpaired samples' nearest-rank q-quantiles (open-loop
// latencies of A and B at one offered rate: requests are not paired across targets), with a
// percentile bootstrap 95 % interval: `samples` resamples of each side with replacement
// (SplitMix64 seeded with `seed`). Requires both non-empty. Values <= 0 are clamped to 1e-6.
RatioEstimate bootstrapQuantileRatio(std::span<const double> a, std::span<const double> b, double q,
                                     unsigned samples, std::uint64_t seed);

// The verdict for B relative to A from the interval and a noise floor f (fraction):
//   faster         the whole interval is above 1 + f
//   slower         the whole interval is below 1 / (1 + f)
//   no-difference  the whole interval is inside [1 / (1 + f), 1 + f]
//   inconclusive   otherwise (the interval straddles the floor)
std::string ratioVerdict(double ciLow, double ciHigh, double noiseFloor);

// The noise floor an A/A interval shows: the largest distance of its ends from 1, as a fraction
// (an A/A interval [0.97, 1.02] gives 0.0309, i.e. 1/0.97 - 1).
double aaNoiseFloor(double ciLow, double ciHigh);

// "1.234x speedup" / "0.812x speedup" and the same as a percentage change of B's time vs A's
// ("time -18.7 %": B takes 18.7 % less time).
std::string speedupText(double ratio);
// A ratio's 95 % interval as every surface writes it (report.md, the progress lines, the
// workbench's table): "[0.981x, 1.034x]".
std::string intervalText(double ciLow, double ciHigh);

// The share of a block's wall time its thread spent on a CPU: thread CPU over wall time, at most 1
// (the two clocks tick apart), 1 for an empty block. A query's thread CPU is its wall time times
// its block's share (CompareRunner: no system call per query).
double onCpuShare(std::int64_t threadCpuNs, std::int64_t wallNs) noexcept;

// The warning of a comparison whose CPU figures carry a large share of clock reads: each query's
// thread CPU sample holds about `clockMs` of them (about one steady-clock read's cost), the same
// for every target, which pulls every CPU benefit toward 1. `sets` holds, per query set, the
// smallest target's geometric mean of per-query medians (ms). One warning naming every set where
// clockMs reaches 10 % of it ("... on 2 of 3 sets (rare-2 49 %, mid-df-1 20 %) ..."); nothing when
// none does.
std::optional<std::string> clockShareWarning(const std::vector<std::pair<std::string, double>>& sets, double clockMs);
std::string percentText(double ratio);

}  // namespace wandscope::engine
