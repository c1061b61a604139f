// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/bulk_and_long_windows.h"

#include "engine/codec/simd/find_geq.h"
#include "engine/codec/simd/intersect.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/index/index.h"
#include "engine/query/algorithms/bulk_and.h"
#include "engine/query/algorithms/lead_prune.h"
#include "engine/query/algorithms/merge_kernels.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {
namespace {

constexpr std::uint32_t kNotDecoded = ~std::uint32_t{0};
// The query's first window is one lead block, so that the floor forms on few postings, and each
// window doubles up to this many blocks (8,192 lead postings): long enough that the intersections
// run over long arrays, short enough that the floor a window's bounds are checked against is
// recent. (The maximum is not tuned.) The length carries over from one segment to the next, as the
// floor does. Starting every segment at one block again cost mid-df-3 and mid-df-2 AND about 11 %
// and 13 % (stop 42, docs/PRUNING_LOG.md), the sequential sets nothing measurable; starting the
// query at 64 blocks saved mid-df-3 about 5 % more but cost sequential-2 8-13 %.
constexpr std::uint32_t kMaxWindowBlocks = 64;
// A further clause is merged (its blocks in the window that can hold a candidate decoded, and
// intersected with the candidates by the SIMD kernels) while it holds at most this many postings
// in the window per candidate; a longer one is probed candidate by candidate (a find-next-geq in
// the block holding the candidate, decoded on demand), as the leapfrog does. Tuned at stop 38 (plugins of 8, 64 and
// 256 in process, every multi-term AND set of docs/PERF.md, AMD EPYC family 26): 256 against 8
// was faster on sequential-2/3/5 (1.04x-1.08x) and rare+common-3/5 (1.03x, 1.06x), no set slower.
// Merging every clause, whatever its length, gained nothing on the rare and rare+common sets in
// alternating `run --repeat` rounds (a merge then decoded every block of the clause in the window).
// Merging after a first intersection rather than probing, now that such a merge decodes only the
// blocks holding a candidate, measured faster still (stop 41, alternating `run --repeat 10`,
// medians of 11: mid-df-3 46.2 against 43.8 us, sequential-3 351 against 314 us): the merge
// requests all its blocks' data before decoding them, the probe decodes each on demand.
constexpr std::uint64_t kMergePostingsPerCandidate = 256;
// After a first intersection, a clause whose decoded blocks hold at most this many candidates
// each on average has them looked up block by block (lookUp()); with more, the long-run kernel
// merges them with the blocks' postings. Looking every candidate up (stop 41, alternating `run
// --repeat 10`, medians of 11) made sequential-3 slower, 336 against 318 us with this rule, its
// third clauses holding dozens of candidates per block; mid-df-3 43.8 against 43.4 us.
constexpr std::size_t kLookUpCandidatesPerBlock = 2;
// The candidates' length normalisers are requested this many candidates ahead of their use (on
// mid-df-2 the candidate loop took 54.7 thousand TSC ticks a query at 16, 56.9 at 4, 62.6 at 64,
// 74.4 with none).
constexpr std::size_t kNormsAhead = 16;
// LongWindowScratch buffers are kept between queries up to this many postings per clause.
constexpr std::size_t kKeepClausePostings = std::size_t{1} << 20;

constexpr std::uint8_t kBlockTailFreqs = 1;    // a tail: frequencies decoded with the doc ids
constexpr std::uint8_t kBlockFreqsUsed = 2;    // frequencies available (and counted)
constexpr std::uint8_t kBlockOfCursor = 4;  // the block the clause's cursor decoded when it was made

// A decoded block of one clause in the current segment: its postings are at [start, start +
// count) of the clause's arrays.
struct DecodedBlock {
  std::uint32_t block;
  std::uint32_t start;
  std::uint32_t count;
  std::uint8_t freqs;  // kBlockTailFreqs | kBlockFreqsUsed | kBlockOfCursor
};

// One clause's list in the current segment and its blocks decoded so far. Windows move forward in
// doc-id order and decode blocks in ascending order, so the arrays hold ascending doc ids and the
// block a window shares with the previous one (a clause block reaching past a window's end) is
// always the last one decoded.
struct SegmentClause {
  PostingList list;
  PostingCursor* cursor = nullptr;
  bool cursorBlock = false;  // block 0 of this list is the cursor's decoded block
  float idf = 0.0f;
  std::vector<std::uint32_t> at;  // per block of the list: index into decoded, or kNotDecoded
  std::vector<DecodedBlock> decoded;
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
  std::uint32_t size = 0;        // postings in docs
  std::uint32_t boundBlock = 0;  // bounds: first block that can overlap the next lead block
  std::uint32_t walkBlock = 0;   // decoding and probing: first block that can hold the next doc
  std::uint32_t counted = 0;     // blocks below this one are decoded or counted in blocks_skipped
  std::uint32_t probeAt = 0;     // probing: position of the previous probe's answer
  std::uint32_t record = 0;      // scoring: decoded block of the previous candidate
};

struct LongWindowScratch {
  std::vector<SegmentClause> clauses;  // by merge slot, the lead first
  std::vector<DocId> candidates;
  std::vector<std::vector<std::uint32_t>> positions;  // by merge slot: the candidate's posting
  std::vector<std::uint32_t> kept;                    // the window's lead blocks not skipped
  std::vector<std::uint32_t> needed;                  // a merged clause's blocks in the window
  std::vector<std::uint32_t> fromA;                   // a merge's matches: index among the candidates
  std::vector<std::uint32_t> fromB;                   // ... and in the merged clause's postings
};

class LongWindows {
 public:
  explicit LongWindows(QueryContext& ctx, LongWindowScratch& scratch)
      : m_ctx(ctx),
        m_opt(ctx.options),
        m_n(ctx.cursors.size()),
        m_factor(sumUpperBoundFactor(m_n)),
        m_kernels(simd::intersectKernels()),
        m_findGeq(simd::findNextGeqKernel()),
        m_countBelow(simd::countBelowKernel()),
        m_norms(ctx.cursors.front().lengthNorms()),
        m_bm25(ctx.cursors.front().bm25()),
        m_s(scratch),
        m_order(clauseOrder(ctx.cursors)),
        // The frequency bounds are used only with candidate_prune=off (candidates()).
        m_prune(ctx.cursors[m_order[0]], ctx.options.freqPrune && !ctx.options.candidatePrune) {
    ctx.mergeKernels = m_opt.simdMerge ? simd::targetName(m_kernels.target) : "generic";
    for (std::size_t s = 0; s < m_n; ++s) m_slotOf[m_order[s]] = s;
    if (m_s.clauses.size() < m_n) m_s.clauses.resize(m_n);
    if (m_s.positions.size() < m_n) m_s.positions.resize(m_n);
    const std::size_t room = std::size_t{kMaxWindowBlocks} * kBlockSize;
    if (m_s.candidates.size() < room) m_s.candidates.resize(room);
    for (std::size_t s = 0; s < m_n; ++s) {
      if (m_s.positions[s].size() < room) m_s.positions[s].resize(room);
    }
  }

