// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/index/index.h"
#include "engine/text/analyzer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// One distinct query term, in query order, with the index's statistics for it.
struct QueryTerm {
  std::string text;            // the analyzed token
  std::optional<TermId> id;    // absent when the index does not contain the term
  std::uint64_t df = 0;
  float idf = 0.0f;
  Score maxScore = 0.0f;       // idf * the list's max W
  std::uint64_t blocks = 0;
};

// A query after analysis: repeated tokens count once (first occurrence keeps its place), so the
// document score is the sum over these terms in this order.
struct ParsedQuery {
  std::vector<QueryTerm> terms;
  std::size_t tokens = 0;  // analyzed tokens before removing repeats
  AnalyzerStats analysis;  // what the analyzer dropped on the way (stop words, over-long tokens, bad bytes)

  bool hasUnknownTerm() const noexcept;
  std::size_t knownTerms() const noexcept;
};

// The query's analysis in words, for explain: "2 distinct terms of 3 tokens; dropped 1 stop word,
// 1 token over 64 bytes" (what was dropped only when something was).
std::string describeAnalysis(const ParsedQuery& query);

// Analyzes `text` with the index's analyzer and looks the terms up. Throws Error(Usage) when the
// query has more than kMaxQueryTerms distinct terms.
ParsedQuery parseQuery(const Index& index, std::string_view text, Analyzer& analyzer);

}  // namespace wandscope::engine
