// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/latency_histogram.h"

#include "engine/bench/quantile.h"

#include <algorithm>
#include <bit>

namespace wandscope::engine {

std::size_t LatencyHistogram::bucketIndex(std::uint64_t value) noexcept {
  if (value < 2 * kSubBuckets) return static_cast<std::size_t>(value);
  const unsigned msb = 63u - static_cast<unsigned>(std::countl_zero(value));
  const unsigned shift = msb - kSubBucketBits;
  const std::uint64_t sub = value >> shift;  // in [1024, 2048)
  return static_cast<std::size_t>((shift + 1) * kSubBuckets + (sub - kSubBuckets));
}

std::uint64_t LatencyHistogram::lowestEquivalent(std::size_t index) noexcept {
  if (index < 2 * kSubBuckets) return index;
  const std::uint64_t shift = index / kSubBuckets - 1;
  const std::uint64_t sub = index % kSubBuckets + kSubBuckets;
  return sub << shift;
}

std::uint64_t LatencyHistogram::highestEquivalent(std::size_t index) noexcept {
  if (index < 2 * kSubBuckets) return index;
  const std::uint64_t shift = index / kSubBuckets - 1;
  return lowestEquivalent(index) + (std::uint64_t{1} << shift) - 1;
}

void LatencyHistogram::record(std::uint64_t value) noexcept {
  ++m_total;
  m_min = std::min(m_min, value);
  m_max = std::max(m_max, value);
  if (value > kMaxValue) {
    ++m_overflow;
    return;
  }
  ++m_counts[bucketIndex(value)];
}

void LatencyHistogram::addToBucket(std::size_t index, std::uint64_t count) noexcept {
  if (count == 0) return;
  m_counts[index] += count;
  m_total += count;
  // Bucket bounds stand in for the exact extremes (setMinMax can supply those).
  m_min = std::min(m_min, lowestEquivalent(index));
  m_max = std::max(m_max, highestEquivalent(index));
}

void LatencyHistogram::addOverflow(std::uint64_t count, std::uint64_t maxValue) noexcept {
  if (count == 0) return;
  m_total += count;
  m_overflow += count;
  m_min = std::min(m_min, maxValue);
  m_max = std::max(m_max, maxValue);
}

void LatencyHistogram::add(const LatencyHistogram& other) noexcept {
  for (std::size_t i = 0; i < kBuckets; ++i) m_counts[i] += other.m_counts[i];
  m_total += other.m_total;
  m_overflow += other.m_overflow;
  if (other.m_total > 0) {
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
  }
}

void LatencyHistogram::clear() noexcept {
  std::fill(m_counts.begin(), m_counts.end(), 0);
  m_total = m_overflow = 0;
  m_min = ~std::uint64_t{0};
  m_max = 0;
}

void LatencyHistogram::setMinMax(std::uint64_t min, std::uint64_t max) noexcept {
  m_min = min;
  m_max = max;
}

std::optional<std::uint64_t> LatencyHistogram::quantile(double q) const noexcept {
  if (m_total == 0) return std::nullopt;
  if (q <= 0.0) return min();
  if (q >= 1.0) return m_max;
  const std::uint64_t rank = nearestRank(static_cast<std::size_t>(m_total), q);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += m_counts[i];
    if (seen >= rank) return std::min(highestEquivalent(i), m_max);
  }
  return m_max;  // the rank lies among the overflowed samples
}

}  // namespace wandscope::engine