  void run() {
    const Index& index = m_ctx.cursors.front().index();
    // Per merge slot: the clause's first part not yet passed over, and whether that part was
    // started (its blocks below `counted` are accounted for).
    std::array<std::size_t, kMaxLongWindowClauses> part{};
    std::array<bool, kMaxLongWindowClauses> started{};
    std::array<std::size_t, kMaxLongWindowClauses> target{};
    const auto leadParts = m_ctx.cursors[m_order[0]].parts();
    for (std::size_t lp = 0; lp < leadParts.size(); ++lp) {
      const TermPart& leadPart = leadParts[lp];
      // Every clause's list in the lead's segment; a segment some clause is absent from holds no
      // common document, and a clause with no later segment ends the query.
      bool present = true;
      target[0] = lp;
      for (std::size_t s = 1; s < m_n; ++s) {
        const auto parts = m_ctx.cursors[m_order[s]].parts();
        std::size_t p = part[s];
        while (p < parts.size() && parts[p].segment < leadPart.segment) ++p;
        if (p == parts.size()) return;
        target[s] = p;
        present = present && parts[p].segment == leadPart.segment;
      }
      if (!present) continue;
      // Moving on to this segment, each clause passes over what it has not read of the parts
      // before it (blocks_skipped, as a cursor seeking past them counts them).
      for (std::size_t s = 0; s < m_n; ++s) {
        PostingCursor& c = m_ctx.cursors[m_order[s]];
        for (std::size_t p = part[s]; p < target[s]; ++p) {
          const PostingList list = index.postingList(c.parts()[p]);
          const std::uint32_t read = started[s] && p == part[s] ? m_s.clauses[s].counted
                                     : p == 0 && holdsFirstBlock(c, list) ? 1
                                                                           : 0;
          countUp(m_ctx.counters.blocksSkipped, list.blockCount() - read);
        }
        part[s] = target[s];
        started[s] = true;
        start(m_s.clauses[s], index.postingList(c.parts()[part[s]]), c, part[s] == 0);
      }
      segment();
    }
  }

