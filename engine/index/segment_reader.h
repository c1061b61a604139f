// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/index/checked_file.h"
#include "engine/index/format.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_files.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace wandscope::engine {

struct StoredDocument {
  std::string title;
  std::string text;
};

// One opened segment: its files mapped, verified (magic, version, size, CRC-32) and structurally
// validated, so later reads cannot go out of bounds even if a file was damaged. Immutable and
// thread-safe after construction.
class SegmentReader {
 public:
  // `bounds` may be absent (std::nullopt path) while an index is being built.
  SegmentReader(const std::filesystem::path& dir, const SegmentInfo& info, std::uint32_t index,
                bool withBounds);

  std::uint32_t id() const noexcept { return m_id; }
  std::uint32_t index() const noexcept { return m_index; }
  DocId docBase() const noexcept { return m_docBase; }
  std::uint32_t docCount() const noexcept { return m_docCount; }
  std::uint64_t totalTokens() const noexcept { return m_totalTokens; }

  std::uint32_t termCount() const noexcept { return static_cast<std::uint32_t>(m_entries.size()); }
  std::string_view term(std::uint32_t t) const noexcept;
  const format::TermEntry& entry(std::uint32_t t) const noexcept { return m_entries[t]; }
  // Binary search; nullopt if the segment does not contain the term.
  std::optional<std::uint32_t> find(std::string_view term) const noexcept;

  // The term's postings (with block maxima when the bounds file is loaded).
  PostingList postingList(std::uint32_t t) const noexcept;

  std::uint32_t docLength(DocId doc) const noexcept { return m_lengths[doc - m_docBase]; }
  std::span<const std::uint32_t> docLengths() const noexcept { return m_lengths; }
  std::string_view externalId(DocId doc) const noexcept;
  bool hasStoredText() const noexcept { return !m_chunkOffsets.empty(); }
  // Decompresses the document's chunk; throws Error(Index) if it is damaged.
  StoredDocument storedDocument(DocId doc) const;

  // Bounds stamp: the statistics the block maxima were computed for.
  bool hasBounds() const noexcept { return m_bounds.has_value(); }
  const format::BoundsHeader* boundsHeader() const noexcept { return m_boundsHeader; }
  const std::string& boundsFileName() const noexcept { return m_boundsName; }
  // Loads (or replaces) the bounds file `name` (verified against `expected` when given).
  void loadBounds(const std::filesystem::path& dir, const SegmentFileInfo& file);

  std::uint64_t fileBytes(format::FileKind kind) const noexcept;

 private:
  void validateTerms();
  void validatePostings();
  // Opens the file of `kind` that the manifest names (checking its size and CRC against it).
  CheckedFile openFile(const std::filesystem::path& dir, const SegmentInfo& info, format::FileKind kind) const;
  std::string m_boundsName;

  std::uint32_t m_id;
  std::uint32_t m_index;
  DocId m_docBase = 0;
  std::uint32_t m_docCount = 0;
  std::uint64_t m_totalTokens = 0;
  CheckedFile m_terms;
  CheckedFile m_postings;
  CheckedFile m_docs;
  CheckedFile m_store;
  std::optional<CheckedFile> m_bounds;
  std::span<const format::TermEntry> m_entries;
  std::string_view m_pool;
  std::span<const std::uint32_t> m_lengths;
  std::span<const std::uint64_t> m_idOffsets;
  std::string_view m_idBytes;
  std::span<const std::uint64_t> m_chunkOffsets;
  std::span<const std::byte> m_chunks;
  const format::BoundsHeader* m_boundsHeader = nullptr;
  std::span<const float> m_listMax;
  std::span<const float> m_blockMax;
  std::span<const float> m_rankWeights;  // [term][kRankWeightCount], empty when the file has none
};

}  // namespace wandscope::engine
