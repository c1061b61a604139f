// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/corpus_reader.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace wandscope::engine {

// Relevance judgements: query id -> (document id -> grade). Grade > 0 is relevant, 0 is judged
// non-relevant (kept: it matters to nothing here but is part of the file).
struct Qrels {
  std::map<std::string, std::map<std::string, int>> judgements;
};

// Reads BEIR TSV (header "query-id<TAB>corpus-id<TAB>score", tab separated) or TREC qrels
// ("qid 0 docid rel", whitespace separated, exactly 4 fields), told apart by the first non-empty
// line: "query-id..." is the BEIR header; a first line of exactly 3 tab-separated fields is BEIR
// without a header; anything else is TREC. Plain or .gz. Grades are integers (negative allowed).
// A repeated (query, doc) pair keeps the last grade. Errors name file, line and field:
// "qrels.tsv:4: score 'x' is not an integer".
Qrels readQrels(const std::filesystem::path& path, BadLinePolicy policy = BadLinePolicy::Stop,
                std::uint64_t* skippedLines = nullptr);

}  // namespace wandscope::engine