 private:
  // Merge slot -> query-order clause: the lead (the rarest list) first, then the others by
  // ascending df, as in the seed's windows.
  static std::array<std::size_t, kMaxLongWindowClauses> clauseOrder(const std::vector<PostingCursor>& cursors) {
    std::array<std::size_t, kMaxLongWindowClauses> order{};
    bulkAndClauseOrder(cursors, order.data());
    return order;
  }

  // Whether the cursor, made on its first list, decoded that list's block 0 and has not left it
  // (the paths here never move the cursors).
  static bool holdsFirstBlock(const PostingCursor& cursor, const PostingList& list) {
    return cursor.docId() != kNoMoreDocs && cursor.blockId() == 0 && cursor.blockPosition() == 0 &&
           cursor.blockSize() == list.blockSize(0);
  }

  // firstPart: the list is the cursor's first, whose block 0 the cursor decoded when it was made
  // (and has not left: the paths here never move the cursors).
  void start(SegmentClause& c, const PostingList& list, PostingCursor& cursor, bool firstPart) {
    c.list = list;
    c.cursor = &cursor;
    c.cursorBlock = firstPart && holdsFirstBlock(cursor, list);
    c.idf = cursor.idf();
    c.at.assign(list.blockCount(), kNotDecoded);
    c.decoded.clear();
    // Full blocks hold kBlockSize postings; the padding only keeps a damaged skip entry from writing
    // past the arrays.
    const std::size_t room = std::size_t{list.df} + kBlockSize;
    if (c.docs.size() < room) {
      c.docs.resize(room);
      c.freqs.resize(room);
    }
    c.size = 0;
    c.boundBlock = 0;
    c.walkBlock = 0;
    c.counted = c.cursorBlock ? 1 : 0;
    c.probeAt = 0;
    c.record = 0;
  }

  float blockMax(const SegmentClause& c, std::uint32_t block) const noexcept {
    return c.idf * c.list.blockMaxWeight[block];
  }

  // Decodes block b of the clause (once per segment) and returns its record.
  const DecodedBlock& decode(SegmentClause& c, std::uint32_t b) {
    if (c.at[b] != kNotDecoded) return c.decoded[c.at[b]];
    if (c.size + kBlockSize > c.docs.size()) {  // only if the skip entries disagree with df
      c.docs.resize(c.size + kBlockSize);
      c.freqs.resize(c.size + kBlockSize);
    }
    std::uint32_t count = 0;
    std::uint8_t flags = 0;
    if (b == 0 && c.cursorBlock) {  // decoded (and counted) by the cursor already
      count = c.cursor->blockSize();
      std::copy_n(c.cursor->blockDocs(), count, c.docs.data() + c.size);
      flags = kBlockOfCursor;
    } else {
      bool tail = false;
      count = decodeBlockDocs(c.list, b, c.docs.data() + c.size, c.freqs.data() + c.size, tail);
      countUp(m_ctx.counters.docBlocksDecoded);
      countUp(m_ctx.counters.postingsDecoded, count);
      flags = tail ? kBlockTailFreqs : std::uint8_t{0};
    }
    c.at[b] = static_cast<std::uint32_t>(c.decoded.size());
    c.counted = std::max(c.counted, b + 1);
    DecodedBlock& rec = c.decoded.emplace_back(DecodedBlock{b, c.size, count, flags});
    c.size += count;
    if (!m_opt.lazyFreq) (void)freqAt(c, rec, rec.start);  // every decoded block's frequencies
    return rec;
  }

  // The frequency of the clause's posting p (in block rec): the block's frequencies are decoded on
  // first use and counted once.
  std::uint32_t freqAt(SegmentClause& c, DecodedBlock& rec, std::uint32_t p) {
    if ((rec.freqs & kBlockOfCursor) != 0) return c.cursor->blockFreqs()[p - rec.start];  // it counts them
    if ((rec.freqs & kBlockFreqsUsed) == 0) {
      if ((rec.freqs & kBlockTailFreqs) == 0) decodeBlockFreqs(c.list, rec.block, c.freqs.data() + rec.start);
      countUp(m_ctx.counters.freqBlocksDecoded);
      rec.freqs |= kBlockFreqsUsed;
    }
    return c.freqs[p];
  }

