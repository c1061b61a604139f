// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/models/trace_snapshot.h"

#include <algorithm>

namespace wandscope::widgets {

std::size_t TraceLane::blockOf(engine::DocId doc) const {
  return static_cast<std::size_t>(std::lower_bound(blockLast.begin(), blockLast.end(), doc) - blockLast.begin());
}

engine::DocId TraceLane::blockFirst(std::size_t b) const {
  if (b < blockStart.size()) return blockStart[b];
  return b == 0 ? 0 : blockLast[b - 1] + 1;
}

std::vector<engine::Hit> TraceSnapshot::heapAt(const TraceRun& run, std::size_t k, std::size_t step) {
  std::vector<engine::Hit> heap;
  if (k == 0) return heap;
  auto better = [](const engine::Hit& a, const engine::Hit& b) {
    return a.score != b.score ? a.score > b.score : a.doc < b.doc;
  };
  const std::size_t end = std::min(step + 1, run.events.size());
  for (std::size_t i = 0; i < end; ++i) {
    const engine::TraceEvent& e = run.events[i];
    if (e.kind != engine::TraceEventKind::HeapInsert) continue;
    engine::Hit h;
    h.doc = e.doc;
    h.score = e.score;
    heap.insert(std::upper_bound(heap.begin(), heap.end(), h, better), h);
    if (heap.size() > k) heap.pop_back();
  }
  return heap;
}

}  // namespace wandscope::widgets
