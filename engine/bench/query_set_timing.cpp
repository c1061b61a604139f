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
  QuerySetTiming out;
  out.queries = requests.size();
  out.passes = passes;
  if (requests.empty() || passes == 0) return out;
  if (warmupSeconds > 0) {
    const double start = monotonicSeconds();
    std::size_t i = 0;
    while (monotonicSeconds() - start < warmupSeconds && !stop.stop_requested()) {
      (void)search(index, requests[i]);
      i = (i + 1) % requests.size();
      ++out.warmupQueries;
    }
    out.warmupSeconds = monotonicSeconds() - start;
  }
  out.wallMs.reserve(requests.size() * passes);
  for (std::size_t pass = 0; pass < passes; ++pass) {
    const bool reverse = pass % 2 == 1;
    const double cpu0 = processCpuSeconds();
    std::size_t completed = 0;
    for (std::size_t n = 0; n < requests.size(); ++n) {
      if (stop.stop_requested()) throwUsage("timing cancelled");
      const auto& request = requests[reverse ? requests.size() - 1 - n : n];
      const double t0 = monotonicSeconds();
      const auto result = search(index, request);
      out.wallMs.push_back((monotonicSeconds() - t0) * 1e3);
      ++completed;
      if (pass == 0) {
        out.counters += result.counters;
        out.hits += result.hits.size();
      }
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
