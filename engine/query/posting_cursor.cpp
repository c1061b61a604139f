// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/posting_cursor.h"

#include <algorithm>

namespace wandscope::engine {

PostingCursor::PostingCursor(const Index& index, TermId term, QueryCounters& counters)
    : m_bm25(&index.bm25()),
      m_norms(index.lengthNorms()),
      m_index(&index),
      m_counters(&counters),
      m_term(term),
      m_df(index.term(term).df),
      m_idf(index.idf(term)),
      m_maxScore(m_idf * index.term(term).maxWeight),
      m_parts(index.parts(term)),
      m_findGeq(simd::findNextGeqKernel()) {
  if (loadPart(0)) {
    m_block = 0;
    decodeCurrentBlock();
  }
  m_shallowPart = m_part;
  m_shallowBlock = m_block;
  m_shallowList = m_list;
}

bool PostingCursor::loadPart(std::uint32_t part) {
  m_part = part;
  if (part >= m_parts.size()) {
    m_doc = kNoMoreDocs;
    m_list = PostingList{};
    m_block = 0;
    m_count = 0;
    return false;
  }
  m_list = m_index->postingList(m_parts[part]);
  return true;
}

void PostingCursor::decodeCurrentBlock() {
  bool tailFreqs = false;
  m_count = decodeBlockDocs(m_list, m_block, m_docs.data(), m_freqs.data(), tailFreqs);
  m_freqsReady = tailFreqs;
  m_freqsUsed = false;
  countUp(m_counters->docBlocksDecoded);
  countUp(m_counters->postingsDecoded, m_count);
  m_pos = 0;
  m_doc = m_docs[0];
  // The list's next block is usually decoded next: its data lines are requested now, so that
  // decoding it does not wait on memory (a list's blocks are contiguous, but the paths read
  // several lists in turn, a few blocks each, which the hardware prefetchers do not follow).
  if (m_block + 1 < m_list.blockCount()) m_list.prefetchBlock(m_block + 1, m_list.skips[m_block + 1].dataBytes);
}

void PostingCursor::useFreqs() {
  if (!m_freqsReady) {
    decodeBlockFreqs(m_list, m_block, m_freqs.data());
    m_freqsReady = true;
  }
  countUp(m_counters->freqBlocksDecoded);
  m_freqsUsed = true;
}

std::uint32_t PostingCursor::freq() {
  if (!m_freqsUsed) useFreqs();
  return m_freqs[m_pos];
}

void PostingCursor::setBlockPosition(std::uint32_t i) {
  if (m_doc == kNoMoreDocs) return;
  if (i < m_count) {
    m_pos = i;
    m_doc = m_docs[i];
    return;
  }
  m_pos = m_count - 1;
  next();
}

void PostingCursor::next() {
  if (m_doc == kNoMoreDocs) return;
  if (++m_pos < m_count) {
    m_doc = m_docs[m_pos];
    return;
  }
  if (m_block + 1 < m_list.blockCount()) {
    ++m_block;
  } else {
    if (!loadPart(m_part + 1)) return;
    m_block = 0;
  }
  decodeCurrentBlock();
}

void PostingCursor::seekBlock(DocId target) {
  // m_block is the first candidate block (not decoded); every block passed over counts as skipped.
  while (m_list.skips.back().lastDoc < target) {
    countUp(m_counters->blocksSkipped, m_list.blockCount() - m_block);
    if (!loadPart(m_part + 1)) return;
    m_block = 0;
  }
  const auto* first = m_list.skips.data() + m_block;
  const auto* last = m_list.skips.data() + m_list.blockCount();
  const auto* found = std::partition_point(first, last, [&](const format::SkipEntry& s) {
    return s.lastDoc < target;
  });
  const auto newBlock = static_cast<std::uint32_t>(found - m_list.skips.data());
  countUp(m_counters->blocksSkipped, newBlock - m_block);
  m_block = newBlock;
  decodeCurrentBlock();
}

void PostingCursor::nextGeq(DocId target) {
  if (target <= m_doc) return;
  if (m_doc == kNoMoreDocs) return;
  if (target > m_list.skips[m_block].lastDoc) {
    if (m_block + 1 < m_list.blockCount() || m_part + 1 < m_parts.size()) {
      // Leave the current block; the block after it is the first candidate.
      if (m_block + 1 < m_list.blockCount()) {
        ++m_block;
      } else {
        if (!loadPart(m_part + 1)) return;
        m_block = 0;
      }
      seekBlock(target);
      if (m_doc == kNoMoreDocs) return;
    } else {
      m_doc = kNoMoreDocs;
      m_pos = m_count;
      return;
    }
  }
  // The target is inside the decoded block: the SIMD target's find-next-geq from the current
  // position (targets are usually a few postings ahead, where a vector scan beats a search).
  m_pos += static_cast<std::uint32_t>(m_findGeq(m_docs.data() + m_pos, m_count - m_pos, target));
  m_doc = m_docs[m_pos];  // the block's last doc >= target, so m_pos < m_count
}

void PostingCursor::shallowAdvanceFar(DocId target) {
  countUp(m_counters->shallowAdvances);
  // Never behind the cursor's own block.
  if (shallowBehind()) {
    m_shallowPart = m_part;
    m_shallowBlock = m_block;
    m_shallowList = m_list;
  }
  if (m_shallowPart >= m_parts.size()) return;
  while (m_shallowList.skips.back().lastDoc < target) {
    if (++m_shallowPart >= m_parts.size()) {
      m_shallowList = PostingList{};
      m_shallowBlock = 0;
      return;
    }
    m_shallowList = m_index->postingList(m_parts[m_shallowPart]);
    m_shallowBlock = 0;
  }
  // The part's last block reaches target. Most calls stay in the current block or move to the
  // next one (a window or a pivot moving on in doc-id order): both checked before the binary
  // search over the rest.
  const auto skips = m_shallowList.skips;
  if (skips[m_shallowBlock].lastDoc >= target) return;
  if (skips[m_shallowBlock + 1].lastDoc >= target) {
    ++m_shallowBlock;
    return;
  }
  const auto* found = std::partition_point(skips.data() + m_shallowBlock + 2, skips.data() + skips.size(),
                                           [&](const format::SkipEntry& s) { return s.lastDoc < target; });
  m_shallowBlock = static_cast<std::uint32_t>(found - skips.data());
}

}  // namespace wandscope::engine
