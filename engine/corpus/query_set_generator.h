// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/corpus_reader.h"
#include "engine/corpus/document.h"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// The first seed's query categories.
enum class QueryCategory {
  MidDf,       // every token has document frequency in [1 %, 6 %] of the documents
  Rare,        // every token has df in [0.02 %, 0.3 %]
  RareCommon,  // at least one rare token (as above) and one common token (df > 6 %); needs >= 2 tokens
  Sequential,  // consecutive tokens of a real document (any frequency)
};

QueryCategory parseQueryCategory(std::string_view name);  // "mid-df" | "rare" | "rare+common" | "sequential"
const char* queryCategoryName(QueryCategory category) noexcept;

struct QuerySetParams {
  QueryCategory category = QueryCategory::MidDf;
  std::uint32_t tokens = 2;   // 1..5
  std::uint32_t count = 100;
  std::uint64_t seed = 7;
};

// Draws a query set from a corpus: one pass over the corpus with the plain analyzer to count
// document frequencies over title and text (and, for Sequential, to reservoir-sample 4 * count
// documents), then seeded sampling (std::mt19937_64 from `seed`; same corpus + params -> same set).
// Tokens within a query are distinct; a query repeats an earlier one only when every possible
// combination has been used. Query ids are "<category>-<tokens>-<n>" (n from 1). Throws
// Error(Usage) for tokens outside 1..5, rare+common with fewer than 2 tokens or count 0, and
// Error(BadInput) when the corpus has too few eligible tokens for the category (the message names
// the category, the df range and how many terms qualified). docs/GENERATOR.md has the details.
std::vector<QueryRecord> generateQuerySet(const std::filesystem::path& corpus, CorpusFormat format,
                                          const QuerySetParams& params, const ProgressFn& progress = {});

// Writes queries as BEIR JSON lines ({"_id","text"}) atomically.
void writeQueriesJsonl(const std::vector<QueryRecord>& queries, const std::filesystem::path& out);

}  // namespace wandscope::engine
