// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/query_set_timing.h"

#include "engine/bench/quantile.h"
#include "engine/core/error.h"
#include "engine/query/searcher.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace wandscope::engine {

double processCpuSeconds() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double monotonicSeconds() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

QuerySetTiming timeQuerySet(const Index& index, const std::vector<SearchRequest>& requests,
                            std::size_t passes, double warmupSeconds, std::stop_token stop) {
  QueryCounters counters;
  auto out = timeQueryCalls(
      requests.size(),
      [&](std::size_t i, bool firstPass) {
        const auto result = search(index, requests[i]);
        if (firstPass) counters += result.counters;
        return result.hits.size();
      },
      passes, warmupSeconds, stop);
  out.counters = counters;
  return out;
}

QuerySetTiming timeQueryCalls(std::size_t queries, const std::function<std::size_t(std::size_t, bool)>& runQuery,
                              std::size_t passes, double warmupSeconds, std::stop_token stop) {
  QuerySetTiming out;
  out.queries = queries;
  out.passes = passes;
  if (queries == 0 || passes == 0) return out;
  if (warmupSeconds > 0) {
    const double start = monotonicSeconds();
    std::size_t i = 0;
    while (monotonicSeconds() - start < warmupSeconds && !stop.stop_requested()) {
      (void)runQuery(i, false);
      i = (i + 1) % queries;
      ++out.warmupQueries;
    }
    out.warmupSeconds = monotonicSeconds() - start;
  }
  out.wallMs.reserve(queries * passes);
  for (std::size_t pass = 0; pass < passes; ++pass) {
    const bool reverse = pass % 2 == 1;
    const double cpu0 = processCpuSeconds();
    std::size_t completed = 0;
    for (std::size_t n = 0; n < queries; ++n) {
      if (stop.stop_requested()) throwUsage("timing cancelled");
      const std::size_t q = reverse ? queries - 1 - n : n;
      const double t0 = monotonicSeconds();
      const std::size_t hits = runQuery(q, pass == 0);
      out.wallMs.push_back((monotonicSeconds() - t0) * 1e3);
      ++completed;
      if (pass == 0) out.hits += hits;
    }
    out.cpuMsPerQueryByPass.push_back((processCpuSeconds() - cpu0) * 1e3 / static_cast<double>(completed));
  }
  double sum = 0;
  for (double v : out.cpuMsPerQueryByPass) sum += v;
  out.cpuMsPerQuery = sum / static_cast<double>(out.cpuMsPerQueryByPass.size());
  std::sort(out.wallMs.begin(), out.wallMs.end());
  out.wallMsP50 = nearestRankQuantile(out.wallMs, 0.5);
  return out;
}

}  // namespace wandscope::engine
