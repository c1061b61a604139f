// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// Block-Max WAND (Ding & Suel): OR over list and block maxima. Returns exactly the exhaustive OR
// top-k (doc ids and f32 score bits). candidate_prune=off turns off the per-candidate early exits
// (scoring with block maxima replaced one by one, and the lead-first bound of a pivot doc before
// lagging lists are moved to it), leaving PISA's plain loop.
void blockMaxWand(QueryContext& ctx);

}  // namespace wandscope::engine
