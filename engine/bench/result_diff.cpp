// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/result_diff.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

namespace wandscope::engine {

QueryDiff diffHits(const std::vector<TargetHit>& a, const std::vector<TargetHit>& b) {
  QueryDiff d;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t r = 0; r < n; ++r) {
    const bool same = r < a.size() && r < b.size() && a[r].doc == b[r].doc &&
                      std::bit_cast<std::uint32_t>(a[r].score) == std::bit_cast<std::uint32_t>(b[r].score);
    if (!same) {
      d.firstDivergingRank = static_cast<std::uint32_t>(r + 1);
      break;
    }
  }
  if (!d.firstDivergingRank) return d;
  std::unordered_map<std::uint32_t, std::uint32_t> bits;
  for (const auto& h : a) bits[h.doc] = std::bit_cast<std::uint32_t>(h.score);
  std::size_t common = 0;
  for (const auto& h : b) {
    auto it = bits.find(h.doc);
    if (it == bits.end()) continue;
    ++common;
    if (it->second != std::bit_cast<std::uint32_t>(h.score)) d.scoreBitsDiffer = true;
  }
  d.rowSetDiffers = common != a.size() || common != b.size();
  d.orderDiffers = !d.rowSetDiffers && !d.scoreBitsDiffer;
  return d;
}

void addQueryDiff(ResultDiff& total, const std::string& queryId, bool ok, const QueryDiff& diff) {
  ++total.queries;
  if (!ok) {
    ++total.failed;
    total.differingQueries.push_back(queryId);
    return;
  }
  if (diff.rowSetDiffers) ++total.rowSetDiff;
  if (diff.scoreBitsDiffer) ++total.scoreBitDiff;
  if (diff.orderDiffers) ++total.orderDiff;
  if (diff.firstDivergingRank &&
      (!total.firstDivergingRank || *diff.firstDivergingRank < *total.firstDivergingRank)) {
    total.firstDivergingRank = diff.firstDivergingRank;
  }
  if (diff.any()) total.differingQueries.push_back(queryId);
}

ResultDiff diffQuerySet(Target& a, Target& b, const Workload& set, const std::vector<std::string>& ids) {
  ResultDiff diff;
  std::vector<TargetHit> ha, hb;
  for (std::uint64_t s = 0; s < set.size(); ++s) {
    const WorkItem item = set.item(s);
    const bool okA = a.hits(item, ha);
    const bool okB = b.hits(item, hb);
    addQueryDiff(diff, ids[item.query], okA && okB, diffHits(ha, hb));
  }
  return diff;
}

}  // namespace wandscope::engine
