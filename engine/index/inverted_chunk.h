// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/text/analyzer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// A run of consecutive documents, inverted in memory: the unit of parallel work of an index
// build. Terms are sorted by bytes; postings are in compressed-sparse-row form (term t's postings
// are docs/freqs[postingStart[t] .. postingStart[t + 1]), ascending doc ids).
struct InvertedChunk {
  DocId docBase = 0;
  std::vector<std::uint32_t> docLengths;
  std::vector<std::string> externalIds;
  std::uint64_t totalTokens = 0;

  std::string termBytes;                   // sorted terms, concatenated
  std::vector<std::uint32_t> termOffsets;  // terms + 1 offsets into termBytes
  std::vector<std::uint32_t> postingStart; // terms + 1
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;

  // Stored text: zlib chunks of up to format::kDocsPerStoreChunk documents, each prefixed by its
  // raw size (u32); storeOffsets has one entry per chunk boundary (first 0).
  std::vector<std::uint8_t> store;
  std::vector<std::uint64_t> storeOffsets{0};
  std::uint64_t storeRaw = 0;

  AnalyzerStats analyzerStats;

  std::uint32_t docCount() const noexcept { return static_cast<std::uint32_t>(docLengths.size()); }
  std::uint32_t termCount() const noexcept { return static_cast<std::uint32_t>(postingStart.size() - 1); }
  std::string_view term(std::uint32_t t) const noexcept {
    return std::string_view(termBytes).substr(termOffsets[t], termOffsets[t + 1] - termOffsets[t]);
  }
  std::uint64_t postingCount() const noexcept { return docs.size(); }
};

}  // namespace wandscope::engine