  // Moves a walker (block) past the blocks whose last doc is below `doc`: the next block, or a
  // galloping search (a probed common word can be thousands of blocks ahead). Returns false when
  // the list has no block left that reaches `doc` (no later document can match). `passes`: the
  // walker reads the list's documents (decoding, probing), so the blocks it moves past and no one
  // decoded count in blocks_skipped, each once (below `counted` everything is accounted for); the
  // bounds' walker reads block metadata only.
  bool walkTo(SegmentClause& c, std::uint32_t& block, DocId doc, bool passes) {
    const std::uint32_t nb = c.list.blockCount();
    const format::SkipEntry* skips = c.list.skips.data();
    if (block < nb && skips[block].lastDoc < doc) {
      std::uint32_t lo = block + 1;
      std::uint32_t hi = lo;  // the answer lies in [lo, hi] (nb: none)
      for (std::uint32_t step = 1; hi < nb && skips[hi].lastDoc < doc; step *= 2) {
        lo = hi + 1;
        hi = lo + step;
      }
      hi = std::min(hi, nb);
      block = static_cast<std::uint32_t>(
          std::partition_point(skips + lo, skips + hi, [doc](const format::SkipEntry& e) { return e.lastDoc < doc; }) -
          skips);
    }
    if (passes && block > c.counted) {
      countUp(m_ctx.counters.blocksSkipped, block - c.counted);
      c.counted = block;
    }
    return block < nb;
  }

  void segment() {
    SegmentClause& lead = m_s.clauses[0];
    const std::uint32_t nb = lead.list.blockCount();
    std::uint32_t& length = m_windowBlocks;
    for (std::uint32_t b0 = 0; b0 < nb;) {
      const std::uint32_t b1 = std::min(nb, b0 + length);
      length = std::min(length * 2, kMaxWindowBlocks);
      if (!window(b0, b1)) return;
      b0 = b1;
    }
  }

