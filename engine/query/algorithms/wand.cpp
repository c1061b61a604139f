// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/wand.h"

#include "engine/query/algorithms/wand_lists.h"

#include <cstddef>
#include <vector>

namespace wandscope::engine {

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
  std::vector<WandList> entries;
  std::vector<WandList*> orderStore = listsByDocId(ctx, entries);
  WandList** order = orderStore.data();
  const std::vector<double> factors = sumFactors(n);

  for (;;) {
    const std::size_t p = selectPivot(ctx, order, n, factors, ctx.topk.floor());
    if (p == n) return;
    const DocId pivot = order[p]->doc;

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
