// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/top_k_collector.h"

#include <algorithm>
#include <cmath>

namespace wandscope::engine {

TopKCollector::TopKCollector(std::size_t k, QueryCounters* counters)
    : m_k(k),
      m_counters(counters),
      m_floor(k == 0 ? std::numeric_limits<Score>::infinity() : -std::numeric_limits<Score>::infinity()) {
  // Reserve lazily for huge k: the heap grows with the hits actually found.
  m_heap.reserve(std::min<std::size_t>(k, 4096));
}

void TopKCollector::noteOutside(Score score) noexcept {
  if (score > m_bestOutside) m_bestOutside = score;
}

void TopKCollector::presetFloor(Score floor) noexcept {
  if (m_k == 0 || !m_heap.empty() || !(floor > m_floor)) return;
  m_floor = floor;
  if (m_counters != nullptr) countUp(m_counters->thresholdRaises);
}

bool TopKCollector::insert(DocId doc, Score score) {
  if (m_k == 0 || std::isnan(score)) return false;
  const Hit hit{doc, score};
  if (m_heap.size() < m_k) {
    if (!(score > m_floor)) {  // only under a preset floor (else the floor is -infinity)
      noteOutside(score);
      return false;
    }
    m_heap.push_back(hit);
    std::push_heap(m_heap.begin(), m_heap.end(), ranksBefore);
    if (m_counters != nullptr) countUp(m_counters->heapInserts);
    if (m_heap.size() == m_k) {  // above the floor: everything below it was refused
      m_floor = m_heap.front().score;
      if (m_counters != nullptr) countUp(m_counters->thresholdRaises);
    }
    return true;
  }
  if (!ranksBefore(hit, m_heap.front())) {
    noteOutside(score);
    return false;
  }
  noteOutside(m_heap.front().score);
  std::pop_heap(m_heap.begin(), m_heap.end(), ranksBefore);
  m_heap.back() = hit;
  std::push_heap(m_heap.begin(), m_heap.end(), ranksBefore);
  if (m_counters != nullptr) countUp(m_counters->heapInserts);
  const Score floor = m_heap.front().score;
  if (floor > m_floor) {
    m_floor = floor;
    if (m_counters != nullptr) countUp(m_counters->thresholdRaises);
  }
  return true;
}

std::vector<Hit> TopKCollector::finish() {
  std::vector<Hit> out = std::move(m_heap);
  m_heap.clear();
  std::sort(out.begin(), out.end(), ranksBefore);
  if (m_k > 0 && out.size() == m_k) {
    m_kthScore = out.back().score;
    m_tieAtK = m_bestOutside == m_kthScore;
  }
  return out;
}

}  // namespace wandscope::engine
