// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/parsed_query.h"

#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/query/search_request.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace wandscope::engine {

bool ParsedQuery::hasUnknownTerm() const noexcept {
  return std::any_of(terms.begin(), terms.end(), [](const QueryTerm& t) { return !t.id; });
}

std::string describeAnalysis(const ParsedQuery& query) {
  std::string out = counted(query.terms.size(), "distinct term", "distinct terms") + " of " +
                    counted(query.tokens, "token", "tokens");
  const AnalyzerStats& a = query.analysis;
  std::string dropped;
  auto add = [&dropped](const std::string& part) { dropped += (dropped.empty() ? "" : ", ") + part; };
  if (a.stopWords > 0) add(counted(a.stopWords, "stop word", "stop words"));
  if (a.overlongTokens > 0) {
    add(counted(a.overlongTokens, "token", "tokens") + fmt::format(" over {} bytes", Analyzer::kMaxTokenBytes));
  }
  if (a.invalidBytes > 0) add(counted(a.invalidBytes, "byte", "bytes") + " not UTF-8 (read as separators)");
  return dropped.empty() ? out : out + "; dropped " + dropped;
}

std::size_t ParsedQuery::knownTerms() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(terms.begin(), terms.end(), [](const QueryTerm& t) { return t.id.has_value(); }));
}

ParsedQuery parseQuery(const Index& index, std::string_view text, Analyzer& analyzer) {
  ParsedQuery query;
  std::vector<std::string> tokens;
  analyzer.analyze(text, tokens, &query.analysis);
  query.tokens = tokens.size();
  for (auto& token : tokens) {
    const bool seen = std::any_of(query.terms.begin(), query.terms.end(),
                                  [&](const QueryTerm& t) { return t.text == token; });
    if (seen) continue;
    if (query.terms.size() == kMaxQueryTerms) {
      throwUsage(fmt::format("the query has more than {} distinct terms (analyzed term {} is '{}'; repeats count once)",
                             kMaxQueryTerms, kMaxQueryTerms + 1, token));
    }
    QueryTerm term;
    term.text = std::move(token);
    term.id = index.findTerm(term.text);
    if (term.id) {
      const TermInfo& info = index.term(*term.id);
      term.df = info.df;
      term.idf = index.idf(*term.id);
      term.maxScore = term.idf * info.maxWeight;
      term.blocks = info.blocks;
    }
    query.terms.push_back(std::move(term));
  }
  return query;
}

}  // namespace wandscope::engine
