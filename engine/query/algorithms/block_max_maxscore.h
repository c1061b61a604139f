// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// Block-Max MaxScore: MaxScore probing non-essential lists with block maxima. Returns exactly the
// exhaustive OR top-k (doc ids and f32 score bits). candidate_prune=off drops the per-candidate
// bounds (plain MaxScore probing); window_skip=off drops the skipping of windows whose block
// maxima over all lists cannot beat the floor.
void blockMaxMaxScore(QueryContext& ctx);

}  // namespace wandscope::engine
