// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace wandscope::engine {

// The one quantile definition every report uses: nearest rank. The q-quantile of n sorted samples
// is the sample at 1-based rank ceil(q * n) (rank 1 for q = 0). It is always a value some request
// actually had; nothing is interpolated.
//
// Thin samples are not reported: a quantile is returned only when at least `minBeyond` samples lie
// beyond it, i.e. n * (1 - q) >= minBeyond (p50 needs 200 samples, p99 10,000, p99.9 100,000 with
// the default of 100). Otherwise the result is absent, and reports show it as absent.
std::optional<double> nearestRankQuantile(const std::vector<double>& sorted, double q,
                                          std::size_t minBeyond = 100);

// The 1-based rank nearestRankQuantile picks (ceil(q * n), at least 1). n must be > 0.
std::size_t nearestRank(std::size_t n, double q);

// Minimum sample count for which a q-quantile is reported with `minBeyond` samples beyond it.
std::size_t minSamplesFor(double q, std::size_t minBeyond = 100);

}  // namespace wandscope::engine
