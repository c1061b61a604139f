// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/lead_prune.h"

#include "engine/score/score_bounds.h"

#include <bit>

namespace wandscope::engine {

LeadPrune::LeadPrune(const PostingCursor& lead, bool freqPrune) {
  if (!freqPrune) return;
  const Bm25& bm25 = lead.bm25();
  const float minNorm = bm25.lengthNorm(0);
  for (std::uint32_t f = 1; f + 1 < kBuckets; ++f) {
    m_bucketBound[f] = lead.idf() * bm25.weight(f, minNorm);
    m_leastBucketBound = m_bucketBound[f] < m_leastBucketBound ? m_bucketBound[f] : m_leastBucketBound;
  }
}

float LeadPrune::limit(float floor, double others, double factor) {
  if (std::bit_cast<std::uint32_t>(floor) != std::bit_cast<std::uint32_t>(m_limitFloor) || others != m_limitOthers) {
    m_limitFloor = floor;
    m_limitOthers = others;
    m_limit = exclusivePartialScoreLimit(floor, others, factor);
  }
  return m_limit;
}

void LeadPrune::rebuildTable(float limit, float leadBlockMax) {
  m_bucketBound[kBuckets - 1] = leadBlockMax;
  m_none = !(m_leastBucketBound <= limit) && !(leadBlockMax <= limit);
  if (!m_none) {
    // One compare per bucket, which vectorises.
    for (std::uint32_t b = 1; b < kBuckets; ++b) m_cannotBeat[b] = m_bucketBound[b] <= limit;
  }
  m_tableLimit = limit;
  m_leadBlockMax = leadBlockMax;
  m_valid = true;
}

std::uint32_t LeadPrune::cut() const noexcept {
  std::uint32_t cut = 0;
  for (std::uint32_t b = 1; b < kBuckets && !m_none; ++b) cut = m_cannotBeat[b] ? b : cut;
  return cut;
}

}  // namespace wandscope::engine