  // One window: the lead's blocks [b0, b1). Returns false when some clause has no document left in
  // the segment.
  bool window(std::uint32_t b0, std::uint32_t b1) {
    SegmentClause& lead = m_s.clauses[0];
    countUp(m_ctx.counters.windowsTotal);
    const DocId lo = lead.list.blockBase(b0) + 1;
    const DocId hi = lead.list.skips[b1 - 1].lastDoc;
    const float floor = m_ctx.topk.floor();

    // 1. Lead blocks whose bound cannot beat the floor are skipped undecoded (window_skip): the
    // bound is the block's maximum plus, per other clause, the largest maximum of its blocks that
    // overlap the lead block's doc range. A block is kept when no floor is set yet.
    // When some other clause has no block reaching a lead block, no later lead block of the
    // segment can match: a bounded window ends there, after its blocks kept so far are evaluated.
    // Without a floor every block is kept unexamined (step 3 finds the clause's end); a trace then
    // examines them for their bounds but keeps them all the same, so that it changes no counter.
    auto& kept = m_s.kept;
    kept.clear();
    const bool bounded = m_opt.windowSkip && m_ctx.topk.hasFloor();
    const bool examined = bounded || m_ctx.trace != nullptr;
    bool more = true;  // every clause has documents after the window
    bool skippedOnBound = false;
    float windowBound = 0.0f;   // the largest bound of the blocks kept
    float skippedBound = 0.0f;  // ... and of those skipped
    for (std::uint32_t b = b0; b < b1 && more; ++b) {
      if (!examined) {
        kept.push_back(b);
        continue;
      }
      const DocId blo = lead.list.blockBase(b) + 1;
      const DocId bhi = lead.list.skips[b].lastDoc;
      double sum = static_cast<double>(blockMax(lead, b));
      bool reaches = true;  // every other clause has a block reaching this lead block
      for (std::size_t s = 1; s < m_n && reaches; ++s) {
        SegmentClause& c = m_s.clauses[s];
        reaches = walkTo(c, c.boundBlock, blo, false);
        if (!reaches) break;
        if (bounded) countUp(m_ctx.counters.shallowAdvances);  // (a trace alone changes no counter)
        float most = 0.0f;
        for (std::uint32_t j = c.boundBlock; j < c.list.blockCount(); ++j) {
          most = std::max(most, blockMax(c, j));
          if (c.list.skips[j].lastDoc >= bhi) break;
        }
        sum += static_cast<double>(most);
      }
      if (!reaches) {
        if (bounded) {
          more = false;
          break;
        }
        kept.push_back(b);  // traced without a floor: kept as an untraced run keeps it
        continue;
      }
      const float bound = conservativeBound(sum, m_factor);
      if (bounded && bound <= floor) {
        // (The lead's block 0 was decoded with its cursor, skipped or not.)
        if (!(b == 0 && lead.cursorBlock)) countUp(m_ctx.counters.blocksSkipped);
        lead.counted = std::max(lead.counted, b + 1);
        skippedOnBound = true;
        skippedBound = std::max(skippedBound, bound);
        if (m_ctx.trace != nullptr) {
          m_ctx.trace->record({TraceEventKind::BlockSkipped, TraceReason::Bound, static_cast<std::int32_t>(m_order[0]),
                               blo, bhi + 1, 0, bound, floor});
        }
        continue;
      }
      windowBound = std::max(windowBound, bound);
      kept.push_back(b);
    }
    if (kept.empty()) {
      // Nothing to read: every block was skipped on its bound, or the segment ends in this window
      // (no common document is left in it; a window with both counts as skipped on its bound).
      if (skippedOnBound) {
        countUp(m_ctx.counters.windowsSkippedBound);
      } else {
        countUp(m_ctx.counters.windowsSkippedEmpty);
      }
      if (m_ctx.trace != nullptr) {
        m_ctx.trace->record({TraceEventKind::WindowSkipped, skippedOnBound ? TraceReason::Bound : TraceReason::Empty, -1,
                             lo, hi, 0, skippedBound, floor});
      }
      return more;
    }
    if (m_ctx.trace != nullptr) {
      m_ctx.trace->record({TraceEventKind::WindowEntered, TraceReason::None, -1, lo, hi, 0, windowBound, floor});
    }

    // 2. The lead's kept blocks, their data requested together before they are decoded in turn.
    for (const std::uint32_t b : kept) lead.list.prefetchBlock(b, lead.list.skips[b].dataBytes);
    const std::uint32_t leadBegin = lead.size;
    for (const std::uint32_t b : kept) (void)decode(lead, b);

    // 3. The other clauses, cheapest first: merged or probed. Candidates start as the lead's
    // postings (not copied: `implicit`) and shrink clause by clause.
    std::size_t m = lead.size - leadBegin;
    bool implicit = true;
    for (std::size_t s = 1; s < m_n && m > 0; ++s) {
      SegmentClause& c = m_s.clauses[s];
      if (!walkTo(c, c.walkBlock, lo, true)) {  // the clause ended before the window (not bounded)
        countUp(m_ctx.counters.windowsSkippedEmpty);
        if (m_ctx.trace != nullptr) {
          m_ctx.trace->record({TraceEventKind::WindowSkipped, TraceReason::Empty, -1, lo, hi, 0, 0, floor});
        }
        return false;
      }
      std::uint64_t inWindow = 0;
      for (std::uint32_t j = c.walkBlock; j < c.list.blockCount() && inWindow <= kMergePostingsPerCandidate * m; ++j) {
        inWindow += c.list.blockSize(j);
        if (c.list.skips[j].lastDoc >= hi) break;
      }
      if (inWindow <= kMergePostingsPerCandidate * m) {
        m = merge(s, m, implicit, leadBegin);
      } else {
        m = probe(s, m, implicit, leadBegin, more);
      }
      implicit = false;
    }
    if (m == 0) {
      countUp(m_ctx.counters.windowsSkippedEmpty);
      if (m_ctx.trace != nullptr) {
        m_ctx.trace->record({TraceEventKind::WindowSkipped, TraceReason::Empty, -1, lo, hi, 0, 0, floor});
      }
      return more;
    }
    candidates(m);
    return more;
  }

  // The candidate's document and its posting in merge slot 0 while the candidates are still the
  // lead's postings from leadBegin on.
  std::uint32_t leadPosition(std::size_t z, bool implicit, std::uint32_t leadBegin) const {
    return implicit ? leadBegin + static_cast<std::uint32_t>(z) : m_s.positions[0][z];
  }

