// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// The windowed bulk AND of the first seed: block-aligned windows, window skipping, a frequency prune table, per-candidate limits, lazy frequencies and specialised merge kernels. Returns exactly the exhaustive AND top-k (doc ids and f32 score bits). All terms must be
// known (the searcher handles unknown AND terms).
void bulkAnd(QueryContext& ctx);

}  // namespace wandscope::engine
