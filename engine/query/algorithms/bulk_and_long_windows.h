// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

#include <cstddef>

namespace wandscope::engine {

// Queries with more clauses than this stay on the block-aligned windows (the candidates' positions
// are kept per clause).
inline constexpr std::size_t kMaxLongWindowClauses = 16;

// The bulk AND over long windows (`long_windows`, docs/ALGORITHMS.md): for two or more clauses,
// windows of whole lead blocks (1, 2, 4, ... up to 64 of them) instead of the first seed's
// windows up to the nearest block end across clauses. Within a window, lead blocks whose bound
// (their maximum plus the other clauses' largest overlapping block maxima) cannot beat the floor
// are skipped undecoded; the rest are decoded into one array per clause and intersected with the
// SIMD kernels over long runs, a much longer clause probed per candidate instead; each candidate
// is then pruned on the lead clause's exact score (candidate_prune), or with that off on its
// frequency bound (freq_prune), plus the maxima of the other clauses' blocks holding it, decided
// in f64 on its own bound (the seed's limit and table are keyed by those maxima, which change from
// candidate to candidate here). Returns
// exactly the exhaustive AND top-k (doc ids and f32 score bits). All terms must be known;
// 2 to kMaxLongWindowClauses clauses.
void bulkAndLongWindows(QueryContext& ctx);

}  // namespace wandscope::engine
