// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "engine/query/query_counters.h"
#include "engine/query/search_request.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace wandscope::engine {

// Closed-loop, single-threaded timing of a query set, the first seed's method: an untimed warm-up
// of `warmupSeconds` cycling through the queries, then `passes` passes in forward / reverse /
// forward ... order. CPU per query is process CPU time over the pass divided by the queries it
// completed; the headline is the mean over passes.
struct QuerySetTiming {
  std::size_t queries = 0;
  std::size_t passes = 0;
  std::vector<double> cpuMsPerQueryByPass;
  double cpuMsPerQuery = 0;               // mean over passes
  std::vector<double> wallMs;             // every query of every pass, sorted ascending
  std::optional<double> wallMsP50;        // nearest rank; absent when too few samples
  double warmupSeconds = 0;
  std::size_t warmupQueries = 0;
  QueryCounters counters;                 // summed over the first measured pass
  std::size_t hits = 0;                   // summed over the first measured pass
};

QuerySetTiming timeQuerySet(const Index& index, const std::vector<SearchRequest>& requests,
                            std::size_t passes, double warmupSeconds, std::stop_token stop = {});

// The same method for any engine (the peers, engine/peers): `runQuery(i, firstPass)` runs query
// i of `queries` and returns its hit count; `firstPass` is true during the first measured pass
// only (warm-up calls get false). `counters` stays zero.
QuerySetTiming timeQueryCalls(std::size_t queries, const std::function<std::size_t(std::size_t, bool)>& runQuery,
                              std::size_t passes, double warmupSeconds, std::stop_token stop = {});

// Process CPU time in seconds (CLOCK_PROCESS_CPUTIME_ID).
double processCpuSeconds() noexcept;
// Monotonic wall clock in seconds.
double monotonicSeconds() noexcept;

}  // namespace wandscope::engine
