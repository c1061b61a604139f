// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/index_summary.h"
#include "widgets/models/search_snapshot.h"

namespace wandscope::test {

// A hand-made snapshot: query "alpha beta gamma" (gamma unknown), three hits, consistent explain
// (the contributions add up to each score in f32). With `compare`, a second run with the same
// hits, or with rank 2 changed when `differ`.
widgets::SearchSnapshotPtr makeSnapshot(bool compare = false, bool differ = false);

// A small index summary with a few df bins and rank points.
widgets::IndexSummaryPtr makeSummary();

}  // namespace wandscope::test
