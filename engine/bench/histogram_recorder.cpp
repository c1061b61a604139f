// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/histogram_recorder.h"

namespace wandscope::engine {

HistogramRecorder::HistogramRecorder()
    : m_counts(std::make_unique<std::atomic<std::uint64_t>[]>(LatencyHistogram::kBuckets)) {
  for (std::size_t i = 0; i < LatencyHistogram::kBuckets; ++i) m_counts[i].store(0, std::memory_order_relaxed);
}

void HistogramRecorder::record(std::uint64_t value) noexcept {
  if (value < m_min.load(std::memory_order_relaxed)) m_min.store(value, std::memory_order_relaxed);
  if (value > m_max.load(std::memory_order_relaxed)) m_max.store(value, std::memory_order_relaxed);
  if (value > LatencyHistogram::kMaxValue) {
    m_overflow.store(m_overflow.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return;
  }
  auto& c = m_counts[LatencyHistogram::bucketIndex(value)];
  c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

std::uint64_t HistogramRecorder::collectDelta(LatencyHistogram& out, std::vector<std::uint64_t>& seen) const {
  if (seen.size() != LatencyHistogram::kBuckets + 1) seen.assign(LatencyHistogram::kBuckets + 1, 0);
  std::uint64_t added = 0;
  for (std::size_t i = 0; i < LatencyHistogram::kBuckets; ++i) {
    const std::uint64_t now = m_counts[i].load(std::memory_order_relaxed);
    if (now != seen[i]) {
      out.addToBucket(i, now - seen[i]);
      added += now - seen[i];
      seen[i] = now;
    }
  }
  const std::uint64_t overflow = m_overflow.load(std::memory_order_relaxed);
  if (overflow != seen.back()) {
    // Overflowed samples have no bucket: count them and let the max show where they are.
    out.addOverflow(overflow - seen.back(), m_max.load(std::memory_order_relaxed));
    added += overflow - seen.back();
    seen.back() = overflow;
  }
  return added;
}

LatencyHistogram HistogramRecorder::snapshot() const {
  LatencyHistogram out;
  std::vector<std::uint64_t> seen;
  collectDelta(out, seen);
  if (out.count() > 0) {
    out.setMinMax(m_min.load(std::memory_order_relaxed), m_max.load(std::memory_order_relaxed));
  }
  return out;
}

}  // namespace wandscope::engine
