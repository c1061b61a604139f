// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

// How one query's two answers differ (each in rank order).
struct QueryDiff {
  bool rowSetDiffers = false;    // the sets of doc ids differ
  bool scoreBitsDiffer = false;  // a doc both returned has different f32 bits
  bool orderDiffers = false;     // same set and bits, another order (ties broken differently)
  std::optional<std::uint32_t> firstDivergingRank;  // 1-based rank of the first (doc, bits) mismatch
  bool any() const noexcept { return rowSetDiffers || scoreBitsDiffer || orderDiffers; }
};

// Compares two ranked answers exactly: doc ids and score bits, no tolerance (two builds that
// claim identical results must agree to the bit).
QueryDiff diffHits(const std::vector<TargetHit>& a, const std::vector<TargetHit>& b);

// Accumulates QueryDiffs over a query set into a ResultDiff. `ok` is false when either side failed.
void addQueryDiff(ResultDiff& total, const std::string& queryId, bool ok, const QueryDiff& diff);

// Both targets' answers to every query of `set` (a workload restricted to one set) compared
// query by query; `ids` are that set's query ids. Untimed: the compare paths run it first.
ResultDiff diffQuerySet(Target& a, Target& b, const Workload& set, const std::vector<std::string>& ids);

}  // namespace wandscope::engine
