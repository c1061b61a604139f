// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/trace_snapshot.h"

#include <QString>

namespace wandscope::widgets {

// One sentence (or two) in plain words saying what the engine did at event `step` of `run` and
// why, with the numbers: "Pivot at doc 48,213 ('storm'): upper bounds sum to 7.210 > threshold
// 6.900, but block maxima sum to 5.120 <= 6.900: skip to doc 48,384". Doc ids use digit grouping;
// scores three decimals, more when two compared numbers would otherwise print the same.
QString traceNarrative(const TraceSnapshot& snapshot, const TraceRun& run, std::size_t step);

// A short label of an event kind for lists and legends ("pivot", "block-max skip", ...).
QString traceKindLabel(engine::TraceEventKind kind, engine::TraceReason reason = engine::TraceReason::None);

// Doc ids as the narrative writes them ("48,213"; "the end" for kNoMoreDocs).
QString formatDoc(engine::DocId doc);
// A score as the narrative writes it ("none" for -inf: the heap is not full yet): three decimals,
// and three significant digits below 0.1 ("0.0000805").
QString formatScore(float score);

}  // namespace wandscope::widgets
