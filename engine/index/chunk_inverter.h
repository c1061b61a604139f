// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/document.h"
#include "engine/index/inverted_chunk.h"
#include "engine/index/term_table.h"
#include "engine/text/analyzer.h"

#include <memory>
#include <vector>

namespace wandscope::engine {

// Inverts chunks of documents. One per build thread (it owns an analyzer and reusable buffers);
// not thread-safe. Titles and texts are indexed together (title first).
class ChunkInverter {
 public:
  ChunkInverter(AnalyzerKind analyzer, bool storeText);

  std::unique_ptr<InvertedChunk> invert(const std::vector<Document>& docs, DocId docBase);

 private:
  struct Posting {
    std::uint32_t term;
    DocId doc;
    std::uint32_t tf;
  };
  void storeDocuments(const std::vector<Document>& docs, InvertedChunk& chunk);

  Analyzer m_analyzer;
  bool m_storeText;
  TermTable m_table;
  std::vector<std::string> m_tokens;
  std::vector<std::uint32_t> m_hashes;
  std::vector<Posting> m_postings;
  std::vector<std::uint32_t> m_lastDoc;  // per term: 1 + the last doc (in this chunk) it was seen in
  std::vector<std::uint32_t> m_slot;     // per term: index of that document's posting
  std::string m_raw;
};

}  // namespace wandscope::engine
