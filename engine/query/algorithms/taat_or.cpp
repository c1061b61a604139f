// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/taat_or.h"

#include "engine/codec/bp128.h"
#include "engine/codec/simd/block_score.h"
#include "engine/codec/simd/intersect.h"
#include "engine/query/algorithms/maxscore.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace wandscope::engine {
namespace {

// One block of one list, laid out in the flat posting arrays at [start, start + count).
struct TaatBlock {
  std::uint32_t list;   // into the query's posting lists (one per term and segment)
  std::uint32_t block;  // in that list
  std::uint32_t term;   // query-order index (= cursor index)
  std::uint32_t start;
  std::uint32_t count;
  // The block maximum idf x max W, the exact largest contribution of the block (bm25.h), as
  // conservativeBound() gives it for one term: the same f32, and +inf for NaN (never skipped).
  Score bound;
  std::uint8_t state;  // kTailFreqs | kFreqsUsed | kCursorBlock
  const std::uint32_t* freqs;  // with kFreqsUsed
};

constexpr std::uint8_t kTailFreqs = 1;    // a tail: frequencies decoded with the doc ids
constexpr std::uint8_t kFreqsUsed = 2;    // frequencies available at TaatBlock::freqs (and counted)
constexpr std::uint8_t kCursorBlock = 4;  // the block the term's cursor decoded when it was made

// Per-thread buffers, reused: a rare query's whole evaluation takes some 15-20 us, and allocating
// them per query cost about 4 % of it (rare-3, interleaved in-process timing). Kept only up to
// kKeepPostings postings, so one forced query over long lists does not pin its memory for the
// thread's lifetime.
struct TaatScratch {
  std::vector<PostingList> lists;
  std::vector<TaatBlock> blocks;
  std::vector<std::uint32_t> termBegin;
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
  std::vector<std::uint8_t> multi;  // 1: the posting's document is in two or more lists
  std::vector<std::uint32_t> multiPostings;
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> fromX;  // a pairwise intersection's matches: positions in list x
  std::vector<std::uint32_t> fromY;  // ... and in list y
};
constexpr std::size_t kKeepPostings = std::size_t{1} << 20;

}  // namespace

// See taat_or.h. Exactness: a document held by one list scores 0 + its contribution there, which
// is at most its block's maximum (f32 multiplication by the idf is monotone, so the block maximum
// is exact, not an estimate); blocks are taken by descending maximum and the floor only rises, so
// once a block's maximum is below the floor every later document is too. The comparison is
// inclusive (a maximum equal to the floor is scored) because blocks are visited out of doc-id
// order: a document that ties the k-th score with a smaller doc id still enters
// (TopKCollector's order is score desc, doc id asc). Documents held by two or more lists are never
// pruned; their score adds the contributions in query order, as every path does.
bool taatEvaluates(const std::vector<PostingCursor>& cursors) noexcept {
  std::uint64_t expected = 0;
  for (const auto& c : cursors) expected += c.df();
  return cursors.size() <= kTaatMaxTerms && expected <= kTaatMaxPostings;
}

