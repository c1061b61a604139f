// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/corpus_profile.h"
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

// Throws Error(Usage) for tokens outside 1..5, rare+common with fewer than 2 tokens or count 0
// (what both generateQuerySet overloads check first; callers check a list before a long scan).
void validateQuerySetParams(const QuerySetParams& params);

// The scan options a profile needs to serve `sets`: a reservoir of min(4 x the sum of the
// sequential sets' counts, 16,384) documents among those with at least the smallest sequential
// token count, seeded with the first set's seed; no reservoir when no set is sequential. For a
// single set these are exactly the options generateQuerySet(corpus, ...) scans with.
CorpusProfile::ScanOptions scanOptionsFor(const std::vector<QuerySetParams>& sets);

// Draws a query set from a scanned corpus profile without touching the corpus; several sets can be
// drawn from one profile (and from several threads at once). Seeded sampling: std::mt19937_64
// from `params.seed`, so the same profile + params give the same set. mid-df, rare and rare+common
// draw from df pools (sorted term lists) and do not depend on the profile's reservoir, so they
// equal the sets drawn from separate scans. Sequential queries come from the profile's reservoir
// sample; their generator is the seed's stream continued past profile.samplerDraws() outputs.
// Tokens within a query are distinct; a query repeats an earlier one only when every possible
// combination has been used. Query ids are "<category>-<tokens>-<n>" (n from 1). Throws
// Error(Usage) for bad params (validateQuerySetParams) and for a sequential set from a profile
// without a reservoir, and Error(BadInput) when the corpus has too few eligible tokens for the
// category (the message names the category, the df range and how many terms qualified).
// docs/GENERATOR.md has the details.
std::vector<QueryRecord> generateQuerySet(const CorpusProfile& profile, const QuerySetParams& params);

// Scans the corpus for this one set (scanOptionsFor({params})) and draws it: the same set as the
// versions before CorpusProfile. Prefer one profile when drawing several sets from one corpus.
std::vector<QueryRecord> generateQuerySet(const std::filesystem::path& corpus, CorpusFormat format,
                                          const QuerySetParams& params, const ProgressFn& progress = {});

// Writes queries as BEIR JSON lines ({"_id","text"}) atomically.
void writeQueriesJsonl(const std::vector<QueryRecord>& queries, const std::filesystem::path& out);

}  // namespace wandscope::engine
