// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/exhaustive.h"

#include <algorithm>

namespace wandscope::engine {

void exhaustiveOr(QueryContext& ctx) {
  auto& cursors = ctx.cursors;
  for (;;) {
    DocId doc = kNoMoreDocs;
    for (const auto& c : cursors) doc = std::min(doc, c.docId());
    if (doc == kNoMoreDocs) return;
    countUp(ctx.counters.candidatesSeen);
    ctx.collect(doc, ctx.scoreInQueryOrder(doc));
    for (auto& c : cursors) {
      if (c.docId() == doc) c.next();
    }
  }
}

void exhaustiveAnd(QueryContext& ctx) {
  auto& cursors = ctx.cursors;
  if (cursors.empty()) return;
  std::vector<PostingCursor*> order;
  for (auto& c : cursors) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(),
                   [](const PostingCursor* a, const PostingCursor* b) { return a->df() < b->df(); });
  PostingCursor& lead = *order.front();
  DocId doc = lead.docId();
  while (doc != kNoMoreDocs) {
    bool aligned = true;
    for (std::size_t i = 1; i < order.size(); ++i) {
      order[i]->nextGeq(doc);
      if (order[i]->docId() != doc) {
        aligned = false;
        doc = order[i]->docId();
        break;
      }
    }
    if (!aligned) {
      lead.nextGeq(doc);
      doc = lead.docId();
      continue;
    }
    countUp(ctx.counters.candidatesSeen);
    ctx.collect(doc, ctx.scoreInQueryOrder(doc));
    lead.next();
    doc = lead.docId();
  }
}

}  // namespace wandscope::engine
