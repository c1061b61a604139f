// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/posting_cursor.h"
#include "engine/query/top_k_collector.h"

#include <vector>

namespace wandscope::engine {

// The exhaustive document-at-a-time paths, the reference every pruning path must equal bit for
// bit. `cursors` are in query order (one per distinct known term) and scores are summed in that
// order. Deliberately simple.

// OR: every document containing any term, scored.
void exhaustiveOr(std::vector<PostingCursor>& cursors, TopKCollector& topk, QueryCounters& counters);

// AND: every document containing all terms, scored. The caller handles unknown terms (an AND with
// an unknown term matches nothing) and passes only when every term is known.
void exhaustiveAnd(std::vector<PostingCursor>& cursors, TopKCollector& topk, QueryCounters& counters);

}  // namespace wandscope::engine
