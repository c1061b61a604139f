// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

namespace wandscope::engine {

// The exhaustive document-at-a-time paths, the reference every pruning path must equal bit for
// bit. Deliberately simple: every candidate is scored.

// OR: every document containing any term.
void exhaustiveOr(QueryContext& ctx);

// AND: every document containing all terms (leapfrog, rarest list leading). The caller handles
// unknown terms: an AND with an unknown term matches nothing and never gets here.
void exhaustiveAnd(QueryContext& ctx);

}  // namespace wandscope::engine