  // Intersects the candidates with the postings of clause s that can hold one (decoded here),
  // keeping the common ones and their positions.
  std::size_t merge(std::size_t s, std::size_t m, bool implicit, std::uint32_t leadBegin) {
    SegmentClause& lead = m_s.clauses[0];
    SegmentClause& c = m_s.clauses[s];
    // The blocks to decode, in order; a block this clause shares with the previous window is
    // already decoded (the last one), so the postings stay contiguous. While the candidates are
    // the lead's postings (the second clause), every block overlapping a kept lead block. After a
    // first intersection they are few: only the blocks holding a candidate's doc id, found from
    // the skip table; the others are passed over (blocks_skipped). On mid-df-3 that leaves 428
    // blocks decoded per query instead of 494 (most third clauses hold fewer candidates than
    // blocks in a window).
    auto& needed = m_s.needed;
    needed.clear();
    std::uint32_t j = c.walkBlock;
    const std::uint32_t nb = c.list.blockCount();
    if (!implicit) {
      const DocId* cand = m_s.candidates.data();
      for (std::size_t z = 0; z < m;) {
        if (!walkTo(c, j, cand[z], true)) break;  // no later candidate can match
        needed.push_back(j);
        c.counted = std::max(c.counted, j + 1);  // decoded below, not passed over
        // On to the first candidate past block j (galloping: a block of a common clause can
        // hold hundreds of them).
        const DocId last = c.list.skips[j].lastDoc;
        std::size_t lo = z + 1;  // cand[lo - 1] <= last
        std::size_t step = 1;
        while (lo + step <= m && cand[lo + step - 1] <= last) {
          lo += step;
          step *= 2;
        }
        z = static_cast<std::size_t>(std::upper_bound(cand + lo, cand + std::min(m, lo + step), last) - cand);
      }
    } else {
      for (const std::uint32_t b : m_s.kept) {
        const DocId blo = lead.list.blockBase(b) + 1;
        const DocId bhi = lead.list.skips[b].lastDoc;
        if (!walkTo(c, j, blo, true)) break;  // (the clause ends before this lead block)
        for (; j < nb; ++j) {
          if (needed.empty() || needed.back() != j) needed.push_back(j);
          c.counted = std::max(c.counted, j + 1);  // decoded below, not passed over
          if (c.list.skips[j].lastDoc >= bhi) break;
        }
        if (j == nb) break;
      }
    }
    if (needed.empty()) return 0;
    c.walkBlock = needed.back();
    for (const std::uint32_t b : needed) {
      if (c.at[b] == kNotDecoded) c.list.prefetchBlock(b, c.list.skips[b].dataBytes);
    }
    const std::uint32_t bBegin = decode(c, needed.front()).start;
    for (std::size_t i = 1; i < needed.size(); ++i) (void)decode(c, needed[i]);
    const std::uint32_t bEnd = c.size;
    if (!implicit && m <= kLookUpCandidatesPerBlock * needed.size()) return lookUp(s, m);

    // The SIMD target's long-run kernel (or the scalar reference with simd_merge=off) gives the
    // matches' indices on both sides; in place after it: an entry is written at w <= the index it
    // is read from, which later matches never read again.
    const DocId* a = implicit ? lead.docs.data() + leadBegin : m_s.candidates.data();
    const auto la = static_cast<std::uint32_t>(m);
    const std::uint32_t lb = bEnd - bBegin;
    auto& fromA = m_s.fromA;
    auto& fromB = m_s.fromB;
    const std::size_t room = std::min(la, lb) + kIntersectRunsSlack;
    if (fromA.size() < room) {
      fromA.resize(room);
      fromB.resize(room);
    }
    const std::size_t found = m_opt.simdMerge
                                  ? m_kernels.intersectRuns(a, la, c.docs.data() + bBegin, lb, fromA.data(), fromB.data())
                                  : intersectRuns(a, la, c.docs.data() + bBegin, lb, fromA.data(), fromB.data());
    for (std::size_t w = 0; w < found; ++w) {
      const std::uint32_t from = fromA[w];
      for (std::size_t r = 0; r < s; ++r) {
        m_s.positions[r][w] = r == 0 ? leadPosition(from, implicit, leadBegin) : m_s.positions[r][from];
      }
      m_s.positions[s][w] = bBegin + fromB[w];
      m_s.candidates[w] = a[from];
    }
    return found;
  }

