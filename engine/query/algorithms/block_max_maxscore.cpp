// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/block_max_maxscore.h"

#include "engine/score/score_bounds.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace wandscope::engine {
namespace {

struct BmmEntry {
  PostingCursor* cursor;
  std::int32_t term;  // query-order index
  Score maxScore;
  std::uint64_t df;
  // The block pointer as last read: docs before blockEnd (and from the target it was read for)
  // are in a block whose maximum is blockMax. Candidates only grow, so shallowAdvance() is called
  // only when a candidate crosses blockEnd.
  DocId blockEnd;
  double blockMax;
};

DocId firstDocAfter(DocId lastDoc) noexcept { return lastDoc == kNoMoreDocs ? kNoMoreDocs : lastDoc + 1; }

void shallowTo(BmmEntry& e, DocId target) {
  if (target < e.blockEnd) return;
  e.cursor->shallowAdvance(target);
  e.blockEnd = firstDocAfter(e.cursor->blockLastDoc());
  e.blockMax = static_cast<double>(e.cursor->blockMaxScore());
}


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
  std::vector<BmmEntry> order;
  order.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    PostingCursor& c = ctx.cursors[i];
    order.push_back({&c, static_cast<std::int32_t>(i), c.maxScore(), c.df(), 0, 0.0});
  }
  std::stable_sort(order.begin(), order.end(), [](const BmmEntry& a, const BmmEntry& b) {
    return a.maxScore < b.maxScore || (a.maxScore == b.maxScore && a.df > b.df);
  });
  std::vector<double> upper(n + 1, 0.0);
  for (std::size_t j = 0; j < n; ++j) upper[j + 1] = upper[j] + static_cast<double>(order[j].maxScore);
  const double factorAll = sumUpperBoundFactor(n);
  const bool prune = ctx.options.candidatePrune;
  const bool windowSkip = ctx.options.windowSkip;
  std::vector<double> blockPrefix(n + 1, 0.0);  // blockPrefix[j]: f64 sum of block maxima of order[0..j)

  std::size_t e = 0;
  Score floor = ctx.topk.floor();
  double floorD = static_cast<double>(floor);
  auto onFloor = [&](bool initial) {
    std::size_t grown = e;
    while (grown < n && !beatsFloor(upper[grown + 1], sumUpperBoundFactor(grown + 1), floorD)) ++grown;
    if (ctx.trace != nullptr && (initial || grown != e)) {
      ctx.trace->record({TraceEventKind::EssentialSplit, TraceReason::None,
                         grown < n ? order[grown].term : -1, 0, 0, static_cast<float>(grown), 0, floor});
    }
    e = grown;
  };
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
