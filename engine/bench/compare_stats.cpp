// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/compare_stats.h"

#include "engine/bench/quantile.h"
#include "engine/core/error.h"
#include "engine/core/split_mix64.h"
#include "engine/core/wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wandscope::engine {
namespace {

// The value at fraction p of sorted values (nearest rank, as every other quantile we report).
double percentile(const std::vector<double>& sorted, double p) {
  const auto n = sorted.size();
  auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(n)));
  rank = std::clamp<std::size_t>(rank, 1, n);
  return sorted[rank - 1];
}

}  // namespace

double medianOf(std::vector<double> values) {
  if (values.empty()) return 0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double geometricMean(std::span<const double> values, double floor) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double v : values) sum += std::log(std::max(v, floor));
  return std::exp(sum / static_cast<double>(values.size()));
}

RatioEstimate bootstrapRatio(std::span<const double> a, std::span<const double> b, unsigned samples,
                             std::uint64_t seed) {
  if (a.size() != b.size() || a.empty()) throwInternal("bootstrapRatio: needs equally many paired values");
  constexpr double kFloor = 1e-6;
  const std::size_t n = a.size();
  // ln(GM(a) / GM(b)) = mean of the per-query log ratios: resampling queries resamples those.
  std::vector<double> d(n);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    d[i] = std::log(std::max(a[i], kFloor)) - std::log(std::max(b[i], kFloor));
    sum += d[i];
  }
  RatioEstimate e;
  e.ratio = std::exp(sum / static_cast<double>(n));
  if (samples == 0 || n == 1) {
    e.ciLow = e.ciHigh = e.ratio;
    return e;
  }
  std::vector<double> ratios;
  ratios.reserve(samples);
  std::uint64_t state = seed;
  for (unsigned s = 0; s < samples; ++s) {
    double t = 0;
    for (std::size_t i = 0; i < n; ++i) t += d[splitMix64(state) % n];
    ratios.push_back(std::exp(t / static_cast<double>(n)));
  }
  std::sort(ratios.begin(), ratios.end());
  e.ciLow = percentile(ratios, 0.025);
  e.ciHigh = percentile(ratios, 0.975);
  return e;
}

RatioEstimate bootstrapQuantileRatio(std::span<const double> a, std::span<const double> b, double q,
                                     unsigned samples, std::uint64_t seed) {
  if (a.empty() || b.empty()) throwInternal("bootstrapQuantileRatio: needs values on both sides");
  static constexpr double kFloor = 1e-6;
  auto quantileOf = [q](std::vector<double>& v) {
    const std::size_t rank = nearestRank(v.size(), q);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
    return std::max(v[rank - 1], kFloor);
  };
  std::vector<double> ra(a.begin(), a.end()), rb(b.begin(), b.end());
  RatioEstimate e;
  e.ratio = quantileOf(ra) / quantileOf(rb);
  if (samples == 0) {
    e.ciLow = e.ciHigh = e.ratio;
    return e;
  }
  std::vector<double> ratios;
  ratios.reserve(samples);
  std::uint64_t state = seed;
  auto resample = [&state](std::span<const double> from, std::vector<double>& into) {
    for (auto& x : into) x = from[splitMix64(state) % from.size()];
  };
  for (unsigned s = 0; s < samples; ++s) {
    resample(a, ra);
    resample(b, rb);
    ratios.push_back(quantileOf(ra) / quantileOf(rb));
  }
  std::sort(ratios.begin(), ratios.end());
  e.ciLow = percentile(ratios, 0.025);
  e.ciHigh = percentile(ratios, 0.975);
  return e;
}

std::string ratioVerdict(double ciLow, double ciHigh, double noiseFloor) {
  const double up = 1 + std::max(noiseFloor, 0.0);
  const double down = 1 / up;
  if (ciLow > up) return "faster";
  if (ciHigh < down) return "slower";
  if (ciLow >= down && ciHigh <= up) return "no-difference";
  return "inconclusive";
}

double aaNoiseFloor(double ciLow, double ciHigh) {
  const double low = ciLow > 0 ? 1 / ciLow : 1;
  return std::max({low, ciHigh, 1.0}) - 1;
}

// Three decimals, as intervalText: with two, "1.00x speedup" sat beside "[1.002x, 1.008x]", the
// estimate outside its own interval to the eye.
std::string speedupText(double ratio) { return fmt::format("{:.3f}x speedup", ratio); }

std::string intervalText(double ciLow, double ciHigh) { return fmt::format("[{:.3f}x, {:.3f}x]", ciLow, ciHigh); }

std::string percentText(double ratio) {
  // B's time relative to A's: ratio = A / B, so B / A - 1.
  if (ratio <= 0) return "n/a";
  // Named: beside "0.58x speedup" a bare "+71.2 %" read as a benefit, which is B's time growing.
  return fmt::format("time {:+.1f} %", (1 / ratio - 1) * 100);
}

double onCpuShare(std::int64_t threadCpuNs, std::int64_t wallNs) noexcept {
  if (wallNs <= 0 || threadCpuNs < 0) return 1.0;
  return std::min(1.0, static_cast<double>(threadCpuNs) / static_cast<double>(wallNs));
}

std::optional<std::string> clockShareWarning(const std::vector<std::pair<std::string, double>>& sets, double clockMs) {
  if (!(clockMs > 0)) return std::nullopt;
  std::string named;
  std::size_t count = 0;
  for (const auto& [set, medianMs] : sets) {
    if (!(medianMs > 0) || !std::isfinite(medianMs) || clockMs < 0.1 * medianMs) continue;
    named += fmt::format("{}{} {:.0f} %", count == 0 ? "" : ", ", set, 100 * clockMs / medianMs);
    ++count;
  }
  if (count == 0) return std::nullopt;
  return fmt::format(
      "the clock reads timing each query (about {} us, the same for every target) are 10 % or more of the median "
      "thread CPU per query on {} of {} sets ({}): every CPU figure of those sets includes them, which pulls each "
      "CPU benefit toward 1",
      significant(clockMs * 1e3), count, sets.size(), named);
}

}  // namespace wandscope::engine
