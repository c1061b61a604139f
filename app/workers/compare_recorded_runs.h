// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/compare_types.h"
#include "engine/bench/run_types.h"

namespace wandscope::app {

// Two runs of the run store side by side, as a comparison the Compare page's table shows (History
// -> Compare...): no re-run, only what the store holds. Rungs are matched by their place in their
// run: the same position of the target in the run's target list (so "builtin" in one run matches
// "plugin:/tmp/new.so" in the other), the same mode, and for the closed loop the same query set
// and concurrency, for the open loop the same position in the target's ladder. Each matched rung
// gives rows for CPU ms/query and p50 (and p99 for open-loop rungs) with the ratio A/B (above 1:
// B is faster). Rungs without a match are listed in the report's warnings.
//
// Recorded runs are not paired samples (different times, maybe different machines): the rows
// carry no confidence interval (NaN) and no verdict, and their results were not compared
// (diff.queries == 0). The sides are named after the runs ("<run id> (<targets>)").
engine::CompareReport compareRecordedRuns(const engine::RunReport& a, const engine::RunReport& b);

}  // namespace wandscope::app
