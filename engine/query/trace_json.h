// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/search_request.h"
#include "engine/query/trace_recorder.h"

#include <string>

namespace wandscope::engine {

// The trace as JSON (docs/COUNTERS.md, "Trace"): the request that ran, when given (query text,
// operator, k, the algorithm asked for and the switches: enough to run it again), the path taken,
// the query terms, whether events were dropped, and every event with its fields and the cursor
// positions (query order; null for an exhausted or unknown term). Non-finite numbers are written
// as null.
std::string traceToJson(const TraceRecorder& trace, bool pretty = false, const SearchRequest* request = nullptr);

}  // namespace wandscope::engine
