// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/document.h"
#include "engine/query/search_request.h"
#include "engine/query/top_k_collector.h"
#include "engine/score/bm25.h"
#include "engine/text/analyzer.h"

#include <map>
#include <string>
#include <vector>

namespace wandscope::test {

// The test oracle: BM25 top-k recomputed from the raw documents with no index involved. It
// re-derives every statistic (N, total tokens, df, tf, document lengths) by counting the analyzed
// tokens, scores every document in query-term order with the docs/SCORING.md formula, and sorts
// all candidates by (score desc, doc asc). Only the Bm25 formula class is shared with the engine
// (it has its own hand-computed tests).
class BruteForce {
 public:
  BruteForce(const std::vector<engine::Document>& docs, engine::AnalyzerKind analyzer,
             engine::Bm25Params params);

  std::vector<engine::Hit> search(const std::string& query, engine::Operator op, std::size_t k) const;
  // All matching documents' scores (no cut).
  std::vector<engine::Hit> all(const std::string& query, engine::Operator op) const;

  const engine::Bm25& bm25() const { return m_bm25; }
  std::uint64_t df(const std::string& term) const;

 private:
  engine::AnalyzerKind m_kind;
  std::vector<std::map<std::string, std::uint32_t>> m_tf;  // per doc
  std::vector<std::uint32_t> m_length;
  std::map<std::string, std::uint64_t> m_df;
  engine::Bm25 m_bm25;
};

}  // namespace wandscope::test
