// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/bulk_or.h"

#include "engine/codec/simd/block_score.h"
#include "engine/codec/simd/find_geq.h"
#include "engine/query/algorithms/block_max_maxscore.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

namespace wandscope::engine {
namespace {

// 8192 doc ids: on the 1M-document corpus a mid-df list (1-6 % of the documents) has some 80-500
// postings in a window, so per-window work (window maxima, split, slice ends) is small against
// per-posting work, while the accumulator (64 KiB of f64) and the lists' contributions stay in L2.
// Against windows of at most 4096, in-process A/B (docs/PRUNING_LOG.md, "Longer bmm windows"): mid-df-3
// 1.08-1.15x and mid-df-2 1.01-1.04x faster.
// The first window is 128 doc ids and each next one twice as long up to kWindowDocs: the split of
// a window is decided at its start, so while the floor is still forming short windows let it take
// effect soon (with one 4096 window first, a 6000-document index was scored almost exhaustively).
constexpr DocId kWindowDocs = kBulkOrWindowDocs;
// ... for lists that hold at most this many postings per document together; denser lists stop at
// half of it: they fill a shorter window with as many postings, and sequential-2 ran 0.88x as
// fast in the longer windows (docs/PRUNING_LOG.md).
constexpr double kLongWindowMaxDensity = 0.25;
constexpr DocId kFirstWindowDocs = 128;
constexpr std::size_t kMaskWords = kWindowDocs / 64;
// Candidates are decided chunk by chunk of 128 doc ids (window sizes are multiples of it, or the
// window is the last one below kNoMoreDocs).
constexpr std::uint32_t kDecisionChunkDocs = 128;
static_assert(kWindowDocs / kDecisionChunkDocs <= 64);
constexpr std::size_t kMaxTerms = kBulkOrMaxTerms;
// Bound-first windows pack a posting in 64 bits (step 3): frequency (32), the slice of its block
// read in the window (a window holds at most kMaxTerms x kWindowDocs postings, so at most as many
// slices) and the document's place in the window; a document's first posting keeps a generation
// instead of the place.
constexpr unsigned kDocBits = 13;
constexpr unsigned kSliceBits = 19;
constexpr unsigned kGenerationShift = 32 + kSliceBits;
constexpr unsigned kGenerationBits = 64 - kGenerationShift;
constexpr std::uint64_t kSliceMask = (std::uint64_t{1} << kSliceBits) - 1;
static_assert(kWindowDocs == DocId{1} << kDocBits && kDocBits + kSliceBits <= 32);
static_assert(kMaxTerms * kWindowDocs <= std::uint64_t{1} << kSliceBits);
// A non-essential list is read term at a time over the window when survivors x this >= its
// expected postings there (df x window / documents); otherwise each survivor is probed.
constexpr double kDenseSurvivors = 4.0;  // one bit per query term in the per-document mask
// A bound-first window reads the non-essential lists it needs (see step 3) only while together
// they are at most this many times as long as the essential lists (document frequencies); beyond,
// the window is scored first. 2 was 15-25 % slower on mid-df-2/3; 4, 8 and 32 were close
// (docs/ALGORITHMS.md, step 3).
constexpr double kMemberDf = 4.0;
// ... and while the lists read hold at most this many postings per document of the index: in a
// window of denser lists most documents hold two or more terms, pass the bound and are scored
// anyway (sequential-2's common words).
constexpr double kMaxReadDensity = 0.25;

// The largest block maximum of c's blocks overlapping [start, end) (f64), moving c's block pointer
// (never decoding) to the last of them; 0 when c has no posting left there. c.docId() < end.
double windowMaximum(PostingCursor& c, DocId start, DocId end) {
  c.shallowAdvance(start);
  double m = static_cast<double>(c.blockMaxScore());
  while (c.blockLastDoc() < end - 1) {
    c.shallowAdvance(c.blockLastDoc() + 1);
    m = std::max(m, static_cast<double>(c.blockMaxScore()));
  }
  return m;
}

// The end of the decoded block's slice from the cursor up to `end`: the index of the first doc id
// >= end, or the block size. c.docId() < end.
std::uint32_t sliceStop(const PostingCursor& c, simd::FindNextGeqFn findGeq, DocId end) {
  const DocId* docs = c.blockDocs();
  const std::uint32_t size = c.blockSize();
  const std::uint32_t pos = c.blockPosition();
  return docs[size - 1] < end ? size : pos + static_cast<std::uint32_t>(findGeq(docs + pos, size - pos, end));
}

// After a window's slice [.., stop) of c's decoded block: moves to `stop` and returns true when
// the list may hold more documents before `end` (the next block is decoded only then). Returns
// false, leaving the cursor behind on its last posting before `end`, when the block reaches
// end - 1: no later block can start before `end`, and decoding the next one now would be wasted
// if the list is not needed in the next window (every later use moves it with nextGeq(start)).
bool leaveOrAdvance(PostingCursor& c, std::uint32_t stop, DocId end) {
  const std::uint32_t size = c.blockSize();
  if (stop == size && c.blockDocs()[size - 1] >= end - 1) return false;
  c.setBlockPosition(stop);
  return true;
}

// Bound-first reading (step 3) of one slice of the first list read: every document is new, so its
// entry in `first` is written without a look (tag: the generation and the slice).
// Both loops are out of line: inlined into bulkOr, whose state does not fit in the registers, the
// later lists' loop reloaded the window start and `first` from the stack at every posting and the
// select below became a branch on `seen` (mid-df-2 bmm 1.03x faster out of line, docs/PRUNING_LOG.md).
[[gnu::noinline]] void markFirstList(const DocId* __restrict docs,
                                     const std::uint32_t* __restrict freqs, std::uint32_t count,
                                     DocId start, std::uint64_t tag,
                                     std::uint64_t* __restrict first) {
  for (std::uint32_t i = 0; i < count; ++i) first[docs[i] - start] = tag | freqs[i];
}

// ... and of one slice of a later list: a document already in `first` (its generation is this
// window's) is a hit, appended to `hits`; a new one takes its entry in `first`, except in the last
// list read (kKeepFirst false: nothing reads `first` after it). The append is unconditional and
// the count moves only on a hit; `first` is written through a mask, not a branch. Returns the new
// hit count.
template <bool kKeepFirst>
[[gnu::noinline]] std::size_t markLaterList(const DocId* __restrict docs,
                                            const std::uint32_t* __restrict freqs,
                                            std::uint32_t count, DocId start, std::uint64_t tag,
                                            std::uint64_t generation, std::uint64_t slice,
                                            std::uint64_t* __restrict first,
                                            std::uint64_t* __restrict hits, std::size_t hitCount) {
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t d = docs[i] - start;
    const std::uint64_t old = first[d];
    const std::uint64_t seen = (old >> kGenerationShift) == generation ? 1 : 0;
    if constexpr (kKeepFirst) {
      const std::uint64_t keep = std::uint64_t{0} - seen;
      first[d] = (old & keep) | ((tag | freqs[i]) & ~keep);
    }
    hits[hitCount] = std::uint64_t{freqs[i]} << 32 | slice << kDocBits | d;
    hitCount += seen;
  }
  return hitCount;
}

}  // namespace

