// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The list order and the essential/non-essential split that MaxScore and Block-Max MaxScore share
// (maxscore.cpp, block_max_maxscore.cpp).

#include "engine/query/query_context.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {

// One query list as the MaxScore paths order it.
struct MaxScoreList {
  PostingCursor* cursor = nullptr;
  std::int32_t term = 0;  // its cursor's index in ctx.cursors (the recorder maps it to the query term)
  Score maxScore = 0.0f;
  std::uint64_t df = 0;
};

// The query's lists by list maximum, ascending; ties put the longer list first, since
// non-essential lists are probed with nextGeq instead of being walked. Entry is MaxScoreList or a
// struct derived from it (its own members value-initialised).
template <class Entry>
std::vector<Entry> listsByMaximum(QueryContext& ctx) {
  std::vector<Entry> order(ctx.cursors.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    PostingCursor& c = ctx.cursors[i];
    MaxScoreList& list = order[i];
    list = {&c, static_cast<std::int32_t>(i), c.maxScore(), c.df()};
  }
  std::stable_sort(order.begin(), order.end(), [](const Entry& a, const Entry& b) {
    return a.maxScore < b.maxScore || (a.maxScore == b.maxScore && a.df > b.df);
  });
  return order;
}

// upper[j]: the f64 sum of the first j list maxima of `order` (upper[0] = 0).
template <class Entry>
std::vector<double> maximumPrefixSums(const std::vector<Entry>& order) {
  std::vector<double> upper(order.size() + 1, 0.0);
  for (std::size_t j = 0; j < order.size(); ++j) upper[j + 1] = upper[j] + static_cast<double>(order[j].maxScore);
  return upper;
}

// The first essential list for `floor`, grown from `e` (the split only grows, as the floor only
// rises): the non-essential prefix order[0..e) is the longest whose conservative bound (factor for
// e terms) cannot beat the floor, so a document found only in those lists cannot enter. Records an
// EssentialSplit event when the split moved, and always when `initial`.
template <class Entry>
std::size_t growEssentialSplit(QueryContext& ctx, const std::vector<Entry>& order, const std::vector<double>& upper,
                               std::size_t e, Score floor, bool initial) {
  const std::size_t n = order.size();
  const double floorD = static_cast<double>(floor);
  std::size_t grown = e;
  while (grown < n && !beatsFloor(upper[grown + 1], sumUpperBoundFactor(grown + 1), floorD)) ++grown;
  if (ctx.trace != nullptr && (initial || grown != e)) {
    const DocId mask = ctx.trace->splitMask(grown, [&](std::size_t j) { return order[j].term; });
    ctx.trace->record({TraceEventKind::EssentialSplit, TraceReason::None, grown < n ? order[grown].term : -1, 0, mask,
                       static_cast<float>(grown), 0, floor});
  }
  return grown;
}

}  // namespace wandscope::engine
