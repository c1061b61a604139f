// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/block_max_maxscore.h"

#include "engine/query/algorithms/cached_block_max.h"
#include "engine/query/algorithms/maxscore_lists.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace wandscope::engine {
namespace {

// A list with its cached block pointer (cached_block_max.h, shallowTo).
struct BmmEntry : MaxScoreList {
  DocId blockEnd = 0;
  double blockMax = 0.0;
};

}  // namespace

// Block-Max MaxScore: maxScore() (same split, same ordering) whose non-essential probing is
// preceded by a block-maximum pass (PISA's block_max_maxscore):
//
//  1. partial = essential contributions; dropped at once if partial + upper[e] cannot compete.
//  2. Going down the non-essential lists (largest maximum first), each block pointer is moved to
//     the candidate (no decoding; cached per list, so mostly no call at all) and the list maximum
//     replaced by the block maximum; the candidate is dropped as soon as partial + (list maxima of
//     the lists not reached yet) + (block maxima of those reached) cannot compete. Most candidates
//     of a frequent essential term die here without a single non-essential block decoded.
//  3. Survivors probe the non-essential lists with nextGeq, replacing each block maximum by the
//     exact contribution and dropping the candidate as soon as the bound fails.
//
// Every drop counts in candidatesPrunedLimit. Bounds are f64 sums widened for all n terms and
// compared exactly as score_bounds.h does. candidate_prune=off turns steps 1-3's drops off (every
// non-essential list is then probed), leaving plain MaxScore.
void blockMaxMaxScore(QueryContext& ctx) {
  const std::size_t n = ctx.cursors.size();
  if (n == 0) return;
  std::vector<BmmEntry> order = listsByMaximum<BmmEntry>(ctx);
  const std::vector<double> upper = maximumPrefixSums(order);
  const double factorAll = sumUpperBoundFactor(n);
  const bool prune = ctx.options.candidatePrune;
  const bool windowSkip = ctx.options.windowSkip;
  std::vector<double> blockPrefix(n + 1, 0.0);  // blockPrefix[j]: f64 sum of block maxima of order[0..j)

  std::size_t e = 0;
  Score floor = ctx.topk.floor();
  double floorD = static_cast<double>(floor);
  auto onFloor = [&](bool initial) { e = growEssentialSplit(ctx, order, upper, e, floor, initial); };
  onFloor(true);

  DocId candidate = kNoMoreDocs;
  for (std::size_t i = e; i < n; ++i) candidate = std::min(candidate, order[i].cursor->docId());
  // The window bound is tested again only once a candidate reaches windowEnd: the end of the
  // last window that could compete, 0 after the floor rose, kNoMoreDocs while the floor is -inf
  // or with window_skip off.
  DocId windowEnd = windowSkip && floorD > -std::numeric_limits<double>::infinity() ? 0 : kNoMoreDocs;
  while (candidate != kNoMoreDocs && e < n) {
    if (candidate >= windowEnd) {
      // Window bound: every list's block maximum at the candidate. If it cannot compete, no
      // document before the nearest block end can; the window then grows block by block (block
      // pointers only) while it still cannot, and the essential cursors jump past it. If it can,
      // it is not tested again before a block ends or the floor rises (it could not change).
      double s = 0.0;
      DocId end = kNoMoreDocs;
      for (std::size_t i = 0; i < n; ++i) {
        shallowTo(order[i], candidate);
        s += order[i].blockMax;
        end = std::min(end, order[i].blockEnd);
      }
      windowEnd = end;
      if (!beatsFloor(s, factorAll, floorD)) {
        const float bound = conservativeBound(s, factorAll);
        while (end != kNoMoreDocs) {
          double t = 0.0;
          DocId further = kNoMoreDocs;
          for (std::size_t i = 0; i < n; ++i) {
            shallowTo(order[i], end);
            t += order[i].blockMax;
            further = std::min(further, order[i].blockEnd);
          }
          if (beatsFloor(t, factorAll, floorD)) break;
          end = further;
        }
        countUp(ctx.counters.windowsSkippedBound);  // a block range, as block-max-and counts one
        if (ctx.trace != nullptr) {
          ctx.trace->record({TraceEventKind::BlockSkipped, TraceReason::Bound, -1, candidate, end, 0, bound, floor});
        }
        if (end == kNoMoreDocs) return;
        DocId next = kNoMoreDocs;
        for (std::size_t i = e; i < n; ++i) {
          PostingCursor& c = *order[i].cursor;
          if (c.docId() < end) c.nextGeq(end);
          next = std::min(next, c.docId());
        }
        candidate = next;
        continue;
      }
    }
    countUp(ctx.counters.candidatesSeen);
    Score partial = 0.0f;
    for (std::size_t i = e; i < n; ++i) {
      PostingCursor& c = *order[i].cursor;
      if (c.docId() == candidate) {
        partial += c.score();
        countUp(ctx.counters.maxscoreEssential);
      }
    }
    const double partialD = static_cast<double>(partial);

    bool pruned = false;
    double prunedRest = 0.0;  // partial + the remaining bound that justified a drop
    if (prune) {
      if (!beatsFloor(partialD + upper[e], factorAll, floorD)) {
        pruned = true;
        prunedRest = partialD + upper[e];
      } else if (e > 0) {
        // Step 2: block maxima, most valuable non-essential list first.
        double reached = 0.0;
        for (std::size_t j = e; j-- > 0;) {
          shallowTo(order[j], candidate);
          reached += order[j].blockMax;
          const double rest = partialD + (upper[j] + reached);
          if (!beatsFloor(rest, factorAll, floorD)) {
            pruned = true;
            prunedRest = rest;
            break;
          }
        }
        if (!pruned) {
          for (std::size_t j = 0; j < e; ++j) blockPrefix[j + 1] = blockPrefix[j] + order[j].blockMax;
        }
      }
    }
    if (!pruned) {
      // Step 3: exact probes; before probing order[j-1] the rest is bounded by blockPrefix[j].
      for (std::size_t j = e; j > 0; --j) {
        if (prune && j < e) {
          const double rest = static_cast<double>(partial) + blockPrefix[j];
          if (!beatsFloor(rest, factorAll, floorD)) {
            pruned = true;
            prunedRest = rest;
            break;
          }
        }
        PostingCursor& c = *order[j - 1].cursor;
        if (c.docId() < candidate) c.nextGeq(candidate);
        countUp(ctx.counters.maxscoreNonEssential);
        if (c.docId() == candidate) partial += c.score();
      }
      if (!pruned && prune && !beatsFloor(static_cast<double>(partial), factorAll, floorD)) {
        pruned = true;
        prunedRest = static_cast<double>(partial);
      }
    }

    if (pruned) {
      countUp(ctx.counters.candidatesPrunedLimit);
      if (ctx.trace != nullptr) {
        ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Bound, -1, candidate, 0, partial,
                           conservativeBound(prunedRest, factorAll), floor});
      }
    } else {
      ctx.collect(candidate, ctx.scoreInQueryOrder(candidate));
      if (ctx.topk.floor() != floor) {
        floor = ctx.topk.floor();
        floorD = static_cast<double>(floor);
        onFloor(false);
        if (windowSkip) windowEnd = 0;
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
