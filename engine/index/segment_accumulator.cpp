// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/segment_accumulator.h"

#include "engine/codec/varint.h"
#include "engine/core/error.h"
#include "engine/index/format.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace wandscope::engine {

SegmentAccumulator::SegmentAccumulator(std::uint32_t segmentId, DocId docBase, bool storeText)
    : m_segmentId(segmentId), m_docBase(docBase), m_storeText(storeText) {}

void SegmentAccumulator::addDocument(const std::vector<std::string>& terms,
                                     std::string_view externalId, std::string_view title,
                                     std::string_view text) {
  if (terms.size() > std::numeric_limits<std::uint32_t>::max()) {
    throwBadInput("document " + std::string(externalId) + " has more than 2^32 terms");
  }
  const DocId doc = m_docBase + docCount();
  m_docLengths.push_back(static_cast<std::uint32_t>(terms.size()));
  m_totalTokens += terms.size();
  m_externalIds.emplace_back(externalId);

  // Map every token to its term id, then count runs of equal ids: tf per distinct term.
  m_scratch.clear();
  for (const std::string& term : terms) {
    auto it = m_termIds.find(std::string_view(term));
    if (it == m_termIds.end()) {
      it = m_termIds.emplace(term, static_cast<std::uint32_t>(m_terms.size())).first;
      m_terms.emplace_back();
      m_termBytes += term.size();
    }
    m_scratch.push_back(it->second);
  }
  std::sort(m_scratch.begin(), m_scratch.end());
  for (std::size_t i = 0; i < m_scratch.size();) {
    std::size_t j = i + 1;
    while (j < m_scratch.size() && m_scratch[j] == m_scratch[i]) ++j;
    TermPostings& postings = m_terms[m_scratch[i]];
    postings.docs.push_back(doc);
    postings.freqs.push_back(static_cast<std::uint32_t>(j - i));
    postings.cf += j - i;
    ++m_postings;
    i = j;
  }

  if (m_storeText) {
    std::vector<std::uint8_t> lengths;
    codec::appendVarint(lengths, static_cast<std::uint32_t>(title.size()));
    m_pendingChunk.append(reinterpret_cast<const char*>(lengths.data()), lengths.size());
    m_pendingChunk.append(title);
    lengths.clear();
    codec::appendVarint(lengths, static_cast<std::uint32_t>(text.size()));
    m_pendingChunk.append(reinterpret_cast<const char*>(lengths.data()), lengths.size());
    m_pendingChunk.append(text);
    m_storeRaw += title.size() + text.size();
    if (++m_pendingDocs == format::kDocsPerStoreChunk) flushStoreChunk();
  }
}

void SegmentAccumulator::flushStoreChunk() {
  if (m_pendingDocs == 0) return;
  if (m_pendingChunk.size() > std::numeric_limits<std::uint32_t>::max()) {
    throwBadInput("stored text chunk over 4 GiB in segment " + std::to_string(m_segmentId));
  }
  const auto raw = static_cast<std::uint32_t>(m_pendingChunk.size());
  uLongf bound = ::compressBound(raw);
  const std::size_t start = m_store.size();
  m_store.resize(start + sizeof(raw) + bound);
  std::memcpy(m_store.data() + start, &raw, sizeof(raw));
  // Level 1: stored text is for snippets, so build speed matters more than the last few percent.
  const int rc = ::compress2(m_store.data() + start + sizeof(raw), &bound,
                             reinterpret_cast<const Bytef*>(m_pendingChunk.data()), raw, 1);
  if (rc != Z_OK) throwInternal("zlib compress2 failed with code " + std::to_string(rc));
  m_store.resize(start + sizeof(raw) + bound);
  m_storeOffsets.push_back(m_store.size());
  m_pendingChunk.clear();
  m_pendingDocs = 0;
}

void SegmentAccumulator::finish() {
  if (m_storeText) flushStoreChunk();
}

std::vector<std::pair<std::string_view, const SegmentAccumulator::TermPostings*>>
SegmentAccumulator::sortedTerms() const {
  std::vector<std::pair<std::string_view, const TermPostings*>> out;
  out.reserve(m_termIds.size());
  for (const auto& [term, id] : m_termIds) out.emplace_back(term, &m_terms[id]);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::uint64_t SegmentAccumulator::memoryBytes() const noexcept {
  std::uint64_t bytes = m_postings * 2 * sizeof(std::uint32_t);
  bytes += m_terms.size() * (sizeof(TermPostings) + 64) + m_termBytes;
  bytes += m_docLengths.size() * (sizeof(std::uint32_t) + sizeof(std::string) + 16);
  bytes += m_store.size() + m_pendingChunk.size();
  return bytes;
}

}  // namespace wandscope::engine
