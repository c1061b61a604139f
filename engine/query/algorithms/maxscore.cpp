// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/maxscore.h"

#include "engine/query/algorithms/maxscore_lists.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {

// MaxScore (Turtle & Flood), PISA's document-at-a-time form, with the bounds of score_bounds.h.
//
// Lists are sorted by list maximum, ascending (ties: the longer list first, since non-essential
// lists are probed with nextGeq instead of being walked). upper[j] is the f64 sum of the first j
// maxima. The non-essential prefix order[0..e) is the longest one whose conservative bound
// (factor for e terms) is <= floor: a document found only in those lists cannot enter, so
// candidates come from the essential lists order[e..n) alone. e only grows (the floor only rises).
//
// Per candidate: partial = the essential contributions (f32, traversal order, pruning only); the
// non-essential lists are then probed in descending maximum order, and before probing order[j-1]
// the candidate is dropped if partial + upper[j] cannot compete (factor for all n terms); after
// the last probe, if partial alone cannot. A candidate that survives has every list containing it
// positioned on it, and is offered with its canonical query-order score.
//
// candidate_prune=off disables the per-candidate drops (every non-essential list is probed); the
// essential/non-essential split itself is the algorithm and stays on.
void maxScore(QueryContext& ctx) {
  const std::size_t n = ctx.cursors.size();
  if (n == 0) return;
  const std::vector<MaxScoreList> order = listsByMaximum<MaxScoreList>(ctx);
  const std::vector<double> upper = maximumPrefixSums(order);
  const double factorAll = sumUpperBoundFactor(n);
  const bool prune = ctx.options.candidatePrune;

  std::size_t e = 0;  // first essential list
  Score floor = ctx.topk.floor();
  double floorD = static_cast<double>(floor);
  // Grows the non-essential prefix for the current floor.
  auto onFloor = [&](bool initial) { e = growEssentialSplit(ctx, order, upper, e, floor, initial); };
  onFloor(true);

  DocId candidate = kNoMoreDocs;
  for (std::size_t i = e; i < n; ++i) candidate = std::min(candidate, order[i].cursor->docId());
  while (candidate != kNoMoreDocs && e < n) {
    countUp(ctx.counters.candidatesSeen);
    Score partial = 0.0f;
    for (std::size_t i = e; i < n; ++i) {
      PostingCursor& c = *order[i].cursor;
      if (c.docId() == candidate) {
        partial += c.score();
        countUp(ctx.counters.maxscoreEssential);
      }
    }
    bool pruned = false;
    std::size_t j = e;  // non-essential lists order[0..j) not probed yet
    for (;; --j) {
      if (prune && !beatsFloor(static_cast<double>(partial) + upper[j], factorAll, floorD)) {
        pruned = true;
        break;
      }
      if (j == 0) break;
      PostingCursor& c = *order[j - 1].cursor;
      if (c.docId() < candidate) c.nextGeq(candidate);
      countUp(ctx.counters.maxscoreNonEssential);
      if (c.docId() == candidate) partial += c.score();
    }
    if (pruned) {
      countUp(ctx.counters.candidatesPrunedLimit);
      if (ctx.trace != nullptr) {
        ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Bound, -1, candidate, 0, partial,
                           conservativeBound(static_cast<double>(partial) + upper[j], factorAll), floor});
      }
    } else {
      ctx.collect(candidate, ctx.scoreInQueryOrder(candidate));
      if (ctx.topk.floor() != floor) {
        floor = ctx.topk.floor();
        floorD = static_cast<double>(floor);
        onFloor(false);
      }
    }
    DocId next = kNoMoreDocs;
    for (std::size_t i = e; i < n; ++i) {
      PostingCursor& c = *order[i].cursor;
      if (c.docId() == candidate) c.next();
      next = std::min(next, c.docId());
    }
    candidate = next;
  }
}

}  // namespace wandscope::engine
