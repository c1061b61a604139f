// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/block_max_and.h"

#include "engine/score/score_bounds.h"

#include <algorithm>

namespace wandscope::engine {

// Leapfrog conjunction (rarest list leads) with one extra test per candidate position: the
// clauses' block maxima at the candidate, summed conservatively. When that bound cannot beat the
// floor, no document up to the nearest block end can either, so every cursor jumps past it
// without decoding (PISA's block_max_ranked_and, with the f64/outward bound of SCORING.md).
void blockMaxAnd(QueryContext& ctx) {
  auto& cursors = ctx.cursors;
  std::vector<PostingCursor*> order;
  for (auto& c : cursors) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(),
                   [](const PostingCursor* a, const PostingCursor* b) { return a->df() < b->df(); });
  const double factor = sumUpperBoundFactor(order.size());
  PostingCursor& lead = *order.front();
  DocId doc = lead.docId();
  while (doc != kNoMoreDocs) {
    // Gated on a floor, not on a full heap (top_k_collector.h): a preset floor (a one-term AND's
    // rank floor) prunes from the first document.
    if (ctx.options.windowSkip && ctx.topk.hasFloor()) {
      double sum = 0.0;
      DocId blockEnd = kNoMoreDocs;
      for (PostingCursor* c : order) {
        c->shallowAdvance(doc);
        sum += static_cast<double>(c->blockMaxScore());
        blockEnd = std::min(blockEnd, c->blockLastDoc());
      }
      const float bound = conservativeBound(sum, factor);
      if (bound <= ctx.topk.floor()) {
        countUp(ctx.counters.windowsSkippedBound);
        if (ctx.trace != nullptr) {
          ctx.trace->record({TraceEventKind::BlockSkipped, TraceReason::Bound, -1, doc,
                             blockEnd == kNoMoreDocs ? kNoMoreDocs : blockEnd + 1, 0, bound, ctx.topk.floor()});
        }
        if (blockEnd == kNoMoreDocs) return;
        lead.nextGeq(blockEnd + 1);
        doc = lead.docId();
        continue;
      }
    }
    bool aligned = true;
    for (std::size_t i = 1; i < order.size(); ++i) {
      order[i]->nextGeq(doc);
      if (order[i]->docId() != doc) {
        aligned = false;
        doc = order[i]->docId();
        break;
      }
    }
    if (!aligned) {
      if (doc == kNoMoreDocs) return;
      lead.nextGeq(doc);
      doc = lead.docId();
      continue;
    }
    countUp(ctx.counters.candidatesSeen);
    ctx.collect(doc, ctx.scoreInQueryOrder(doc));
    lead.next();
    doc = lead.docId();
  }
}

}  // namespace wandscope::engine
