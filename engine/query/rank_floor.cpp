// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/rank_floor.h"

#include "engine/index/index.h"
#include "engine/score/bm25.h"

namespace wandscope::engine {

std::optional<RankFloor> rankFloor(const Index& index, const ParsedQuery& query, std::size_t k) {
  if (k == 0) return std::nullopt;
  std::uint32_t slot = 0;  // the smallest stored rank >= k
  while (slot < format::kRankWeightCount && format::kRankWeightRanks[slot] < k) ++slot;
  if (slot == format::kRankWeightCount) return std::nullopt;
  std::optional<RankFloor> best;
  for (std::size_t i = 0; i < query.terms.size(); ++i) {
    const auto& t = query.terms[i];
    if (!t.id) continue;
    const float idf = index.idf(*t.id);
    for (const TermPart& part : index.parts(*t.id)) {
      const PostingList list = index.postingList(part);
      if (list.rankWeights.empty() || list.df < format::kRankWeightRanks[slot]) continue;
      const Score s = Bm25::contribution(idf, list.rankWeights[slot]);
      if (!best || s > best->score) best = RankFloor{s, i, format::kRankWeightRanks[slot]};
    }
  }
  return best;
}

}  // namespace wandscope::engine
