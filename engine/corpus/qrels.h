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
// ("qid 0 docid rel", whitespace separated), told apart by the first line. Plain or .gz.
// A repeated (query, doc) pair keeps the last grade. Errors name file, line and field.
Qrels readQrels(const std::filesystem::path& path, BadLinePolicy policy = BadLinePolicy::Stop,
                std::uint64_t* skippedLines = nullptr);

}  // namespace wandscope::engine
