// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/quantile.h"

#include <algorithm>
#include <cmath>

namespace wandscope::engine {

std::size_t nearestRank(std::size_t n, double q) {
  if (q <= 0.0) return 1;
  if (q >= 1.0) return n;
  // Guard against q * n landing a hair above an integer through rounding (0.99 * 10000).
  const double exact = q * static_cast<double>(n);
  const double rounded = std::round(exact);
  const double r = std::fabs(exact - rounded) < 1e-9 * static_cast<double>(n) ? rounded : std::ceil(exact);
  const auto rank = static_cast<std::size_t>(r);
  return rank < 1 ? 1 : (rank > n ? n : rank);
}

std::size_t minSamplesFor(double q, std::size_t minBeyond) {
  if (minBeyond == 0) return 1;
  if (q >= 1.0) return static_cast<std::size_t>(-1);
  const double n = static_cast<double>(minBeyond) / (1.0 - q);
  const double rounded = std::round(n);
  return static_cast<std::size_t>(std::fabs(n - rounded) < 1e-6 ? rounded : std::ceil(n));
}

std::optional<double> nearestRankQuantile(const std::vector<double>& sorted, double q, std::size_t minBeyond) {
  if (sorted.empty() || sorted.size() < minSamplesFor(q, minBeyond)) return std::nullopt;
  return sorted[nearestRank(sorted.size(), q) - 1];
}

QuantileInterval confidenceRanks(std::size_t n, double q, double z) {
  QuantileInterval out;
  const double nd = static_cast<double>(n);
  const double centre = nd * q;
  const double half = z * std::sqrt(nd * q * (1.0 - q));
  // The small epsilon keeps exact integers (n q +- half landing on one) from moving by a rank.
  const double lo = std::floor(centre - half + 1e-9);
  const double hi = std::ceil(centre + half - 1e-9);
  out.lowRank = static_cast<std::size_t>(std::clamp(lo, 1.0, nd));
  out.highRank = static_cast<std::size_t>(std::clamp(hi, 1.0, nd));
  return out;
}

std::optional<QuantileInterval> nearestRankInterval(const std::vector<double>& sorted, double q,
                                                    std::size_t minBeyond, double z) {
  if (!nearestRankQuantile(sorted, q, minBeyond)) return std::nullopt;
  QuantileInterval out = confidenceRanks(sorted.size(), q, z);
  out.low = sorted[out.lowRank - 1];
  out.high = sorted[out.highRank - 1];
  return out;
}

}  // namespace wandscope::engine
