// SPDX-License-Identifier: GPL-3.0-or-later
// The analyzer and the query parser: text is untrusted (documents and queries alike).
#include "engine/core/error.h"
#include "engine/query/parsed_query.h"
#include "engine/query/searcher.h"
#include "engine/text/analyzer.h"
#include "engine/text/utf8.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/fuzz_targets.h"

#include <cstdlib>
#include <set>

namespace wandscope::test {

int fuzzAnalyzer(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto kind : {engine::AnalyzerKind::Plain, engine::AnalyzerKind::English}) {
    engine::Analyzer analyzer(kind);
    std::vector<std::string> tokens;
    engine::AnalyzerStats stats;
    analyzer.analyze(text, tokens, &stats);
    if (stats.tokens != tokens.size()) std::abort();
    for (const auto& t : tokens) {
      // Tokens are non-empty, bounded and valid UTF-8 (they become index terms and JSON strings).
      if (t.empty() || t.size() > engine::Analyzer::kMaxTokenBytes) std::abort();
      if (!engine::isValidUtf8(t)) std::abort();
    }
    // Analysis is a function of the text: again, same tokens.
    std::vector<std::string> again;
    analyzer.analyze(text, again);
    if (again != tokens) std::abort();
  }
  return 0;
}

int fuzzQueryParser(const std::uint8_t* data, std::size_t size) {
  static const auto index = engine::Index::open(fuzzTemplateIndex().dir);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  engine::Analyzer analyzer(index->analyzerKind());
  try {
    const auto parsed = engine::parseQuery(*index, text, analyzer);
    std::set<std::string> distinct;
    for (const auto& t : parsed.terms) {
      if (!distinct.insert(t.text).second) std::abort();  // repeats count once
      if (t.id && (index->term(*t.id).text != t.text || t.df == 0)) std::abort();
    }
    if (parsed.tokens < parsed.terms.size()) std::abort();
    queryEveryPath(*index, text, /*checkParity=*/true);
  } catch (const engine::Error& e) {
    if (e.kind() != engine::ErrorKind::Usage) std::abort();  // too many terms is the only refusal
  }
  return 0;
}

}  // namespace wandscope::test