  // The explicit candidates' merge with clause s once the blocks holding them are decoded: each
  // candidate is looked up in its block by counting the block's doc ids below it (count_below:
  // every lane compared, no early exit), where a scan stopping at the match mispredicted its exit
  // once per candidate. Keeps the ones found, in place (entry w is written at or before the
  // candidate it comes from).
  std::size_t lookUp(std::size_t s, std::size_t m) {
    SegmentClause& c = m_s.clauses[s];
    const auto& needed = m_s.needed;
    const DocId* docs = c.docs.data();
    std::size_t w = 0;
    std::size_t k = 0;  // needed[k]: the first needed block whose last doc is at least the candidate's
    for (std::size_t z = 0; z < m; ++z) {
      const DocId doc = m_s.candidates[z];
      while (k < needed.size() && c.list.skips[needed[k]].lastDoc < doc) ++k;
      if (k == needed.size()) break;  // past the clause's last block (merge() stopped there)
      const DecodedBlock& rec = c.decoded[c.at[needed[k]]];
      const DocId* block = docs + rec.start;
      const std::size_t below = m_opt.simdMerge ? m_countBelow(block, rec.count, doc)
                                                : static_cast<std::size_t>(
                                                      std::lower_bound(block, block + rec.count, doc) - block);
      if (below == rec.count || block[below] != doc) continue;
      for (std::size_t r = 0; r < s; ++r) m_s.positions[r][w] = m_s.positions[r][z];
      m_s.positions[s][w] = rec.start + static_cast<std::uint32_t>(below);
      m_s.candidates[w] = doc;
      ++w;
    }
    return w;
  }

  // Looks each candidate up in clause s (its block decoded on demand, a find-next-geq from the
  // previous answer), keeping the ones found. `more` turns false when the clause has no block
  // left for a candidate.
  std::size_t probe(std::size_t s, std::size_t m, bool implicit, std::uint32_t leadBegin, bool& more) {
    SegmentClause& lead = m_s.clauses[0];
    SegmentClause& c = m_s.clauses[s];
    std::size_t w = 0;
    for (std::size_t z = 0; z < m; ++z) {
      const std::uint32_t leadAt = leadPosition(z, implicit, leadBegin);
      const DocId doc = implicit ? lead.docs[leadAt] : m_s.candidates[z];
      if (!walkTo(c, c.walkBlock, doc, true)) {
        more = false;
        break;
      }
      const DecodedBlock& rec = decode(c, c.walkBlock);
      const std::uint32_t end = rec.start + rec.count;
      std::uint32_t p = std::max(c.probeAt, rec.start);
      if (m_opt.simdMerge) {
        p += static_cast<std::uint32_t>(m_findGeq(c.docs.data() + p, end - p, doc));
      } else {
        p = static_cast<std::uint32_t>(std::lower_bound(c.docs.data() + p, c.docs.data() + end, doc) - c.docs.data());
      }
      c.probeAt = p;  // the block's last doc >= doc, so p < end
      if (c.docs[p] != doc) continue;
      for (std::size_t r = 0; r < s; ++r) m_s.positions[r][w] = r == 0 ? leadAt : m_s.positions[r][z];
      m_s.positions[s][w] = p;
      m_s.candidates[w] = doc;
      ++w;
    }
    return w;
  }

  // The decoded block holding clause s's posting p (candidates come in doc-id order, so the record
  // only moves forward).
  DecodedBlock& recordOf(SegmentClause& c, std::uint32_t p) {
    while (c.decoded[c.record].start + c.decoded[c.record].count <= p) ++c.record;
    return c.decoded[c.record];
  }

