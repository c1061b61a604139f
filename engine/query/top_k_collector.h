// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/query/query_counters.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace wandscope::engine {

struct Hit {
  DocId doc = 0;
  Score score = 0.0f;
  friend bool operator==(const Hit&, const Hit&) = default;
};

// True when `a` ranks before `b` in the one total order every path uses: score descending, then
// doc id ascending.
inline bool ranksBefore(const Hit& a, const Hit& b) noexcept {
  return a.score > b.score || (a.score == b.score && a.doc < b.doc);
}

// Keeps the k best hits under `ranksBefore`. NaN never enters (every comparison with NaN is false).
//
// The floor is exclusive: once full, a document must score strictly above `floor()` to have a
// chance. That is exact for the tie-break when documents arrive in ascending doc id order (a later
// document with an equal score ranks after every kept one); `insert` applies the full order anyway,
// so out-of-order callers are still correct. Before the heap is full the floor is -infinity, so
// zero-score documents are never pruned.
class TopKCollector {
 public:
  explicit TopKCollector(std::size_t k, QueryCounters* counters = nullptr);

  std::size_t k() const noexcept { return m_k; }
  bool full() const noexcept { return m_k > 0 && m_heap.size() == m_k; }
  // The exclusive floor: -inf until k hits are held, then the k-th score. +inf when k == 0.
  Score floor() const noexcept { return m_floor; }
  // Whether a floor is set: a full heap, or a preset (below). Paths that prune on the floor test
  // this rather than full(): under a preset the heap fills late, as hits at or below it are refused.
  bool hasFloor() const noexcept { return m_floor != -std::numeric_limits<Score>::infinity(); }
  // Whether a document with this score could enter (score > floor; false for NaN).
  bool wouldEnter(Score score) const noexcept { return score > m_floor; }
  // Before the first hit: raises the exclusive floor to `floor` (when higher), for a caller that
  // knows at least k documents score above it (the rank floor, rank_floor.h). Hits at or below it
  // are refused from then on, before the heap is full too; the floor stays at least `floor`.
  void presetFloor(Score floor) noexcept;

  // Offers a hit; returns whether it is now among the k best.
  bool insert(DocId doc, Score score);

  // Ends collection: the hits in rank order. Also fixes kthScore() and tieAtK().
  std::vector<Hit> finish();

  // After finish(): the k-th hit's score (NaN when fewer than k hits), and whether some evaluated
  // document outside the top k had exactly that score (the k-th place is then decided by doc id).
  Score kthScore() const noexcept { return m_kthScore; }
  bool tieAtK() const noexcept { return m_tieAtK; }

 private:
  void noteOutside(Score score) noexcept;

  std::size_t m_k;
  QueryCounters* m_counters;
  std::vector<Hit> m_heap;  // max-heap under ranksBefore: the worst kept hit is on top
  Score m_floor;
  Score m_bestOutside = -std::numeric_limits<Score>::infinity();
  Score m_kthScore = std::numeric_limits<Score>::quiet_NaN();
  bool m_tieAtK = false;
};

}  // namespace wandscope::engine
