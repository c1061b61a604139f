// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// Block-max AND: a conjunction that skips blocks whose block-max sum cannot beat the floor. Returns exactly the exhaustive AND top-k (doc ids and f32 score bits). All terms must be
// known (the searcher handles unknown AND terms).
void blockMaxAnd(QueryContext& ctx);

}  // namespace wandscope::engine
