// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// WAND (Broder et al.): OR over list maxima. Returns exactly the exhaustive OR top-k (doc ids and
// f32 score bits). Reads no SearchOptions switch.
void wand(QueryContext& ctx);

}  // namespace wandscope::engine
