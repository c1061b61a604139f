// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/exhaustive.h"

#include <algorithm>

namespace wandscope::engine {

void exhaustiveOr(std::vector<PostingCursor>& cursors, TopKCollector& topk, QueryCounters& counters) {
  for (;;) {
    DocId doc = kNoMoreDocs;
    for (const auto& c : cursors) doc = std::min(doc, c.docId());
    if (doc == kNoMoreDocs) return;
    Score score = 0.0f;
    for (auto& c : cursors) {
      if (c.docId() == doc) {
        score += c.score();
        c.next();
      }
    }
    ++counters.candidatesSeen;
    ++counters.fullScores;
    topk.insert(doc, score);
  }
}

void exhaustiveAnd(std::vector<PostingCursor>& cursors, TopKCollector& topk, QueryCounters& counters) {
  if (cursors.empty()) return;
  // Leapfrog in ascending df order (the rarest list leads); score in query order.
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
    Score score = 0.0f;
    for (auto& c : cursors) score += c.score();
    ++counters.candidatesSeen;
    ++counters.fullScores;
    topk.insert(doc, score);
    lead.next();
    doc = lead.docId();
  }
}

}  // namespace wandscope::engine
