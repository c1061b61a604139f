// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/index/manifest.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_reader.h"
#include "engine/index/term_table.h"
#include "engine/score/bm25.h"
#include "engine/text/analyzer.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// A term of the index's global lexicon: collection-wide statistics and where its postings live.
struct TermInfo {
  std::string_view text;
  std::uint64_t df = 0;
  std::uint64_t cf = 0;
  float maxWeight = 0.0f;      // max W over the whole list (all segments)
  std::uint32_t firstPart = 0; // into Index::parts()
  std::uint32_t partCount = 0; // segments containing the term, in doc order
  std::uint64_t blocks = 0;
};

// One segment's share of a term's postings.
struct TermPart {
  std::uint32_t segment = 0;  // index into Index::segments()
  std::uint32_t entry = 0;    // term entry in that segment
};

// Size and shape of an index, for `index stats` and the workbench.
struct IndexStatistics {
  std::uint64_t docs = 0;
  std::uint64_t terms = 0;
  std::uint64_t postings = 0;
  std::uint64_t totalTokens = 0;
  std::uint64_t blocks = 0;
  std::uint32_t segments = 0;
  float avgdl = 0.0f;
  std::uint64_t termsBytes = 0;
  std::uint64_t postingsBytes = 0;
  std::uint64_t boundsBytes = 0;
  std::uint64_t docsBytes = 0;
  std::uint64_t storeBytes = 0;
  std::uint64_t totalBytes() const noexcept {
    return termsBytes + postingsBytes + boundsBytes + docsBytes + storeBytes;
  }
  // Posting lists (skip tables and blocks) in bits per posting.
  double postingBitsPerPosting() const noexcept {
    return postings == 0 ? 0.0 : 8.0 * static_cast<double>(postingsBytes) / static_cast<double>(postings);
  }
  // Everything a query reads (terms, postings, bounds, doc lengths and ids) per posting.
  double searchBitsPerPosting() const noexcept {
    return postings == 0 ? 0.0
                         : 8.0 * static_cast<double>(termsBytes + postingsBytes + boundsBytes + docsBytes) /
                               static_cast<double>(postings);
  }
};

// An opened index generation: immutable and safe to share between threads (hold it through
// std::shared_ptr<const Index>; a later commit produces a new Index, readers keep theirs).
class Index {
 public:
  // Opens the generation CURRENT names, verifying every file (see docs/FORMAT.md). Throws
  // Error(Index) naming the damaged or missing file.
  static std::shared_ptr<const Index> open(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const noexcept { return m_dir; }
  const Manifest& manifest() const noexcept { return m_manifest; }
  const Bm25& bm25() const noexcept { return m_bm25; }
  AnalyzerKind analyzerKind() const noexcept { return m_analyzerKind; }
  std::uint64_t docCount() const noexcept { return m_manifest.docs; }
  std::uint32_t termCount() const noexcept { return static_cast<std::uint32_t>(m_terms.size()); }

  std::optional<TermId> findTerm(std::string_view text) const;
  const TermInfo& term(TermId id) const noexcept { return m_terms[id]; }
  float idf(TermId id) const noexcept { return m_bm25.idf(m_terms[id].df); }
  std::span<const TermPart> parts(TermId id) const noexcept {
    return std::span<const TermPart>(m_parts).subspan(m_terms[id].firstPart, m_terms[id].partCount);
  }
  PostingList postingList(const TermPart& part) const noexcept {
    return m_segments[part.segment]->postingList(part.entry);
  }

  const std::vector<std::unique_ptr<SegmentReader>>& segments() const noexcept { return m_segments; }
  const SegmentReader& segmentOf(DocId doc) const noexcept;
  std::uint32_t docLength(DocId doc) const noexcept { return segmentOf(doc).docLength(doc); }
  // K(dl) of every document, indexed by doc id (precomputed at open with this index's BM25).
  const float* lengthNorms() const noexcept { return m_norms.data(); }
  std::string_view externalId(DocId doc) const noexcept { return segmentOf(doc).externalId(doc); }
  StoredDocument storedDocument(DocId doc) const { return segmentOf(doc).storedDocument(doc); }

  IndexStatistics statistics() const;

 private:
  Index() = default;

  std::filesystem::path m_dir;
  Manifest m_manifest;
  Bm25 m_bm25;
  AnalyzerKind m_analyzerKind = AnalyzerKind::Plain;
  std::vector<std::unique_ptr<SegmentReader>> m_segments;
  std::vector<DocId> m_segmentBases;
  std::vector<TermInfo> m_terms;
  std::vector<TermPart> m_parts;
  TermTable m_lookup;  // text -> TermId (ids in m_terms order)
  std::vector<float> m_norms;
};

}  // namespace wandscope::engine
