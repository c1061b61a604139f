// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/wand.h"

#include "engine/score/score_bounds.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {
namespace {

// One query term: the cursor, its doc id (refreshed after every move, so sorting reads only the
// entry), its query-order index (for traces) and its list maximum widened to f64 once.
struct WandEntry {
  PostingCursor* cursor;
  DocId doc;
  std::int32_t term;
  double maxScore;
};

// Restores doc-id order after order[i] moved forward (its doc only grew): insertion of one
// element into the sorted suffix. Exhausted cursors (kNoMoreDocs) sink to the end.
inline void sinkForward(WandEntry** order, std::size_t n, std::size_t i) noexcept {
  WandEntry* moved = order[i];
  const DocId doc = moved->doc;
  for (; i + 1 < n && order[i + 1]->doc < doc; ++i) order[i] = order[i + 1];
  order[i] = moved;
}


}  // namespace

// Broder et al.'s WAND over list maxima, in ascending doc-id order.
//
// Pivot: the first position p (cursors sorted by doc id) where the conservative bound of the list
// maxima of order[0..p] beats the floor. A document before the pivot's doc can only be in lists
// order[0..p-1], whose widened f64 sum of maxima (factor for p terms, which is no larger than
// the pivot's) is <= floor, so no such document can enter: skipping them is exact.
//
// When the first cursor is already on the pivot doc, every list containing that doc is on it (the
// array is sorted), so the canonical query-order score is available: it is computed and offered.
// Otherwise one lagging cursor is moved to the pivot doc. Choice: the lagging cursor with the
// largest list maximum (first in doc order on ties). It is the term that most often makes the
// pivot a real candidate, and moving a heavy term away is what lowers the prefix sum fastest
// when it turns out to miss the pivot doc.
void wand(QueryContext& ctx) {
  const std::size_t n = ctx.cursors.size();
  if (n == 0) return;
  std::vector<WandEntry> entries;
  entries.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    PostingCursor& c = ctx.cursors[i];
    entries.push_back({&c, c.docId(), static_cast<std::int32_t>(i), static_cast<double>(c.maxScore())});
  }
  std::vector<WandEntry*> orderStore(n);
  WandEntry** order = orderStore.data();
  for (std::size_t i = 0; i < n; ++i) order[i] = &entries[i];
  for (std::size_t i = n; i-- > 0;) sinkForward(order, n, i);
  // factors[m]: the widening for a sum of m terms (hoisted out of the pivot loop).
  std::vector<double> factors(n + 1);
  for (std::size_t m = 0; m <= n; ++m) factors[m] = sumUpperBoundFactor(m);

  for (;;) {
    const Score floor = ctx.topk.floor();
    const double floorD = static_cast<double>(floor);
    // Pivot selection: f64 running sum of list maxima in doc order.
    double sum = 0.0;
    std::size_t p = 0;
    for (; p < n; ++p) {
      if (order[p]->doc == kNoMoreDocs) return;  // only exhausted lists remain
      sum += order[p]->maxScore;
      if (beatsFloor(sum, factors[p + 1], floorD)) break;
    }
    if (p == n) return;  // even all lists together cannot beat the floor
    const DocId pivot = order[p]->doc;
    countUp(ctx.counters.wandPivots);
    if (ctx.trace != nullptr) {
      ctx.trace->record({TraceEventKind::PivotSelected, TraceReason::None, order[p]->term, pivot, 0, 0,
                         conservativeBound(sum, factors[p + 1]), floor});
    }

    if (order[0]->doc == pivot) {
      // Aligned: every list containing the pivot doc is positioned on it.
      countUp(ctx.counters.candidatesSeen);
      ctx.collect(pivot, ctx.scoreInQueryOrder(pivot));
      std::size_t m = 0;
      while (m < n && order[m]->doc == pivot) ++m;
      for (std::size_t i = m; i-- > 0;) {
        order[i]->cursor->next();
        order[i]->doc = order[i]->cursor->docId();
        sinkForward(order, n, i);
      }
      continue;
    }

    // Not aligned: move the lagging cursor with the largest maximum to the pivot doc.
    std::size_t pick = 0;
    for (std::size_t i = 1; i < p && order[i]->doc < pivot; ++i) {
      if (order[i]->maxScore > order[pick]->maxScore) pick = i;
    }
    order[pick]->cursor->nextGeq(pivot);
    order[pick]->doc = order[pick]->cursor->docId();
    sinkForward(order, n, pick);
  }
}

}  // namespace wandscope::engine
