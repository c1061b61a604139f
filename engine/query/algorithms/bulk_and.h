// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

#include <cstddef>
#include <vector>

namespace wandscope::engine {

// The windowed bulk AND of the first seed: block-aligned windows, window skipping, a frequency prune table, per-candidate limits, lazy frequencies and specialised merge kernels. Returns exactly the exhaustive AND top-k (doc ids and f32 score bits). All terms must be
// known (the searcher handles unknown AND terms).
void bulkAnd(QueryContext& ctx);

// The bulk AND's clause order, in both its windows: query-order indices of `cursors` by ascending
// df, query order on a tie, into order[0, cursors.size()). order[0] is the lead (the rarest list),
// the others follow cheapest first.
void bulkAndClauseOrder(const std::vector<PostingCursor>& cursors, std::size_t* order);

}  // namespace wandscope::engine
