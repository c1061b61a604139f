// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

#include <cstddef>

namespace wandscope::engine {

// The longest window (doc ids), for lists of at most 0.25 postings per document together; denser
// ones stop at half of it (bulk_or.cpp; docs/PRUNING_LOG.md, "Longer bmm windows").
inline constexpr DocId kBulkOrWindowDocs = 8192;

// The windowed Block-Max MaxScore (`bmm` with bulk_or=on, the default): documents are taken in
// fixed windows of doc ids, each list's window maximum is the largest block maximum overlapping
// the window, and per window the lists split into essential and non-essential ones as in MaxScore.
// Essential lists are scored term at a time into a dense window accumulator with the SIMD block
// scorer; every document they touched is then bounded, probed in the non-essential lists and
// scored in query order, in doc-id order. Returns exactly the exhaustive OR top-k (doc ids and f32
// score bits). bound_first=off scores every window's essential lists first (see bulk_or.cpp);
// window_skip=off drops the skipping of windows whose bound cannot beat the floor;
// candidate_prune=off probes every non-essential list for every candidate. More than
// kBulkOrMaxTerms query terms fall back to blockMaxMaxScore() (the per-document term mask is 64
// bits).
inline constexpr std::size_t kBulkOrMaxTerms = 64;
void bulkOr(QueryContext& ctx);

}  // namespace wandscope::engine
