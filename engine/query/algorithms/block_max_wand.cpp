// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/block_max_wand.h"

#include "engine/query/algorithms/cached_block_max.h"
#include "engine/query/algorithms/wand_lists.h"
#include "engine/score/score_bounds.h"

#include <cstddef>
#include <vector>

namespace wandscope::engine {
namespace {

// A list with its cached block pointer (cached_block_max.h, shallowTo).
struct BmwEntry : WandList {
  DocId blockEnd = 0;
  double blockMax = 0.0;
};

inline void advance(BmwEntry& e) {
  e.cursor->next();
  e.doc = e.cursor->docId();
}

inline void advanceTo(BmwEntry& e, DocId target) {
  e.cursor->nextGeq(target);
  e.doc = e.cursor->docId();
}


}  // namespace

// Block-Max WAND (Ding & Suel), PISA's loop with the f64/outward bounds of score_bounds.h.
//
//  1. Pivot by list maxima exactly as in wand() (documents before it cannot enter).
//  2. Shallow-move every cursor up to the pivot, plus those sitting on the pivot doc
//     (order[0..last]), to the pivot doc and bound the pivot with their block maxima.
//  3. Block bound > floor: if aligned, score the pivot (with an early exit when candidate_prune is
//     on: block maxima are replaced one by one by the exact contributions, and the candidate is
//     dropped as soon as the bound fails). Otherwise, with candidate_prune on, first bound the
//     pivot doc by the exact contributions of the lists already on it plus the block maxima of
//     the lagging ones (Lucene's and Lance's "lead scored first"): if that cannot compete, the
//     lists on the pivot doc step past it and no lagging list is moved or decoded. Else move the
//     lagging cursor with the largest list maximum to the pivot doc.
//  4. Block bound <= floor: no document in [pivot, next) can enter, where next is the nearest end
//     of those blocks + 1, capped by the doc of the first cursor after order[last] (documents in
//     that range are only in lists order[0..last], inside the blocks just bounded). The cursor
//     with the largest list maximum among order[0..last] jumps to next. When order[0] is alone
//     before the cap (one-term queries, or one frequent list far behind the others), its block
//     pointer first runs ahead block by block, without decoding, while the blocks still cannot
//     beat the floor: a one-list skip decodes only the block it lands in.
//
// Pivot docs never decrease (documents before a pivot are settled for good), which is what makes
// the cached block pointers (BmwEntry) valid.
void blockMaxWand(QueryContext& ctx) {
  const std::size_t n = ctx.cursors.size();
  if (n == 0) return;
  std::vector<BmwEntry> entries;
  std::vector<BmwEntry*> orderStore = listsByDocId(ctx, entries);
  BmwEntry** order = orderStore.data();
  const std::vector<double> factors = sumFactors(n);
  std::vector<double> suffix(n + 1);  // f64 suffix sums of block maxima for the early exit
  const bool earlyExit = ctx.options.candidatePrune;

  for (;;) {
    const Score floor = ctx.topk.floor();
    const double floorD = static_cast<double>(floor);
    const std::size_t p = selectPivot(ctx, order, n, factors, floor);
    if (p == n) return;
    const DocId pivot = order[p]->doc;
    std::size_t last = p;
    while (last + 1 < n && order[last + 1]->doc == pivot) ++last;

    double blockSum = 0.0;
    for (std::size_t i = 0; i <= last; ++i) {
      shallowTo(*order[i], pivot);
      blockSum += order[i]->blockMax;
    }
    const double factor = factors[last + 1];

    if (beatsFloor(blockSum, factor, floorD)) {
      if (order[0]->doc == pivot) {
        countUp(ctx.counters.candidatesSeen);
        bool pruned = false;
        if (earlyExit) {
          suffix[last + 1] = 0.0;
          for (std::size_t i = last + 1; i-- > 0;) suffix[i] = suffix[i + 1] + order[i]->blockMax;
          Score partial = 0.0f;
          for (std::size_t i = 0; i <= last; ++i) {
            partial += order[i]->cursor->score();
            const double bound = static_cast<double>(partial) + suffix[i + 1];
            if (!beatsFloor(bound, factor, floorD)) {
              pruned = true;
              countUp(ctx.counters.candidatesPrunedLimit);
              if (ctx.trace != nullptr) {
                ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Bound, order[i]->term, pivot, 0,
                                   partial, conservativeBound(bound, factor), floor});
              }
              break;
            }
          }
        }
        if (!pruned) ctx.collect(pivot, ctx.scoreInQueryOrder(pivot));
        for (std::size_t i = last + 1; i-- > 0;) {
          advance(*order[i]);
          sinkForward(order, n, i);
        }
        continue;
      }
      // Not aligned: order[0..lead) lag behind the pivot doc, order[lead..last] sit on it.
      std::size_t pick = 0;
      std::size_t lead = 1;
      double lagging = order[0]->blockMax;
      for (; order[lead]->doc < pivot; ++lead) {
        lagging += order[lead]->blockMax;
        if (order[lead]->maxScore > order[pick]->maxScore) pick = lead;
      }
      if (earlyExit) {
        // Lead first: the exact contributions of the lists on the pivot doc plus the lagging
        // lists' block maxima. If that cannot compete, the pivot doc is settled without moving
        // (and decoding) any lagging list.
        Score partial = 0.0f;
        for (std::size_t i = lead; i <= last; ++i) partial += order[i]->cursor->score();
        const double bound = static_cast<double>(partial) + lagging;
        if (!beatsFloor(bound, factor, floorD)) {
          countUp(ctx.counters.candidatesSeen);
          countUp(ctx.counters.candidatesPrunedLimit);
          if (ctx.trace != nullptr) {
            ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Bound, order[p]->term, pivot, 0,
                               partial, conservativeBound(bound, factor), floor});
          }
          for (std::size_t i = last + 1; i-- > lead;) {
            advance(*order[i]);
            sinkForward(order, n, i);
          }
          continue;
        }
      }
      advanceTo(*order[pick], pivot);
      sinkForward(order, n, pick);
      continue;
    }

    // Skip: nothing in [pivot, next) can beat the floor.
    const DocId cap = last + 1 < n ? order[last + 1]->doc : kNoMoreDocs;
    DocId next = cap;
    std::size_t pick = 0;
    for (std::size_t i = 0; i <= last; ++i) {
      if (order[i]->blockEnd < next) next = order[i]->blockEnd;
      if (order[i]->maxScore > order[pick]->maxScore) pick = i;
    }
    if (last == 0) {
      // One list alone before the cap: run its block pointer ahead while its blocks stay <= floor.
      BmwEntry& only = *order[0];
      while (next < cap) {
        shallowTo(only, next);
        if (beatsFloor(only.blockMax, factor, floorD)) break;
        next = only.blockEnd < cap ? only.blockEnd : cap;
      }
    }
    if (ctx.trace != nullptr) {
      ctx.trace->record({TraceEventKind::BlockSkipped, TraceReason::Bound, order[pick]->term, pivot, next, 0,
                         conservativeBound(blockSum, factor), floor});
    }
    if (next == kNoMoreDocs) return;  // nothing competitive is left in any list
    advanceTo(*order[pick], next);
    sinkForward(order, n, pick);
  }
}

}  // namespace wandscope::engine
