// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/bulk_and.h"

#include "engine/codec/simd/find_geq.h"
#include "engine/codec/simd/intersect.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/query/algorithms/bulk_and_long_windows.h"
#include "engine/query/algorithms/lead_prune.h"
#include "engine/query/algorithms/merge_kernels.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

namespace wandscope::engine {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

struct Clause {
  PostingCursor* cursor = nullptr;
  std::uint32_t begin = 0;  // slice [begin, end) of the decoded block in the current window
  std::uint32_t end = 0;
  std::uint64_t block = ~std::uint64_t{0};  // decoded block of the previous window
  DocId sliceLast = 0;                       // window end of the previous slice
};

}  // namespace

void bulkAndClauseOrder(const std::vector<PostingCursor>& cursors, std::size_t* order) {
  const std::size_t n = cursors.size();
  for (std::size_t q = 0; q < n; ++q) order[q] = q;
  std::stable_sort(order, order + n, [&](std::size_t a, std::size_t b) { return cursors[a].df() < cursors[b].df(); });
}

void bulkAnd(QueryContext& ctx) {
  const std::size_t n = ctx.cursors.size();
  if (n == 0) return;
  if (ctx.trace != nullptr) ctx.trace->cursorsWalked = false;  // window by window, not by cursor
  const SearchOptions& opt = ctx.options;
  if (opt.longWindows && n >= 2 && n <= kMaxLongWindowClauses) {
    bulkAndLongWindows(ctx);
    return;
  }
  const double factor = sumUpperBoundFactor(n);
  // The intersection kernels: the current SIMD target's 2- and 3-way kernels (the scalar
  // reference merges on the scalar target), or the generic n-clause merge with simd_merge=off.
  const simd::IntersectKernels& kernels = simd::intersectKernels();
  ctx.mergeKernels = opt.simdMerge ? simd::targetName(kernels.target) : "generic";
  // Slice bounds inside a decoded block: the target's find-next-geq kernel (a vector scan beats a
  // branchy binary search over at most 128 ids), or std::lower_bound with simd_merge=off.
  const simd::FindNextGeqFn findGeq = opt.simdMerge ? simd::findNextGeqKernel() : nullptr;
  auto firstGeq = [findGeq](const DocId* docs, std::uint32_t from, std::uint32_t size, DocId value) {
    if (findGeq != nullptr) return from + static_cast<std::uint32_t>(findGeq(docs + from, size - from, value));
    return static_cast<std::uint32_t>(std::lower_bound(docs + from, docs + size, value) - docs);
  };

  // Clauses in query order; the lead is the rarest list (it drives the table and window jumps).
  std::vector<Clause> clauses(n);
  for (std::size_t q = 0; q < n; ++q) clauses[q].cursor = &ctx.cursors[q];
  // Merge order: lead first, then the others by ascending df (cheapest lists first).
  std::vector<std::size_t> mergeOrder(n);
  bulkAndClauseOrder(ctx.cursors, mergeOrder.data());
  const std::size_t leadIndex = mergeOrder[0];
  PostingCursor& lead = *clauses[leadIndex].cursor;
  // Merge slot of each query-order clause (kernel outputs are in merge order).
  std::vector<std::size_t> slotOf(n);
  for (std::size_t i = 0; i < n; ++i) slotOf[mergeOrder[i]] = i;

  // The lead clause's prune decisions: the limit and the frequency table (lead_prune.h).
  LeadPrune prune(lead, opt.freqPrune);

  std::vector<MergeSlice> slices(n);
  std::vector<MergeSlice> ordered(n);
  std::array<DocId, kBlockSize> matches{};
  std::vector<std::uint8_t> offsets(n * kBlockSize);
  std::array<float, kBlockSize> norms{};
  const float* docNorms = lead.lengthNorms();

  DocId target = lead.docId();
  while (target != kNoMoreDocs) {
    // 1. The window: up to the nearest block end across clauses, from block metadata alone.
    DocId windowEnd = kNoMoreDocs;
    double boundSum = 0.0;
    double othersMax = 0.0;
    float leadBlockMax = 0.0f;
    for (std::size_t q = 0; q < n; ++q) {
      PostingCursor& c = *clauses[q].cursor;
      c.shallowAdvance(target);
      const DocId last = c.blockLastDoc();
      if (last == kNoMoreDocs) return;  // a clause is exhausted: no more common documents
      windowEnd = std::min(windowEnd, last);
      const float bm = c.blockMaxScore();
      boundSum += static_cast<double>(bm);
      if (q == leadIndex) {
        leadBlockMax = bm;
      } else {
        othersMax += static_cast<double>(bm);
      }
    }
    countUp(ctx.counters.windowsTotal);
    const float floor = ctx.topk.floor();
    if (opt.windowSkip && floor != kNegInf) {
      const float bound = conservativeBound(boundSum, factor);
      if (bound <= floor) {
        countUp(ctx.counters.windowsSkippedBound);
        if (ctx.trace != nullptr) {
          ctx.trace->record({TraceEventKind::WindowSkipped, TraceReason::Bound, -1, target, windowEnd, 0, bound, floor});
        }
        target = windowEnd + 1;
        continue;
      }
    }

    // 2. Each clause's slice of its decoded block, positioned in merge order. For three or more
    // clauses the first two are intersected before the rest are decoded: if they share no
    // document the window is empty and the other blocks stay encoded (the leapfrog's saving).
    bool exhausted = false;
    auto position = [&](std::size_t q) {
      Clause& cl = clauses[q];
      PostingCursor& c = *cl.cursor;
      const bool sameBlock = c.docId() != kNoMoreDocs && c.blockId() == cl.block &&
                             target <= c.blockDocs()[c.blockSize() - 1];
      if (sameBlock) {
        // Resume where the previous slice ended (no search when the windows are contiguous), or
        // search the whole block afresh when slice resumption is switched off.
        const std::uint32_t from = opt.sliceResume ? cl.end : 0;
        const DocId* docs = c.blockDocs();
        std::uint32_t begin = from;
        if (!(opt.sliceResume && cl.sliceLast + 1 == target)) {
          begin = firstGeq(docs, from, c.blockSize(), target);
        }
        c.setBlockPosition(std::max(begin, c.blockPosition()));
      } else {
        c.nextGeq(target);
        if (c.docId() == kNoMoreDocs) {
          exhausted = true;
          return;
        }
      }
      const DocId* docs = c.blockDocs();
      const std::uint32_t size = c.blockSize();
      cl.block = c.blockId();
      cl.begin = c.blockPosition();
      // windowEnd < docs[size - 1] here, so windowEnd + 1 cannot overflow.
      cl.end = docs[size - 1] <= windowEnd ? size : firstGeq(docs, cl.begin, size, windowEnd + 1);
      cl.sliceLast = windowEnd;
      slices[q] = MergeSlice{docs, cl.begin, cl.end};
    };
    std::size_t positioned = std::min<std::size_t>(n, 2);
    for (std::size_t i = 0; i < positioned; ++i) position(mergeOrder[i]);
    if (exhausted) return;
    std::size_t m = 0;
    bool gated = false;
    if (n >= 3) {
      const MergeSlice pair[2] = {slices[mergeOrder[0]], slices[mergeOrder[1]]};
      m = opt.simdMerge ? kernels.intersect2(pair[0], pair[1], matches.data(), offsets.data())
                        : intersectN(pair, 2, matches.data(), offsets.data());
      gated = m == 0;
    }
    if (!gated) {
      for (std::size_t i = positioned; i < n; ++i) position(mergeOrder[i]);
      if (exhausted) return;
      positioned = n;
      if (ctx.trace != nullptr) {
        ctx.trace->record({TraceEventKind::WindowEntered, TraceReason::None, -1, target, windowEnd, 0,
                           conservativeBound(boundSum, factor), floor});
      }
      // 3. Intersect (kernel outputs are in merge order; offsets[i * 128 + m] for merge slot i).
      for (std::size_t i = 0; i < n; ++i) ordered[i] = slices[mergeOrder[i]];
      if (opt.simdMerge && n == 2) {
        m = kernels.intersect2(ordered[0], ordered[1], matches.data(), offsets.data());
      } else if (opt.simdMerge && n == 3) {
        m = kernels.intersect3(ordered[0], ordered[1], ordered[2], matches.data(), offsets.data());
      } else if (opt.simdMerge) {
        m = kernels.intersectN(ordered.data(), n, matches.data(), offsets.data());
      } else {
        m = intersectN(ordered.data(), n, matches.data(), offsets.data());
      }
    }
    if (m == 0) {
      countUp(ctx.counters.windowsSkippedEmpty);
      if (ctx.trace != nullptr) {
        ctx.trace->record({TraceEventKind::WindowSkipped, TraceReason::Empty, -1, target, windowEnd, 0, 0, floor});
      }
      target = windowEnd + 1;
      if (opt.windowJump) {
        // No common document before every clause's next posting: start the next window at the
        // furthest of them (the lead's next document, generalised to all clauses; a clause whose
        // block ended contributes its block end).
        DocId next = target;
        for (std::size_t i = 0; i < positioned; ++i) {
          const Clause& cl = clauses[mergeOrder[i]];
          const PostingCursor& c = *cl.cursor;
          const DocId after = cl.end < c.blockSize() ? c.blockDocs()[cl.end] : c.blockDocs()[c.blockSize() - 1] + 1;
          next = std::max(next, after);
        }
        if (next > target) {
          countUp(ctx.counters.windowsJumped);
          if (ctx.trace != nullptr) {
            ctx.trace->record({TraceEventKind::WindowJumped, TraceReason::None, -1, target, next, 0, 0, floor});
          }
          target = next;
        }
      }
      continue;
    }

    // 4. Candidates. Pass A gathers the length normalisers (overlapping their cache misses);
    // pass B decides each candidate in doc order.
    if (!opt.lazyFreq) {
      for (auto& cl : clauses) (void)cl.cursor->blockFreqs();
    }
    for (std::size_t i = 0; i < m; ++i) norms[i] = docNorms[matches[i]];
    const std::uint8_t* leadOffsets = offsets.data();  // the lead is merge slot 0
    // Pruned candidates are counted in locals and added once per window: increments of the
    // context's counters in this loop stay in memory (the loop also writes the top-k), which
    // measured 8-14 % of a one-term query (docs/PERF.md, "Counting cost").
    countUp(ctx.counters.candidatesSeen, m);
    std::uint64_t prunedTable = 0;
    std::uint64_t prunedLimit = 0;
    // The prune decisions depend on the floor only (the followers' and the lead's block maxima
    // are fixed for the window), so the limit and the table are looked at when the floor has
    // changed, not per candidate: each candidate then costs one floor compare and, while no
    // bucket can prune, one predictable branch (docs/PRUNING_LOG.md, "Kept: the prune decisions per
    // floor"). `seen` starts at a value no floor's bits equal.
    std::uint64_t seen = ~std::uint64_t{0};
    bool prunes = false;       // the floor is set and some prune is on
    bool tablePrunes = false;  // ... and some bucket of the table can prune
    float limit = kNegInf;
    for (std::size_t i = 0; i < m; ++i) {
      const DocId doc = matches[i];
      const float f = ctx.topk.floor();
      if (std::bit_cast<std::uint32_t>(f) != seen) {
        seen = std::bit_cast<std::uint32_t>(f);
        prunes = f != kNegInf && (opt.freqPrune || opt.candidatePrune);
        tablePrunes = false;
        if (prunes) limit = prune.limit(f, othersMax, factor);
        if (prunes && opt.freqPrune) {
          if (prune.tableStale(limit, leadBlockMax)) {
            prune.rebuildTable(limit, leadBlockMax);
            countUp(ctx.counters.pruneTableRebuilds);
            if (ctx.trace != nullptr) {
              ctx.trace->record({TraceEventKind::PruneTableBuilt, TraceReason::None, static_cast<std::int32_t>(leadIndex),
                                 doc, prune.cut(), 0, limit, f});
            }
          }
          tablePrunes = prune.tablePrunes();
        }
      }
      if (prunes) {
        const std::uint32_t leadTf = lead.blockFreqs()[leadOffsets[i]];
        if (tablePrunes && prune.cannotBeat(leadTf)) {
          countUp(prunedTable);
          if (ctx.trace != nullptr) {
            ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Table, static_cast<std::int32_t>(leadIndex),
                               doc, 0, 0, prune.bucketBound(leadTf), f});
          }
          continue;
        }
        if (opt.candidatePrune) {
          const float leadScore = lead.idf() * lead.bm25().weight(leadTf, norms[i]);
          if (leadScore <= limit) {
            countUp(prunedLimit);
            if (ctx.trace != nullptr) {
              ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Limit, static_cast<std::int32_t>(leadIndex),
                                 doc, 0, leadScore, limit, f});
            }
            continue;
          }
        }
      }
      // The full score, in query order: bit-identical to every other path.
      Score score = 0.0f;
      for (std::size_t q = 0; q < n; ++q) {
        score += clauses[q].cursor->scoreAt(offsets[slotOf[q] * kBlockSize + i]);
      }
      ctx.collect(doc, score);
    }
    countUp(ctx.counters.candidatesPrunedTable, prunedTable);
    countUp(ctx.counters.candidatesPrunedLimit, prunedLimit);
    target = windowEnd + 1;
  }
}

}  // namespace wandscope::engine
