// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace wandscope::test {

// One OR search of `q` with a forced path, optionally traced, explained and with switches
// ("bulk_or=off,..."), for the OR tests.
inline engine::SearchResult runOr(const engine::Index& index, const std::string& q, std::size_t k,
                                  engine::Algorithm algo, engine::TraceRecorder* trace = nullptr,
                                  bool explain = false, const char* options = "") {
  engine::SearchRequest r;
  r.text = q;
  r.op = engine::Operator::Or;
  r.k = k;
  r.algorithm = algo;
  r.trace = trace;
  r.explain = explain;
  r.options.apply(options);
  return engine::search(index, r);
}

// What every OR path's trace shows: QueryStart first, QueryEnd last, and a floor that never falls
// (-inf <= anything). Call through ASSERT_NO_FATAL_FAILURE.
inline void expectFramedWithRisingFloor(const std::vector<engine::TraceEvent>& events) {
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events.front().kind, engine::TraceEventKind::QueryStart);
  EXPECT_EQ(events.back().kind, engine::TraceEventKind::QueryEnd);
  for (std::size_t i = 1; i < events.size(); ++i) EXPECT_LE(events[i - 1].floor, events[i].floor) << "event " << i;
}

}  // namespace wandscope::test
