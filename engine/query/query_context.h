// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/posting_cursor.h"
#include "engine/query/query_counters.h"
#include "engine/query/search_request.h"
#include "engine/query/top_k_collector.h"
#include "engine/query/trace_recorder.h"

#include <vector>

namespace wandscope::engine {

// Everything an evaluation path gets. `cursors` hold one cursor per distinct known query term in
// query order; a path may reorder pointers to them but the canonical score is always the sum of
// the contributions of the terms present, added in this order (scoreInQueryOrder).
struct QueryContext {
  std::vector<PostingCursor>& cursors;
  TopKCollector& topk;
  QueryCounters& counters;
  const SearchOptions& options;
  TraceRecorder* trace = nullptr;  // null when tracing is off
  // Set by the paths that intersect decoded blocks (the bulk AND): which intersection kernels
  // ran ("avx3", ..., "scalar", or "generic" with simd_merge=off). Null for the other paths.
  const char* mergeKernels = nullptr;

  // The full score of `doc`: contributions of every cursor positioned on it, in query order.
  Score scoreInQueryOrder(DocId doc) {
    Score s = 0.0f;
    for (auto& c : cursors) {
      if (c.docId() == doc) s += c.score();
    }
    return s;
  }

  // Offers a scored candidate to the top-k, counting and tracing it.
  void collect(DocId doc, Score score) {
    countUp(counters.fullScores);
    const Score before = topk.floor();
    if (trace != nullptr) trace->record({TraceEventKind::CandidateScored, TraceReason::None, -1, doc, 0, score, 0, before});
    if (topk.insert(doc, score) && trace != nullptr) {
      trace->record({TraceEventKind::HeapInsert, TraceReason::None, -1, doc, kNoMoreDocs, score, 0, topk.floor()});
      if (topk.floor() != before) {
        trace->record({TraceEventKind::ThresholdRaised, TraceReason::None, -1, doc, 0, 0, before, topk.floor()});
      }
    }
  }
};

}  // namespace wandscope::engine
