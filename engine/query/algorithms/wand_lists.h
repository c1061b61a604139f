// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The doc-id ordered lists and the pivot selection that WAND and Block-Max WAND share (wand.cpp,
// block_max_wand.cpp).

#include "engine/query/query_context.h"
#include "engine/score/score_bounds.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {

// One query list: the cursor, its doc id (refreshed after every move, so sorting reads only the
// entry), its cursor's index in ctx.cursors (for traces, which map it to the query term) and its
// list maximum widened to f64 once.
struct WandList {
  PostingCursor* cursor = nullptr;
  DocId doc = 0;
  std::int32_t term = 0;
  double maxScore = 0.0;
};

// Restores doc-id order after order[i] moved forward (its doc only grew): insertion of one
// element into the sorted suffix. Exhausted cursors (kNoMoreDocs) sink to the end.
template <class Entry>
inline void sinkForward(Entry** order, std::size_t n, std::size_t i) noexcept {
  Entry* moved = order[i];
  const DocId doc = moved->doc;
  for (; i + 1 < n && order[i + 1]->doc < doc; ++i) order[i] = order[i + 1];
  order[i] = moved;
}

// Fills `entries` (query order; Entry is WandList or derived from it, its own members
// value-initialised) and returns pointers to them in doc-id order.
template <class Entry>
std::vector<Entry*> listsByDocId(QueryContext& ctx, std::vector<Entry>& entries) {
  const std::size_t n = ctx.cursors.size();
  entries.assign(n, Entry{});
  std::vector<Entry*> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    PostingCursor& c = ctx.cursors[i];
    WandList& list = entries[i];
    list = {&c, c.docId(), static_cast<std::int32_t>(i), static_cast<double>(c.maxScore())};
    order[i] = &entries[i];
  }
  for (std::size_t i = n; i-- > 0;) sinkForward(order.data(), n, i);
  return order;
}

// factors[m]: the widening for a sum of m terms, m = 0..n (hoisted out of the pivot loop).
inline std::vector<double> sumFactors(std::size_t n) {
  std::vector<double> factors(n + 1);
  for (std::size_t m = 0; m <= n; ++m) factors[m] = sumUpperBoundFactor(m);
  return factors;
}

// The pivot for `floor`: the first position p (lists in doc-id order) where the conservative bound
// of the list maxima of order[0..p] (an f64 running sum) beats the floor, counted and traced. n when
// there is none: only exhausted lists remain, or all lists together cannot beat the floor.
template <class Entry>
std::size_t selectPivot(QueryContext& ctx, Entry* const* order, std::size_t n, const std::vector<double>& factors,
                        Score floor) {
  const double floorD = static_cast<double>(floor);
  double sum = 0.0;
  std::size_t p = 0;
  for (; p < n; ++p) {
    if (order[p]->doc == kNoMoreDocs) return n;
    sum += order[p]->maxScore;
    if (beatsFloor(sum, factors[p + 1], floorD)) break;
  }
  if (p == n) return n;
  countUp(ctx.counters.wandPivots);
  if (ctx.trace != nullptr) {
    ctx.trace->record({TraceEventKind::PivotSelected, TraceReason::None, order[p]->term, order[p]->doc, 0, 0,
                       conservativeBound(sum, factors[p + 1]), floor});
  }
  return p;
}

}  // namespace wandscope::engine
