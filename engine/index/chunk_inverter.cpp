// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/chunk_inverter.h"

#include "engine/codec/varint.h"
#include "engine/core/error.h"
#include "engine/index/format.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

namespace wandscope::engine {

ChunkInverter::ChunkInverter(AnalyzerKind analyzer, bool storeText)
    : m_analyzer(analyzer), m_storeText(storeText) {}

std::unique_ptr<InvertedChunk> ChunkInverter::invert(const std::vector<Document>& docs, DocId docBase) {
  auto chunk = std::make_unique<InvertedChunk>();
  chunk->docBase = docBase;
  chunk->docLengths.reserve(docs.size());
  chunk->externalIds.reserve(docs.size());
  m_table.clear();
  m_postings.clear();
  m_lastDoc.clear();
  m_slot.clear();

  // One posting per (term, document); repeated tokens only bump its tf (no per-document sort).
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    const Document& doc = docs[d];
    m_tokens.clear();
    m_analyzer.analyze(doc.title, m_tokens, &chunk->analyzerStats);
    m_analyzer.analyze(doc.text, m_tokens, &chunk->analyzerStats);
    if (m_tokens.size() > std::numeric_limits<std::uint32_t>::max()) {
      throwBadInput("document " + doc.id + " has more than 2^32 terms");
    }
    m_hashes.resize(m_tokens.size());
    for (std::size_t i = 0; i < m_tokens.size(); ++i) m_hashes[i] = TermTable::hashOf(m_tokens[i]);
    constexpr std::size_t kAhead = 8;
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
      if (i + kAhead < m_tokens.size()) m_table.prefetch(m_hashes[i + kAhead]);
      const std::uint32_t id = m_table.intern(m_tokens[i], m_hashes[i]);
      if (id >= m_lastDoc.size()) {
        m_lastDoc.resize(id + 1, 0);
        m_slot.resize(id + 1, 0);
      }
      if (m_lastDoc[id] != d + 1) {
        m_lastDoc[id] = d + 1;
        m_slot[id] = static_cast<std::uint32_t>(m_postings.size());
        m_postings.push_back({id, docBase + d, 1});
      } else {
        ++m_postings[m_slot[id]].tf;
      }
    }
    chunk->docLengths.push_back(static_cast<std::uint32_t>(m_tokens.size()));
    chunk->totalTokens += m_tokens.size();
    chunk->externalIds.push_back(doc.id);
  }

  // Terms in byte order, then a counting sort of the postings by term (stable: doc order kept).
  const auto terms = static_cast<std::uint32_t>(m_table.size());
  std::vector<std::uint32_t> order(terms);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return m_table.term(a) < m_table.term(b); });
  std::vector<std::uint32_t> rank(terms);
  for (std::uint32_t r = 0; r < terms; ++r) rank[order[r]] = r;
  chunk->termOffsets.resize(terms + 1);
  std::size_t termBytes = 0;
  for (std::uint32_t r = 0; r < terms; ++r) termBytes += m_table.term(order[r]).size();
  chunk->termBytes.reserve(termBytes);
  for (std::uint32_t r = 0; r < terms; ++r) {
    chunk->termOffsets[r] = static_cast<std::uint32_t>(chunk->termBytes.size());
    chunk->termBytes.append(m_table.term(order[r]));
  }
  chunk->termOffsets[terms] = static_cast<std::uint32_t>(chunk->termBytes.size());
  chunk->postingStart.assign(terms + 1, 0);
  for (const Posting& p : m_postings) ++chunk->postingStart[rank[p.term] + 1];
  for (std::uint32_t r = 0; r < terms; ++r) chunk->postingStart[r + 1] += chunk->postingStart[r];
  std::vector<std::uint32_t> fill(chunk->postingStart.begin(), chunk->postingStart.end() - 1);
  chunk->docs.resize(m_postings.size());
  chunk->freqs.resize(m_postings.size());
  for (const Posting& p : m_postings) {
    const std::uint32_t at = fill[rank[p.term]]++;
    chunk->docs[at] = p.doc;
    chunk->freqs[at] = p.tf;
  }
  if (m_storeText) storeDocuments(docs, *chunk);
  return chunk;
}

void ChunkInverter::storeDocuments(const std::vector<Document>& docs, InvertedChunk& chunk) {
  std::vector<std::uint8_t> lengths;
  for (std::size_t begin = 0; begin < docs.size(); begin += format::kDocsPerStoreChunk) {
    const std::size_t end = std::min(docs.size(), begin + format::kDocsPerStoreChunk);
    m_raw.clear();
    for (std::size_t d = begin; d < end; ++d) {
      for (const std::string* field : {&docs[d].title, &docs[d].text}) {
        if (field->size() > std::numeric_limits<std::uint32_t>::max()) {
          throwBadInput("document " + docs[d].id + " has a field over 4 GiB");
        }
        lengths.clear();
        codec::appendVarint(lengths, static_cast<std::uint32_t>(field->size()));
        m_raw.append(reinterpret_cast<const char*>(lengths.data()), lengths.size());
        m_raw.append(*field);
      }
      chunk.storeRaw += docs[d].title.size() + docs[d].text.size();
    }
    if (m_raw.size() > std::numeric_limits<std::uint32_t>::max()) {
      throwBadInput("stored text of documents " + docs[begin].id + ".." + docs[end - 1].id + " is over 4 GiB");
    }
    const auto raw = static_cast<std::uint32_t>(m_raw.size());
    uLongf bound = ::compressBound(raw);
    const std::size_t start = chunk.store.size();
    chunk.store.resize(start + sizeof(raw) + bound);
    std::memcpy(chunk.store.data() + start, &raw, sizeof(raw));
    // Level 1: stored text only serves snippets, so build speed matters more than a few percent.
    const int rc = ::compress2(chunk.store.data() + start + sizeof(raw), &bound,
                               reinterpret_cast<const Bytef*>(m_raw.data()), raw, 1);
    if (rc != Z_OK) throwInternal("zlib compress2 failed with code " + std::to_string(rc));
    chunk.store.resize(start + sizeof(raw) + bound);
    chunk.storeOffsets.push_back(chunk.store.size());
  }
}

}  // namespace wandscope::engine
