// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/index/index.h"
#include "engine/query/search_request.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wandscope::engine {

// How much block-max pruning could skip on an index and query set, at any block size: an upper
// limit for every pruning path, measured rather than argued (docs/PERF.md, "What the bounds allow").
//
// For each query the documents an exhaustive path scores are considered (AND: those holding every
// term; OR: those holding any). A document's bound at granularity g is the sum, over the terms it
// holds, of the largest contribution among the run of g postings that holds its posting (runs of
// g consecutive postings from the start of each segment's list, so g = 128 is the index's own
// blocks), in f64 and widened as every pruning path widens its bounds (score_bounds.h). A document
// whose bound is below the query's final k-th score can be dismissed on bounds alone by a path that
// knew that score from the start. The others cannot: each needs something exact about it, at least
// one of its postings decoded and one contribution (hence its length normaliser) computed, as a
// MaxScore-style path does before it prunes on exact partial score plus bounds. Paths know the
// floor only as it rises, so they look at more: `reaching` is a lower limit on the documents any
// exact path evaluates, at least partly, when its bounds are block maxima of that granularity.
// Memory: the postings of one query's lists at a time (some 40 bytes each).
struct BoundStudyOptions {
  Operator op = Operator::Or;
  std::size_t k = 10;
  std::vector<std::uint32_t> granularities = {128, 64, 32, 16, 8};  // postings per bound, each >= 1
};

struct BoundStudyRow {
  std::uint32_t granularity = 0;
  std::uint64_t reaching = 0;        // considered documents whose bound reaches the k-th score
  double meanQueryShare = 0.0;       // mean over the queries of reaching / considered
};

struct BoundStudy {
  std::size_t queries = 0;           // queries read
  std::size_t withKth = 0;           // queries with k hits (the others have no floor and are left out)
  std::uint64_t considered = 0;      // documents considered, over the queries with k hits
  std::vector<BoundStudyRow> rows;   // in the order of BoundStudyOptions::granularities
};

// Throws Error(Usage) for k = 0, no granularity or a granularity of 0.
BoundStudy studyBounds(const Index& index, const std::vector<std::string>& queries, const BoundStudyOptions& options,
                       const ProgressFn& progress = {});

}  // namespace wandscope::engine
