// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/query/parsed_query.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace wandscope::engine {

class Index;

// A floor for an OR query's top k known before any document is scored (docs/ALGORITHMS.md, "Rank
// floor"). The bounds file stores, per term and segment, the r-th largest BM25 weight of the list
// for r in kRankWeightRanks (format.h). With r >= k, r documents score at least idf * w on that
// term alone, and an OR score is an f32 sum of non-negative contributions, so at least idf * w:
// the k-th score of the answer is at least the largest such value over the query's terms. A
// document scoring strictly below it cannot enter the top k.
struct RankFloor {
  Score score = 0.0f;     // the largest idf * w (a score the k-th hit reaches)
  std::size_t term = 0;   // query-order index of the term it comes from
  std::uint32_t rank = 0; // the r used (the smallest stored rank >= k)
};

// nullopt when no term's list is long enough (or the index's bounds files hold no rank weights).
// Not for an AND of two or more terms: a document of one term's top r need not hold the others (an
// AND of one term is the OR of it, and takes it).
std::optional<RankFloor> rankFloor(const Index& index, const ParsedQuery& query, std::size_t k);

}  // namespace wandscope::engine
