// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/query/parsed_query.h"
#include "engine/query/query_counters.h"
#include "engine/query/search_request.h"
#include "engine/query/top_k_collector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

// Why a returned document scored what it did: per query term (query order) its tf in the
// document and its contribution idf * W(tf, dl); 0 / absent for terms the document lacks.
struct HitExplain {
  DocId doc = 0;
  std::uint32_t docLength = 0;
  std::vector<std::uint32_t> tf;
  std::vector<Score> contribution;
  Score score = 0.0f;  // the contributions re-added in query order: equals the hit's score
};

struct SearchResult {
  std::vector<Hit> hits;          // rank order
  ParsedQuery query;
  Algorithm algorithm = Algorithm::Exhaustive;  // the path actually taken
  std::string reason;             // why that path ("forced by --algo", "auto: 3 clauses, ...")
  QueryCounters counters;
  Score kthScore = 0.0f;          // NaN when fewer than k hits
  bool tieAtK = false;
  // The bulk AND's intersection kernels ("avx3_vp2", "avx3", "avx2", "sse4", "scalar"; "generic" with
  // simd_merge=off); empty for paths that do not intersect decoded blocks.
  std::string mergeKernels;
  std::vector<HitExplain> explain;  // filled when the request asked for it
};

}  // namespace wandscope::engine