// Per window [start, end):
//  1. Each list's window maximum (block maxima, block pointers only). If their widened sum cannot
//     beat the floor, the window is skipped without decoding anything.
//  2. MaxScore's split on window maxima: the lists with the smallest maxima whose widened sum
//     cannot beat the floor are non-essential; a document only they hold cannot enter the top k.
//  3. Score-first: the essential lists are scored term at a time: each decoded block's slice inside
//     the window goes through the SIMD block scorer (bit-identical to PostingCursor::score()), and
//     each contribution is kept per (term, document) next to an f64 accumulator and a term mask.
//     Bound-first (switch bound_first), when a document held by one essential list cannot beat the
//     floor once the non-essential lists it needs are read too: those lists are read for doc ids
//     and frequencies only, noting which documents two or more of them hold (only those can beat
//     the floor); each of these is bounded by the f64 sum of the block maxima of the lists holding
//     it, and only the documents whose bound beats the floor become candidates (their length
//     normalisers prefetched; most documents of mid-df lists hold one term and never cost a length
//     lookup, a bound or a score).
//  4. The candidates, in doc-id order: dropped when accumulator (exact on the lists read in 3) + the
//     maxima of the lists left to probe cannot beat the floor; otherwise those lists are probed
//     (largest maximum first, dropping as soon as the bound fails) and the survivors are scored by
//     adding their contributions in query order, the sum every path computes.
// Bounds are f64 sums of f32 contributions widened for all n terms, as in score_bounds.h.
void bulkOr(QueryContext& ctx) {
  auto& cursors = ctx.cursors;
  const std::size_t n = cursors.size();
  if (n == 0) return;
  if (n > kMaxTerms) {
    blockMaxMaxScore(ctx);
    return;
  }
  const simd::BlockScoreKernels& kernels = simd::blockScoreKernels();
  const simd::FindNextGeqFn findGeq = simd::findNextGeqKernel();
  const bool windowSkip = ctx.options.windowSkip;
  const bool prune = ctx.options.candidatePrune;
  const double factorAll = sumUpperBoundFactor(n);

  const double docCount =
      static_cast<double>(std::max<std::uint64_t>(cursors.front().bm25().docs(), 1));
  double postingsPerDoc = 0.0;  // of all the lists together
  for (const auto& c : cursors) postingsPerDoc += static_cast<double>(c.df()) / docCount;
  // The query's longest window; the per-document arrays hold one such window and the
  // per-(list, document) ones a row of that length per list.
  const DocId row = postingsPerDoc <= kLongWindowMaxDensity ? kWindowDocs : kWindowDocs / 2;
  std::vector<double> acc(row, 0.0);
  std::vector<std::uint64_t> terms(row, 0);
  // contrib, tfs, bound and present are written before they are read: not zeroed per query.
  const auto contrib = std::make_unique_for_overwrite<float[]>(n * row);
  std::array<std::uint64_t, kMaskWords> touched{};
  std::vector<double> windowMax(n, 0.0);
  std::vector<std::uint32_t> order(n);
  std::vector<double> prefix(n + 1, 0.0);  // prefix[j]: f64 sum of window maxima of order[0..j)
  // The non-essential lists probed for the candidates (ascending window maximum) and the f64 sums
  // of their window maxima: probePrefix[p] for probe[0..p).
  std::vector<std::uint32_t> probe;
  probe.reserve(n);
  std::vector<double> probePrefix(n + 1, 0.0);
  // Bound-first windows keep each (list, document)'s frequency to score the candidates later.
  const auto tfs = std::make_unique_for_overwrite<std::uint32_t[]>(n * row);
  const Bm25& bm25 = cursors.front().bm25();
  const float* lengthNorms = cursors.front().lengthNorms();
  alignas(64) std::array<float, kDecisionChunkDocs> chunkNorms{};
  // Bound-first windows: per document the f64 sum of the block maxima of the lists holding it and
  // their mask, valid where stamp == generation (so nothing is cleared between windows), and the
  // documents whose bound beats the floor.
  const auto blockBound = std::make_unique_for_overwrite<double[]>(row);
  const auto present = std::make_unique_for_overwrite<std::uint64_t[]>(row);
  std::vector<std::uint32_t> stamp(row, 0);
  // ... and, while the lists are read, per document (valid where its top kGenerationBits are
  // firstGeneration) the slice and frequency of the first list holding it, the later lists'
  // postings of those documents (frequency << 32 | slice << kDocBits | document), and per slice of
  // a decoded block its list and block maximum.
  struct SliceMax {
    std::uint32_t list;
    double max;
  };
  const auto first = std::make_unique<std::uint64_t[]>(row);
  std::uint64_t firstGeneration = 0;
  // (the first list read adds no hit; the +1 is the unconditional append past the last one)
  const auto hits = std::make_unique_for_overwrite<std::uint64_t[]>((n - 1) * row + 1);
  std::vector<SliceMax> sliceMax;
  std::uint32_t generation = 0;
  std::array<std::uint64_t, kMaskWords> candidates{};
  std::uint64_t candidateChunks = 0;  // bit c: a candidate in chunk c of the window
  std::vector<std::uint16_t> survivors(row);
  std::array<std::uint64_t, kMaskWords> aliveBits{};
  alignas(64) std::array<float, kBlockSize> norms{};
  alignas(64) std::array<float, kBlockSize> scores{};
  std::optional<std::uint64_t> tracedSplit;  // the non-essential lists last traced (bit = cursor)
  std::int32_t tracedFirst = -1;             // and the first essential one
  Score floor = ctx.topk.floor();
  // A candidate that cannot beat the floor: counted, traced, and its window slot cleared.
  auto drop = [&](std::uint32_t d, double bound, DocId start) {
    countUp(ctx.counters.candidatesPrunedLimit);
    if (ctx.trace != nullptr) {
      ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Bound, -1, start + d, 0, 0,
                         conservativeBound(bound, factorAll), floor});
    }
    acc[d] = 0.0;
    terms[d] = 0;
  };

  DocId start = kNoMoreDocs;
  for (const auto& c : cursors) start = std::min(start, c.docId());
  DocId windowDocs = kFirstWindowDocs;
  while (start != kNoMoreDocs) {
    const DocId end = start >= kNoMoreDocs - windowDocs ? kNoMoreDocs : start + windowDocs;
    windowDocs = std::min(windowDocs * 2, row);
    countUp(ctx.counters.windowsTotal);
    floor = ctx.topk.floor();
    double floorD = static_cast<double>(floor);
    const bool hasFloor = floor != -std::numeric_limits<Score>::infinity();

    // 1. Window maxima. A list whose cursor is already at or past `end` has nothing here.
    double sum = 0.0;
    bool lagging = false;  // a list may hold documents at or after `end` that its cursor has not reached
    bool anyLeft = false;
    for (std::size_t i = 0; i < n; ++i) {
      PostingCursor& c = cursors[i];
      windowMax[i] = 0.0;
      if (c.docId() < end) {
        windowMax[i] = windowMaximum(c, start, end);
        if (c.blockLastDoc() != kNoMoreDocs) {
          lagging = true;
          anyLeft = true;
        }
      } else if (c.docId() != kNoMoreDocs) {
        anyLeft = true;
      }
      sum += windowMax[i];
    }
    if (windowSkip && hasFloor && !beatsFloor(sum, factorAll, floorD)) {
      countUp(ctx.counters.windowsSkippedBound);
      if (ctx.trace != nullptr) {
        ctx.trace->record({TraceEventKind::WindowSkipped, TraceReason::Bound, -1, start, end - 1, 0,
                           conservativeBound(sum, factorAll), floor});
      }
      if (!anyLeft) return;
      DocId next = kNoMoreDocs;
      for (const auto& c : cursors) {
        if (c.docId() >= end) next = std::min(next, c.docId());
      }
      start = lagging ? end : next;
      continue;
    }

    // 2. The split on window maxima.
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return windowMax[a] < windowMax[b] || (windowMax[a] == windowMax[b] && a < b);
    });
    for (std::size_t j = 0; j < n; ++j) prefix[j + 1] = prefix[j] + windowMax[order[j]];
    std::size_t e = 0;
    if (hasFloor) {
      while (e < n && !beatsFloor(prefix[e + 1], factorAll, floorD)) ++e;
    }
    if (ctx.trace != nullptr) {
      ctx.trace->record({TraceEventKind::WindowEntered, TraceReason::None, -1, start, end - 1, 0,
                         conservativeBound(sum, factorAll), floor});
      // Recorded when the non-essential lists or the first essential one change, not only their
      // number: the window maxima reorder the lists from window to window.
      std::uint64_t set = 0;
      for (std::size_t j = 0; j < e; ++j) set |= std::uint64_t{1} << order[j];
      const std::int32_t firstEssential = e < n ? static_cast<std::int32_t>(order[e]) : -1;  // the event's term
      if (set != tracedSplit || firstEssential != tracedFirst) {
        const DocId mask = ctx.trace->splitMask(e, [&](std::size_t j) { return order[j]; });
        ctx.trace->record({TraceEventKind::EssentialSplit, TraceReason::None,
                           firstEssential, start, mask, static_cast<float>(e), 0,
                           floor});
        tracedSplit = set;
        tracedFirst = firstEssential;
      }
    }

    // 3. The window's lists: scored term at a time (score-first), or read for doc ids and
    // frequencies, bounding each document by its lists' block maxima (bound-first).
    std::uint64_t essentialMask = 0;
    for (std::size_t j = e; j < n; ++j) essentialMask |= std::uint64_t{1} << order[j];
    // Bound-first pays when a document held by one essential list alone cannot beat the floor:
    // non-essential lists join the read lists, largest window maximum first, until the largest
    // essential maximum plus the maxima of the lists left to probe cannot beat it, unless together
    // they are longer than kMemberDf times the essential lists (then reading them costs more than
    // scoring the essential lists saves).
    std::size_t probed = e;  // order[0..probed) are probed; order[probed..e) are read with the essential lists
    bool boundFirst = false;
    if (ctx.options.boundFirst && prune && hasFloor) {
      const double topEssential = windowMax[order[n - 1]];
      double essentialDf = 0.0;
      for (std::size_t j = e; j < n; ++j) essentialDf += static_cast<double>(cursors[order[j]].df());
      double joinedDf = 0.0;
      while (probed > 0 && beatsFloor(topEssential + prefix[probed], factorAll, floorD)) {
        --probed;
        joinedDf += static_cast<double>(cursors[order[probed]].df());
      }
      boundFirst = !beatsFloor(topEssential + prefix[probed], factorAll, floorD) && joinedDf <= kMemberDf * essentialDf &&
                   essentialDf + joinedDf <= kMaxReadDensity * docCount;
    }
    if (!boundFirst) probed = e;
    std::uint64_t members = 0;  // lists read in step 3 when bound-first
    for (std::size_t j = probed; j < n && boundFirst; ++j) members |= std::uint64_t{1} << order[j];
    probe.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(probed));
    for (std::size_t p = 0; p < probe.size(); ++p) probePrefix[p + 1] = probePrefix[p] + windowMax[probe[p]];
    const double probeAll = probePrefix[probe.size()];

    // A bound-first document is flagged when its bound exceeds this: below the exact test
    // (beatsFloor(bound + probeAll)) by far more than the f64 rounding of either, so every document
    // that test would pass is flagged; the candidates are cut with the exact test once scored.
    double flagAbove = 0.0;
    std::size_t hitCount = 0;
    candidateChunks = 0;
    if (boundFirst) {
      ++generation;
      countUp(ctx.counters.windowsBoundFirst);
      sliceMax.clear();
      // every 8,191 bound-first windows:
      if (++firstGeneration == std::uint64_t{1} << kGenerationBits) {
        std::fill_n(first.get(), row, std::uint64_t{0});
        firstGeneration = 1;
      }
      flagAbove = floorD / factorAll - probeAll - 1e-9 * (std::abs(floorD) + probeAll);
    }
    for (std::size_t j = boundFirst ? 0 : e; j < n; ++j) {
      const std::uint32_t q = order[j];
      const std::uint64_t bit = std::uint64_t{1} << q;
      if ((members & bit) == 0 && boundFirst) continue;
      PostingCursor& c = cursors[q];
      if (c.docId() < start) c.nextGeq(start);
      const float idf = c.idf();
      const float k1p1 = c.bm25().k1Plus1();
      float* termContrib = contrib.get() + std::size_t{q} * row;
      std::uint64_t& read = (essentialMask & bit) != 0 ? ctx.counters.maxscoreEssential : ctx.counters.maxscoreNonEssential;
      while (c.docId() < end) {
        const DocId* docs = c.blockDocs();
        const std::uint32_t pos = c.blockPosition();
        const std::uint32_t stop = sliceStop(c, findGeq, end);
        const std::uint32_t count = stop - pos;
        if (boundFirst) {
          // At most one load and two stores per posting: the first list to hold a document keeps
          // its slice and frequency in `first`; a later list's posting of it is appended to
          // `hits` (markFirstList, markLaterList).
          const auto slice = static_cast<std::uint32_t>(sliceMax.size());
          sliceMax.push_back({q, static_cast<double>(c.decodedBlockMaxScore())});
          const std::uint32_t* freqs = c.blockFreqs() + pos;
          const std::uint64_t tag = firstGeneration << kGenerationShift | std::uint64_t{slice} << 32;
          if (j == probed) {
            markFirstList(docs + pos, freqs, count, start, tag, first.get());
          } else if (j + 1 < n) {
            hitCount = markLaterList<true>(docs + pos, freqs, count, start, tag, firstGeneration,
                                           slice, first.get(), hits.get(), hitCount);
          } else {
            hitCount = markLaterList<false>(docs + pos, freqs, count, start, tag, firstGeneration,
                                            slice, first.get(), hits.get(), hitCount);
          }
        } else {
          for (std::uint32_t i = 0; i < count; ++i) norms[i] = lengthNorms[docs[pos + i]];
          kernels.scoreBlock(c.blockFreqs() + pos, norms.data(), count, idf, k1p1, scores.data());
          for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t d = docs[pos + i] - start;
            acc[d] += static_cast<double>(scores[i]);
            termContrib[d] = scores[i];
            terms[d] |= bit;
            touched[d >> 6] |= std::uint64_t{1} << (d & 63);
          }
        }
        countUp(read, count);
        if (!leaveOrAdvance(c, stop, end)) break;
      }
    }

    // 3b (bound-first). A document held by one list read cannot beat the floor (the window is
    // bound-first only when the largest list maximum plus the probed lists' cannot), so only the
    // documents of two or more of them are bounded, from their hits: in the order the lists were
    // read, so each document's bound adds its lists' block maxima in that order.
    for (std::size_t h = 0; h < hitCount; ++h) {
      const std::uint64_t hit = hits[h];
      const auto d = static_cast<std::uint32_t>(hit & (kWindowDocs - 1));
      if (stamp[d] != generation) {
        stamp[d] = generation;
        const std::uint64_t f = first[d];
        const SliceMax& s0 = sliceMax[(f >> 32) & kSliceMask];
        present[d] = std::uint64_t{1} << s0.list;
        blockBound[d] = 0.0 + s0.max;
        tfs[std::size_t{s0.list} * row + d] = static_cast<std::uint32_t>(f);
      }
      const SliceMax& s1 = sliceMax[(hit >> kDocBits) & kSliceMask];
      present[d] |= std::uint64_t{1} << s1.list;
      blockBound[d] += s1.max;
      tfs[std::size_t{s1.list} * row + d] = static_cast<std::uint32_t>(hit >> 32);
      if (blockBound[d] > flagAbove) {
        candidates[d >> 6] |= std::uint64_t{1} << (d & 63);
        candidateChunks |= std::uint64_t{1} << (d / kDecisionChunkDocs);
        __builtin_prefetch(lengthNorms + start + d);
      }
    }

    // 4. Candidates, chunk by chunk of the window (so a floor raised by one chunk's survivors
    // already cuts the next chunk's candidates):
    const std::uint32_t windowLen = end - start;
    for (std::uint32_t lo = 0; lo < windowLen; lo += kDecisionChunkDocs) {
      if (boundFirst) {  // on to the next chunk holding a candidate (mid-df windows hold a few)
        const std::uint64_t later = candidateChunks >> (lo / kDecisionChunkDocs);
        if (later == 0) break;
        lo += static_cast<std::uint32_t>(std::countr_zero(later)) * kDecisionChunkDocs;
      }
      const std::uint32_t hi = std::min(lo + kDecisionChunkDocs, windowLen);
      const DocId chunkStart = start + lo;
      const DocId chunkEnd = start + hi;
      std::size_t alive = 0;
      if (boundFirst) {
        // 4a (bound-first). The documents whose bound beat the floor, scored exactly on the lists
        // read in step 3 (as PostingCursor::score() computes it; their lengths were prefetched),
        // and cut again with the probed lists' maxima.
        for (std::size_t w = lo / 64; w < (hi + 63) / 64; ++w) {
          for (std::uint64_t bits = std::exchange(candidates[w], 0); bits != 0; bits &= bits - 1) {
            survivors[alive++] = static_cast<std::uint16_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
          }
        }
        countUp(ctx.counters.candidatesSeen, alive);
        for (std::size_t i = 0; i < alive; ++i) chunkNorms[i] = lengthNorms[start + survivors[i]];
        std::size_t kept = 0;
        for (std::size_t i = 0; i < alive; ++i) {
          const std::uint32_t d = survivors[i];
          double exact = 0.0;
          for (std::uint64_t m = present[d]; m != 0; m &= m - 1) {
            const auto q = static_cast<std::size_t>(std::countr_zero(m));
            const Score v = Bm25::contribution(cursors[q].idf(), bm25.weight(tfs[q * row + d], chunkNorms[i]));
            contrib[q * row + d] = v;
            exact += static_cast<double>(v);
          }
          acc[d] = exact;
          terms[d] = present[d];
          if (!beatsFloor(exact + probeAll, factorAll, floorD)) {
            drop(d, exact + probeAll, start);
          } else {
            survivors[kept++] = static_cast<std::uint16_t>(d);
          }
        }
        alive = kept;
      } else {
        // 4a. First cut, in doc-id order: accumulator + every non-essential window maximum.
        // (Candidates are counted in a local and added once per chunk, as in the bulk AND.)
        std::uint64_t seen = 0;
        for (std::size_t w = lo / 64; w < (hi + 63) / 64; ++w) {
          for (std::uint64_t bits = std::exchange(touched[w], 0); bits != 0; bits &= bits - 1) {
            const std::uint32_t d = static_cast<std::uint32_t>(w * 64) + static_cast<std::uint32_t>(std::countr_zero(bits));
            countUp(seen);
            if (prune && !beatsFloor(acc[d] + probeAll, factorAll, floorD)) {
              drop(d, acc[d] + probeAll, start);
              continue;
            }
            survivors[alive++] = static_cast<std::uint16_t>(d);
          }
        }
        countUp(ctx.counters.candidatesSeen, seen);
      }

      // 4b. The non-essential lists, largest window maximum first. Each is probed per survivor, or,
      // when the survivors are dense against the list's expected postings in the window, read term
      // at a time over the window (a probe per survivor would decode the same blocks and search
      // each one). After each list the survivors are cut again with the maxima of the lists left.
      for (std::size_t j = probe.size(); j > 0 && alive > 0; --j) {
        const std::uint32_t q = probe[j - 1];
        PostingCursor& c = cursors[q];
        float* termContrib = contrib.get() + std::size_t{q} * row;
        const std::uint64_t bit = std::uint64_t{1} << q;
        const double expected = static_cast<double>(c.df()) * static_cast<double>(hi - lo) / docCount;
        countUp(ctx.counters.maxscoreNonEssential, alive);
        if (static_cast<double>(alive) * kDenseSurvivors >= expected) {
          for (std::size_t i = 0; i < alive; ++i) {
            aliveBits[survivors[i] >> 6] |= std::uint64_t{1} << (survivors[i] & 63);
          }
          if (c.docId() < chunkStart) c.nextGeq(chunkStart);
          while (c.docId() < chunkEnd) {
            const DocId* blockDocs = c.blockDocs();
            const std::uint32_t pos = c.blockPosition();
            const std::uint32_t stop = sliceStop(c, findGeq, chunkEnd);
            for (std::uint32_t i = pos; i < stop; ++i) {
              const std::uint32_t d = blockDocs[i] - start;
              if ((aliveBits[d >> 6] >> (d & 63) & 1) == 0) continue;
              const Score sc = c.scoreAt(i);
              acc[d] += static_cast<double>(sc);
              termContrib[d] = sc;
              terms[d] |= bit;
            }
            if (!leaveOrAdvance(c, stop, chunkEnd)) break;
          }
          for (std::size_t i = 0; i < alive; ++i) aliveBits[survivors[i] >> 6] = 0;
        } else {
          for (std::size_t i = 0; i < alive; ++i) {
            const std::uint32_t d = survivors[i];
            const DocId doc = start + d;
            if (c.docId() < doc) c.nextGeq(doc);
            if (c.docId() == doc) {
              const Score sc = c.score();
              acc[d] += static_cast<double>(sc);
              termContrib[d] = sc;
              terms[d] |= bit;
            }
          }
        }
        if (prune) {
          std::size_t kept = 0;
          for (std::size_t i = 0; i < alive; ++i) {
            const std::uint32_t d = survivors[i];
            if (!beatsFloor(acc[d] + probePrefix[j - 1], factorAll, floorD)) {
              drop(d, acc[d] + probePrefix[j - 1], start);
            } else {
              survivors[kept++] = static_cast<std::uint16_t>(d);
            }
          }
          alive = kept;
        }
      }

      // 4c. The survivors, in doc-id order: the canonical score (contributions of the terms present
      // added in query order), offered to the top k.
      for (std::size_t i = 0; i < alive; ++i) {
        const std::uint32_t d = survivors[i];
        const DocId doc = start + d;
        Score score = 0.0f;
        for (std::uint64_t m = terms[d]; m != 0; m &= m - 1) {
          score += contrib[static_cast<std::size_t>(std::countr_zero(m)) * row + d];
        }
        acc[d] = 0.0;
        terms[d] = 0;
        ctx.collect(doc, score);
        if (ctx.topk.floor() != floor) {
          floor = ctx.topk.floor();
          floorD = static_cast<double>(floor);
        }
      }
    }

    // 5. The next window: where the lists go on, or right after this one while a list lags.
    if (!anyLeft) return;
    DocId next = kNoMoreDocs;
    bool behind = false;
    for (const auto& c : cursors) {
      if (c.docId() < end) {
        behind = true;
      } else {
        next = std::min(next, c.docId());
      }
    }
    start = behind ? end : next;
  }
}

}  // namespace wandscope::engine
