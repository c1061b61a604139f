// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/find_geq.h"
#include "engine/core/types.h"
#include "engine/index/index.h"
#include "engine/index/posting_list.h"
#include "engine/query/query_counters.h"

#include <array>
#include <cstdint>
#include <span>

namespace wandscope::engine {

// Walks one term's postings across all segments in doc-id order. Doc-id blocks are decoded on
// entry, frequency blocks only when freq() or score() first needs them (lazy frequencies).
// Every decode, skip and shallow move is counted in the QueryCounters given at construction.
//
// Contracts:
//  - docId() is kNoMoreDocs once the list is exhausted;
//  - nextGeq(d) never moves backwards: no move at all if docId() >= d;
//  - freq()/score() require docId() != kNoMoreDocs;
//  - the block pointer used by blockMaxScore()/blockLastDoc() moves only through shallowAdvance()
//    (never backwards, never decodes) and is never behind the cursor's own block.
class PostingCursor {
 public:
  PostingCursor(const Index& index, TermId term, QueryCounters& counters);

  TermId term() const noexcept { return m_term; }
  // The index and the term's posting lists (one part per segment, in doc-id order), for the paths
  // that decode whole lists themselves (taat_or.h) instead of walking them.
  const Index& index() const noexcept { return *m_index; }
  std::span<const TermPart> parts() const noexcept { return m_parts; }
  const Bm25& bm25() const noexcept { return *m_bm25; }
  // K(dl) per document of the index (see Index::lengthNorms).
  const float* lengthNorms() const noexcept { return m_norms; }
  std::uint64_t df() const noexcept { return m_df; }
  float idf() const noexcept { return m_idf; }

  DocId docId() const noexcept { return m_doc; }
  void next();
  void nextGeq(DocId target);

  std::uint32_t freq();
  Score score() { return Bm25::contribution(m_idf, m_bm25->weight(freq(), m_norms[m_doc])); }

  // The largest score any posting of the list can have (exact: idf * max W).
  Score maxScore() const noexcept { return m_maxScore; }

  // Moves the block pointer to the block that would hold `target` (the first with last doc >=
  // target), without decoding; no move if it is already there or beyond.
  void shallowAdvance(DocId target) {
    // Inline, the common case: the pointer is not behind the cursor's block and its block
    // already reaches target (the windowed paths ask once per window and list).
    if (!shallowBehind() && m_shallowPart < m_parts.size() && m_shallowList.skips[m_shallowBlock].lastDoc >= target) {
      countUp(m_counters->shallowAdvances);
      return;
    }
    shallowAdvanceFar(target);
  }
  // The largest score in the block-pointer's block (0 past the end of the list).
  Score blockMaxScore() const noexcept {
    return m_shallowPart >= m_parts.size() ? 0.0f : m_idf * m_shallowList.blockMaxWeight[m_shallowBlock];
  }
  // The last doc id of the block-pointer's block (kNoMoreDocs past the end of the list).
  DocId blockLastDoc() const noexcept {
    return m_shallowPart >= m_parts.size() ? kNoMoreDocs : m_shallowList.skips[m_shallowBlock].lastDoc;
  }

  // Block-level access for the bulk paths, which work on whole decoded blocks. The decoded block
  // is the one holding docId(); blockPosition() is docId()'s index in it.
  const DocId* blockDocs() const noexcept { return m_docs.data(); }
  std::uint32_t blockSize() const noexcept { return m_count; }
  std::uint32_t blockPosition() const noexcept { return m_pos; }
  // The decoded block's frequencies, decoding them on first use (lazy frequencies).
  const std::uint32_t* blockFreqs() {
    if (!m_freqsUsed) useFreqs();
    return m_freqs.data();
  }
  // Identifies the decoded block (segment part and block), to notice when it changes.
  std::uint64_t blockId() const noexcept { return (std::uint64_t{m_part} << 32) | m_block; }
  // The exact maximum score of the decoded block.
  Score decodedBlockMaxScore() const noexcept {
    return m_doc == kNoMoreDocs ? 0.0f : m_idf * m_list.blockMaxWeight[m_block];
  }
  // Moves to index i of the decoded block (blockPosition() <= i); i == blockSize() moves to the
  // first posting of the next block. No search: the caller knows where the next posting is.
  void setBlockPosition(std::uint32_t i);
  // Score of the posting at index i of the decoded block (frequencies decoded as needed).
  Score scoreAt(std::uint32_t i) {
    return Bm25::contribution(m_idf, m_bm25->weight(blockFreqs()[i], m_norms[m_docs[i]]));
  }

 private:
  bool loadPart(std::uint32_t part);
  void decodeCurrentBlock();
  // Makes the decoded block's frequencies available and counts the frequency block once.
  void useFreqs();
  // Positions on the first block (from the current one on) whose last doc >= target and decodes
  // it; exhausts the cursor if there is none.
  void seekBlock(DocId target);
  // shallowAdvance() beyond the pointer's block (or from behind the cursor's block).
  void shallowAdvanceFar(DocId target);
  // The block pointer is behind the cursor's own block (the cursor moved past it).
  bool shallowBehind() const noexcept {
    return m_shallowPart < m_part || (m_shallowPart == m_part && m_shallowBlock < m_block);
  }

  const Bm25* m_bm25;
  const float* m_norms;
  const Index* m_index;
  QueryCounters* m_counters;
  TermId m_term;
  std::uint64_t m_df;
  float m_idf;
  Score m_maxScore;

  std::span<const TermPart> m_parts;
  // find_next_geq of the SIMD target current when the cursor was made.
  simd::FindNextGeqFn m_findGeq;
  std::uint32_t m_part = 0;
  PostingList m_list;
  std::uint32_t m_block = 0;  // decoded block in m_list
  std::uint32_t m_count = 0;  // postings in the decoded block
  std::uint32_t m_pos = 0;
  bool m_freqsReady = false;  // decoded (a tail decodes them with its doc ids)
  bool m_freqsUsed = false;   // asked for (what freq_blocks_decoded counts)
  DocId m_doc = kNoMoreDocs;

  std::uint32_t m_shallowPart = 0;
  std::uint32_t m_shallowBlock = 0;
  PostingList m_shallowList;

  alignas(64) std::array<DocId, kBlockSize> m_docs{};
  alignas(64) std::array<std::uint32_t, kBlockSize> m_freqs{};
};

}  // namespace wandscope::engine
