// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/workers/index_summarizer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

namespace wandscope::app {

widgets::IndexSummary summarizeIndex(const engine::Index& index, const QString& path) {
  widgets::IndexSummary s;
  s.path = path;
  s.stats = index.statistics();
  s.manifest = index.manifest();

  const engine::TermId terms = index.termCount();
  std::vector<std::uint64_t> bins(65, 0);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> lists;  // (df, cf)
  lists.reserve(terms);
  for (engine::TermId t = 0; t < terms; ++t) {
    const auto& info = index.term(t);
    if (info.df == 0) continue;
    ++bins[static_cast<std::size_t>(std::bit_width(info.df) - 1)];  // floor(log2 df)
    lists.emplace_back(info.df, info.cf);
  }
  for (std::size_t i = 0; i < bins.size(); ++i) {
    if (bins[i] == 0) continue;
    s.dfBinKeys.push_back(std::ldexp(1.0, static_cast<int>(i)));
    s.dfBinCounts.push_back(static_cast<double>(bins[i]));
  }

  // Rank order: longest list first (ties by cf, so the curve is deterministic).
  std::sort(lists.begin(), lists.end(), [](const auto& a, const auto& b) { return a > b; });
  // About 60 points per decade of rank, plus the last rank.
  const std::size_t n = lists.size();
  std::size_t previous = 0;
  for (double r = 1.0; n > 0; r *= 1.04) {
    std::size_t rank = std::min<std::size_t>(n, static_cast<std::size_t>(std::llround(r)));
    if (rank == previous) {
      if (rank == n) break;
      continue;
    }
    previous = rank;
    s.rankKeys.push_back(static_cast<double>(rank));
    s.rankDf.push_back(static_cast<double>(lists[rank - 1].first));
    s.rankCf.push_back(static_cast<double>(lists[rank - 1].second));
    if (rank == n) break;
  }
  return s;
}

}  // namespace wandscope::app
