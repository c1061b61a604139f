// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/latency_histogram.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace wandscope::engine {

// The hot-path side of a LatencyHistogram: exactly one thread records (a worker), any one other
// thread reads (the monitor's tick). Counts are relaxed atomics written with load + store, not
// read-modify-write, because there is a single writer: recording costs a couple of plain memory
// operations and takes no lock. The reader never resets anything; it keeps the counts it saw last
// and merges the differences (collectDelta), so nothing recorded between two ticks is lost or
// counted twice. A tick may see bucket i of a sample whose total is not yet visible (or the
// reverse); per-tick views tolerate that, and the per-rung numbers come from the exact
// per-request records, not from these histograms.
class HistogramRecorder {
 public:
  HistogramRecorder();
  HistogramRecorder(const HistogramRecorder&) = delete;
  HistogramRecorder& operator=(const HistogramRecorder&) = delete;

  // Writer thread only.
  void record(std::uint64_t value) noexcept;

  // Reader side: adds everything recorded since the previous call with the same `seen` vector
  // (start with an empty one) to `out`, and returns the number of samples added.
  std::uint64_t collectDelta(LatencyHistogram& out, std::vector<std::uint64_t>& seen) const;

  // Everything recorded so far (reader side).
  LatencyHistogram snapshot() const;

 private:
  std::unique_ptr<std::atomic<std::uint64_t>[]> m_counts;
  std::atomic<std::uint64_t> m_overflow{0};
  std::atomic<std::uint64_t> m_min{~std::uint64_t{0}};
  std::atomic<std::uint64_t> m_max{0};
};

}  // namespace wandscope::engine
