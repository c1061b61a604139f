// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// MaxScore (Turtle & Flood): OR with essential and non-essential lists. Returns exactly the
// exhaustive OR top-k (doc ids and f32 score bits). candidate_prune=off probes every non-essential
// list for every candidate (no early exit); the essential split stays on.
void maxScore(QueryContext& ctx);

}  // namespace wandscope::engine
