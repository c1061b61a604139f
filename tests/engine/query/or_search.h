// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/searcher.h"
#include "engine/query/trace_recorder.h"

#include <cstddef>
#include <string>

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

}  // namespace wandscope::test
