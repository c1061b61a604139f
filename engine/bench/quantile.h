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

// A distribution-free confidence interval for a quantile from binomial order statistics: the
// number of samples below the true q-quantile is Binomial(n, q), so with the normal approximation
// the ranks
//   lowRank  = floor(n q - z sqrt(n q (1 - q))),   highRank = ceil(n q + z sqrt(n q (1 - q)))
// (clamped to [1, n]) bracket it with ~95 % confidence for z = 1.96; the interval is
// [x_(lowRank), x_(highRank)]. No distribution is assumed; the values are recorded samples.
struct QuantileInterval {
  double low = 0;
  double high = 0;
  std::size_t lowRank = 0;   // 1-based
  std::size_t highRank = 0;  // 1-based
};

// The 1-based ranks of the interval above for n samples (n > 0).
QuantileInterval confidenceRanks(std::size_t n, double q, double z = 1.96);

// The interval for `sorted`; absent exactly when nearestRankQuantile is (thin samples).
std::optional<QuantileInterval> nearestRankInterval(const std::vector<double>& sorted, double q,
                                                    std::size_t minBeyond = 100, double z = 1.96);

// The sentence reports print under their tables (one definition, stated everywhere).
inline constexpr const char* kQuantileDefinition =
    "quantiles are nearest rank (the sample at rank ceil(q*n), never interpolated) and are shown "
    "only with at least 100 samples beyond them (p50 needs 200, p99 10,000, p99.9 100,000); "
    "95 % intervals are distribution-free, from binomial order statistics";

}  // namespace wandscope::engine