  // 4. The window's candidates in doc order: pruned on the lead's exact score (or, with
  // candidate_prune=off, its frequency bound) plus the maxima of the other clauses' blocks holding
  // the candidate; the survivors get the full score in query order.
  void candidates(std::size_t m) {
    QueryContext& ctx = m_ctx;
    SegmentClause& lead = m_s.clauses[0];
    const float leadIdf = lead.idf;
    const auto leadTerm = static_cast<std::int32_t>(m_order[0]);
    const DocId* cand = m_s.candidates.data();
    countUp(ctx.counters.candidatesSeen, m);
    std::uint64_t prunedTable = 0;
    std::uint64_t prunedLimit = 0;
    std::array<DecodedBlock*, kMaxLongWindowClauses> rec{};
    for (std::size_t z = 0; z < std::min(m, kNormsAhead); ++z) __builtin_prefetch(m_norms + cand[z]);
    for (std::size_t z = 0; z < m; ++z) {
      if (z + kNormsAhead < m) __builtin_prefetch(m_norms + cand[z + kNormsAhead]);
      const DocId doc = cand[z];
      for (std::size_t s = 0; s < m_n; ++s) rec[s] = &recordOf(m_s.clauses[s], m_s.positions[s][z]);
      const float f = ctx.topk.floor();
      if (ctx.topk.hasFloor() && (m_opt.freqPrune || m_opt.candidatePrune)) {
        // The other clauses' block maxima change from candidate to candidate here, so a limit and
        // a table per (floor, others) pair would be recomputed for almost every candidate: each
        // decision is taken on its bound directly instead, in f64 (beatsFloor: the same decisions
        // as the limit's and the table's one f32 comparison, score_bounds.h).
        double others = 0.0;
        for (std::size_t s = 1; s < m_n; ++s) others += static_cast<double>(blockMax(m_s.clauses[s], rec[s]->block));
        const std::uint32_t leadTf = freqAt(lead, *rec[0], m_s.positions[0][z]);
        if (m_opt.candidatePrune) {
          // The lead's exact score. It is at most the frequency bound, so it rejects every
          // candidate freq_prune's bound would, and its normaliser was requested ahead: the bound
          // is not computed then (computed beside it, it cost sequential-2 1.06x, in process).
          const float leadScore = leadIdf * m_bm25.weight(leadTf, m_norms[doc]);
          if (!beatsFloor(static_cast<double>(leadScore) + others, m_factor, f)) {
            ++prunedLimit;
            if (ctx.trace != nullptr) {
              ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Limit, leadTerm, doc, 0, leadScore,
                                 conservativeBound(static_cast<double>(leadScore) + others, m_factor), f});
            }
            continue;
          }
        } else {
          // freq_prune alone: the lead's frequency bound, capped by its block's maximum, which
          // needs no normaliser.
          const float tfBound = m_prune.tfBound(leadTf, blockMax(lead, rec[0]->block));
          if (!beatsFloor(static_cast<double>(tfBound) + others, m_factor, f)) {
            ++prunedTable;
            if (ctx.trace != nullptr) {
              ctx.trace->record({TraceEventKind::CandidatePruned, TraceReason::Table, leadTerm, doc, 0, 0, tfBound, f});
            }
            continue;
          }
        }
      }
      // The full score, in query order: bit-identical to every other path.
      Score score = 0.0f;
      for (std::size_t q = 0; q < m_n; ++q) {
        const std::size_t s = m_slotOf[q];
        SegmentClause& c = m_s.clauses[s];
        const std::uint32_t tf = freqAt(c, *rec[s], m_s.positions[s][z]);
        score += Bm25::contribution(ctx.cursors[q].idf(), m_bm25.weight(tf, m_norms[doc]));
      }
      ctx.collect(doc, score);
    }
    countUp(ctx.counters.candidatesPrunedTable, prunedTable);
    countUp(ctx.counters.candidatesPrunedLimit, prunedLimit);
  }

  QueryContext& m_ctx;
  const SearchOptions& m_opt;
  std::size_t m_n;
  double m_factor;
  const simd::IntersectKernels& m_kernels;
  simd::FindNextGeqFn m_findGeq;
  simd::CountBelowFn m_countBelow;
  const float* m_norms;
  const Bm25& m_bm25;
  LongWindowScratch& m_s;
  std::array<std::size_t, kMaxLongWindowClauses> m_order;  // merge slot -> query-order clause
  LeadPrune m_prune;
  std::array<std::size_t, kMaxLongWindowClauses> m_slotOf{};  // query-order clause -> merge slot
  std::uint32_t m_windowBlocks = 1;  // the next window's length in lead blocks (kMaxWindowBlocks)
};

}  // namespace

void bulkAndLongWindows(QueryContext& ctx) {
  thread_local LongWindowScratch scratch;
  struct Trim {  // drops the buffers of an unusually long query when done (also if decoding throws)
    LongWindowScratch& scratch;
    ~Trim() {
      for (const auto& c : scratch.clauses) {
        if (c.docs.size() > kKeepClausePostings) {
          scratch = LongWindowScratch{};
          return;
        }
      }
    }
  } trim{scratch};
  // The events mean what COUNTERS.md says of the long windows, and the cursors are not walked.
  if (ctx.trace != nullptr) ctx.trace->longWindows = true;
  LongWindows(ctx, scratch).run();
}

}  // namespace wandscope::engine
