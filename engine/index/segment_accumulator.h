// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wandscope::engine {

// Inverts one segment's documents in memory: the first phase of an index build. Documents must be
// added in doc-id order; the segment covers [docBase, docBase + docCount()).
class SegmentAccumulator {
 public:
  struct TermPostings {
    std::vector<DocId> docs;            // global doc ids, ascending
    std::vector<std::uint32_t> freqs;   // tf >= 1, parallel to docs
    std::uint64_t cf = 0;
  };

  SegmentAccumulator(std::uint32_t segmentId, DocId docBase, bool storeText);

  // Adds the next document: its analyzed terms (text order, duplicates kept) and what is stored.
  void addDocument(const std::vector<std::string>& terms, std::string_view externalId,
                   std::string_view title, std::string_view text);
  // Compresses the last partial store chunk; call once, after the last document.
  void finish();

  std::uint32_t segmentId() const noexcept { return m_segmentId; }
  DocId docBase() const noexcept { return m_docBase; }
  std::uint32_t docCount() const noexcept { return static_cast<std::uint32_t>(m_docLengths.size()); }
  std::uint64_t totalTokens() const noexcept { return m_totalTokens; }
  std::uint64_t postingCount() const noexcept { return m_postings; }
  const std::vector<std::uint32_t>& docLengths() const noexcept { return m_docLengths; }
  const std::vector<std::string>& externalIds() const noexcept { return m_externalIds; }

  // Terms in byte order with their postings (stable until the accumulator changes).
  std::vector<std::pair<std::string_view, const TermPostings*>> sortedTerms() const;

  // Stored text: zlib chunks of kDocsPerStoreChunk documents, each prefixed by its raw size (u32).
  bool storeText() const noexcept { return m_storeText; }
  const std::vector<std::uint8_t>& storeChunks() const noexcept { return m_store; }
  const std::vector<std::uint64_t>& storeChunkOffsets() const noexcept { return m_storeOffsets; }
  std::uint64_t storeRawBytes() const noexcept { return m_storeRaw; }

  // Approximate heap bytes held, for memory-bounded segment cutting.
  std::uint64_t memoryBytes() const noexcept;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  void flushStoreChunk();

  std::uint32_t m_segmentId;
  DocId m_docBase;
  bool m_storeText;
  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> m_termIds;
  std::vector<TermPostings> m_terms;
  std::vector<std::uint32_t> m_docLengths;
  std::vector<std::string> m_externalIds;
  std::uint64_t m_totalTokens = 0;
  std::uint64_t m_postings = 0;
  std::uint64_t m_termBytes = 0;
  std::vector<std::uint32_t> m_scratch;

  std::vector<std::uint8_t> m_store;
  std::vector<std::uint64_t> m_storeOffsets{0};
  std::string m_pendingChunk;
  std::uint32_t m_pendingDocs = 0;
  std::uint64_t m_storeRaw = 0;
};

}  // namespace wandscope::engine