void taatOr(QueryContext& ctx) {
  auto& cursors = ctx.cursors;
  const std::size_t n = cursors.size();
  if (n == 0) return;
  if (!taatEvaluates(cursors)) {
    maxScore(ctx);
    return;
  }
  const Index& index = cursors.front().index();
  const Bm25& bm25 = cursors.front().bm25();
  const float* lengthNorms = cursors.front().lengthNorms();
  const double oneTerm = sumUpperBoundFactor(1);

  // 1. The blocks of every list, in query order and doc-id order within a list, then their doc ids.
  thread_local TaatScratch scratch;
  struct Trim {  // drops the buffers of an unusually long query when done (also if decoding throws)
    TaatScratch& scratch;
    ~Trim() {
      if (scratch.docs.size() > kKeepPostings) scratch = TaatScratch{};
    }
  } trim{scratch};
  auto& lists = scratch.lists;
  auto& blocks = scratch.blocks;
  auto& termBegin = scratch.termBegin;  // postings of term t: [termBegin[t], termBegin[t + 1])
  lists.clear();
  blocks.clear();
  termBegin.assign(n + 1, 0);
  std::uint64_t total = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const PostingCursor& c = cursors[t];
    termBegin[t] = static_cast<std::uint32_t>(total);
    const auto parts = c.parts();
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const auto listIndex = static_cast<std::uint32_t>(lists.size());
      const PostingList& list = lists.emplace_back(index.postingList(parts[p]));
      for (std::uint32_t b = 0; b < list.blockCount(); ++b) {
        const std::uint32_t count = list.blockSize(b);
        const Score bound = conservativeBound(static_cast<double>(c.idf() * list.blockMaxWeight[b]), oneTerm);
        // The cursor was made on the list's first block and decoded it: its doc ids (and later its
        // frequencies) are taken from there rather than decoded twice.
        const bool cursorBlock = p == 0 && b == 0 && c.docId() != kNoMoreDocs && c.blockId() == 0 &&
                                 c.blockPosition() == 0 && c.blockSize() == count;
        blocks.push_back({listIndex, b, static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(total), count,
                          bound, cursorBlock ? kCursorBlock : std::uint8_t{0}, nullptr});
        total += count;
      }
    }
    if (total > kTaatMaxPostings) {  // only if the lists disagree with their document frequencies
      maxScore(ctx);
      return;
    }
  }
  termBegin[n] = static_cast<std::uint32_t>(total);
  if (ctx.trace != nullptr) ctx.trace->cursorsWalked = false;  // whole lists, not cursors
  // Full BP128 blocks always hold kBlockSize postings; the padding only keeps a damaged skip entry
  // from writing past the arrays.
  const std::size_t room = static_cast<std::size_t>(total) + kBlockSize;
  if (scratch.docs.size() < room) {
    scratch.docs.resize(room);
    scratch.freqs.resize(room);
  }
  DocId* const docs = scratch.docs.data();
  std::uint32_t* const freqs = scratch.freqs.data();
  // The blocks' data are cold too (the search prefetched only each list's first block): their
  // lines are requested together before the decoding loop meets them one at a time.
  for (const TaatBlock& blk : blocks) {
    if ((blk.state & kCursorBlock) == 0) {
      const PostingList& list = lists[blk.list];
      const format::SkipEntry& skip = list.skips[blk.block];
      // The doc ids' bytes: a full block's 128 gaps of docWidth bits, or the whole tail (a packed
      // tail's frequencies are unpacked with its doc ids).
      const std::size_t bytes = skip.flags != 0 ? skip.dataBytes : codec::bp128Words(skip.docWidth) * 4;
      list.prefetchBlock(blk.block, bytes);
    }
  }
  for (TaatBlock& blk : blocks) {
    DocId* out = docs + blk.start;
    if ((blk.state & kCursorBlock) != 0) {
      std::copy_n(cursors[blk.term].blockDocs(), blk.count, out);
      continue;
    }
    bool tail = false;
    decodeBlockDocs(lists[blk.list], blk.block, out, freqs + blk.start, tail);
    countUp(ctx.counters.docBlocksDecoded);
    countUp(ctx.counters.postingsDecoded, blk.count);
    if (tail) blk.state |= kTailFreqs;
  }
  // A block's frequencies on first use (BP128 blocks decoded then; counted once per block).
  auto useFreqs = [&](TaatBlock& blk) -> const std::uint32_t* {
    if ((blk.state & kFreqsUsed) == 0) {
      if ((blk.state & kCursorBlock) != 0) {
        blk.freqs = cursors[blk.term].blockFreqs();  // the cursor decodes and counts them
      } else {
        if ((blk.state & kTailFreqs) == 0) decodeBlockFreqs(lists[blk.list], blk.block, freqs + blk.start);
        countUp(ctx.counters.freqBlocksDecoded);
        blk.freqs = freqs + blk.start;
      }
      blk.state |= kFreqsUsed;
    }
    return blk.freqs;
  };

  // 2. Documents held by two or more lists: every pair of lists intersected whole by the SIMD
  // target's long-run kernel (intersect.h). Each posting of such a document is flagged and listed
  // once.
  auto& multi = scratch.multi;
  auto& multiPostings = scratch.multiPostings;
  multi.assign(total, 0);
  multiPostings.clear();
  const simd::IntersectKernels& intersect = simd::intersectKernels();
  auto& fromX = scratch.fromX;
  auto& fromY = scratch.fromY;
  const DocId* ids = docs;
  auto flag = [&](std::uint32_t p) {
    if (multi[p] != 0) return;
    multi[p] = 1;
    multiPostings.push_back(p);
  };
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t y = x + 1; y < n; ++y) {
      const std::uint32_t lx = termBegin[x + 1] - termBegin[x];
      const std::uint32_t ly = termBegin[y + 1] - termBegin[y];
      const std::size_t matchRoom = std::min(lx, ly) + kIntersectRunsSlack;
      if (fromX.size() < matchRoom) {
        fromX.resize(matchRoom);
        fromY.resize(matchRoom);
      }
      const std::size_t m =
          intersect.intersectRuns(ids + termBegin[x], lx, ids + termBegin[y], ly, fromX.data(), fromY.data());
      for (std::size_t z = 0; z < m; ++z) {
        flag(termBegin[x] + fromX[z]);
        flag(termBegin[y] + fromY[z]);
      }
    }
  }

  // Their scores, exactly as the oracle adds them: the postings of one document sorted by position
  // are in query order (term t's postings precede term t + 1's).
  std::sort(multiPostings.begin(), multiPostings.end(), [ids](std::uint32_t a, std::uint32_t b) {
    return ids[a] < ids[b] || (ids[a] == ids[b] && a < b);
  });
  auto blockOf = [&](std::uint32_t p) -> TaatBlock& {
    const auto it = std::upper_bound(blocks.begin(), blocks.end(), p,
                                     [](std::uint32_t v, const TaatBlock& blk) { return v < blk.start; });
    return *(it - 1);
  };
  for (std::size_t a = 0; a < multiPostings.size();) {
    const DocId doc = ids[multiPostings[a]];
    Score score = 0.0f;
    for (; a < multiPostings.size() && ids[multiPostings[a]] == doc; ++a) {
      const std::uint32_t p = multiPostings[a];
      TaatBlock& blk = blockOf(p);
      const std::uint32_t tf = useFreqs(blk)[p - blk.start];
      score += Bm25::contribution(cursors[blk.term].idf(), bm25.weight(tf, lengthNorms[doc]));
    }
    countUp(ctx.counters.candidatesSeen);
    ctx.collect(doc, score);
  }

  // 3. The documents held by one list, block by block in descending order of block maximum (ties
  // in posting order), until a block's maximum is below the floor.
  auto& order = scratch.order;
  order.resize(blocks.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return blocks[a].bound > blocks[b].bound || (blocks[a].bound == blocks[b].bound && a < b);
  });
  const simd::BlockScoreKernels& kernels = simd::blockScoreKernels();
  const float k1p1 = bm25.k1Plus1();
  alignas(64) std::array<float, kBlockSize> norms{};
  alignas(64) std::array<float, kBlockSize> scores{};
  std::size_t next = 0;
  for (; next < order.size(); ++next) {
    TaatBlock& blk = blocks[order[next]];
    const Score floor = ctx.topk.floor();
    if (blk.bound < floor) break;
    const DocId* blockDocs = ids + blk.start;
    const std::uint32_t* tfs = useFreqs(blk);
    for (std::uint32_t i = 0; i < blk.count; ++i) norms[i] = lengthNorms[blockDocs[i]];
    kernels.scoreBlock(tfs, norms.data(), blk.count, cursors[blk.term].idf(), k1p1, scores.data());
    const std::uint8_t* shared = multi.data() + blk.start;
    std::uint64_t single = 0;
    for (std::uint32_t i = 0; i < blk.count; ++i) {
      if (shared[i] != 0) continue;
      ++single;
      // The oracle's sum of one contribution (0 + c, the same bits for every c it can produce).
      const Score score = 0.0f + scores[i];
      if (ctx.trace != nullptr) {
        ctx.collect(blockDocs[i], score);
      } else if (score >= floor) {
        ctx.topk.insert(blockDocs[i], score);
      }
    }
    countUp(ctx.counters.candidatesSeen, single);
    if (ctx.trace == nullptr) countUp(ctx.counters.fullScores, single);  // collect() counted them
  }
  countUp(ctx.counters.blocksSkipped, order.size() - next);
  if (ctx.trace != nullptr) {
    for (; next < order.size(); ++next) {
      const TaatBlock& blk = blocks[order[next]];
      ctx.trace->record({TraceEventKind::BlockSkipped, TraceReason::Bound, static_cast<std::int32_t>(blk.term),
                         ids[blk.start], ids[blk.start + blk.count - 1] + 1, 0, blk.bound, ctx.topk.floor()});
    }
  }
}

}  // namespace wandscope::engine
