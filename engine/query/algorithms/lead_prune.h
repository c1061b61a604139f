// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/posting_cursor.h"

#include <array>
#include <cstdint>
#include <limits>

namespace wandscope::engine {

// The bulk AND's two prune decisions for a candidate from its lead clause alone (docs/ALGORITHMS.md,
// "The bulk AND", step 6), as the first seed's windows take them (the long windows use only the
// per-tf bounds, through tfBound):
//  - the exclusive partial-score limit: the largest f32 lead score that cannot beat the floor given
//    the other clauses' block maxima (exclusivePartialScoreLimit), cached per (floor, others) pair;
//  - the 64-bucket frequency prune table: bucket tf (1..62) holds whether the lead's largest
//    contribution at that tf for any document length, W(tf, K(0)) x idf, is <= the limit; bucket 63
//    ("tf >= 63") uses the lead's block maximum. Keyed by (limit, lead block maximum) separately from
//    the limit, so each is recomputed exactly when it is stale (the first seed's review found a
//    shared key that left the table off after a floor turned positive mid-window).
// Both decisions are bit-identical to the exact bound (score_bounds.h).
class LeadPrune {
 public:
  static constexpr std::uint32_t kBuckets = 64;

  // freqPrune: whether the table is used at all (its bucket bounds are computed only then).
  LeadPrune(const PostingCursor& lead, bool freqPrune);

  // The exclusive partial-score limit for the floor and the f64 sum of the other clauses' bounds.
  float limit(float floor, double others, double factor);

  // Whether the table is stale for (limit, lead block maximum).
  bool tableStale(float limit, float leadBlockMax) const noexcept {
    return !m_valid || m_tableLimit != limit || m_leadBlockMax != leadBlockMax;
  }
  // Rebuilds the table for (limit, lead block maximum). A table that cannot prune (its least bucket
  // bound and the block maximum both beat the limit) is only marked: a rebuild runs once per window
  // or floor change, and filling 63 buckets that prune nothing cost mid-df-1/2 1.09-1.20x
  // (docs/PRUNING_LOG.md, "Kept: the frequency prune table's rebuilds").
  void rebuildTable(float limit, float leadBlockMax);
  // Whether some bucket of the current table can prune.
  bool tablePrunes() const noexcept { return !m_none; }
  // Whether a lead frequency's bucket cannot beat the limit (with tablePrunes()).
  bool cannotBeat(std::uint32_t tf) const noexcept { return m_cannotBeat[bucket(tf)]; }
  // The bound the bucket of `tf` compared with the limit (for trace events).
  float bucketBound(std::uint32_t tf) const noexcept { return m_bucketBound[bucket(tf)]; }
  // A bound of the lead's contribution at frequency tf in a block whose maximum is leadBlockMax,
  // without a table: the tf bucket's bound (for tf < 63) capped by the block maximum.
  float tfBound(std::uint32_t tf, float leadBlockMax) const noexcept {
    const float b = tf < kBuckets - 1 ? m_bucketBound[tf] : leadBlockMax;
    return b < leadBlockMax ? b : leadBlockMax;
  }
  // The largest bucket that cannot beat the limit, 0 when none (the trace's cut-off).
  std::uint32_t cut() const noexcept;

 private:
  static std::uint32_t bucket(std::uint32_t tf) noexcept { return tf < kBuckets - 1 ? tf : kBuckets - 1; }

  // Lead contribution bound per exact tf for any document: W never increases with the length
  // normaliser (docs/SCORING.md), so W(tf, K(0)) bounds every document with that tf. The last
  // bucket holds the block maximum of the current table.
  std::array<float, kBuckets> m_bucketBound{};
  // The smallest of the per-tf bounds (NaN never counts: it never prunes).
  float m_leastBucketBound = std::numeric_limits<float>::infinity();

  float m_limitFloor = std::numeric_limits<float>::quiet_NaN();
  double m_limitOthers = -1.0;
  float m_limit = -std::numeric_limits<float>::infinity();

  float m_tableLimit = std::numeric_limits<float>::quiet_NaN();
  float m_leadBlockMax = -1.0f;
  std::array<bool, kBuckets> m_cannotBeat{};
  bool m_none = true;  // every m_cannotBeat entry false (then not filled)
  bool m_valid = false;
};

}  // namespace wandscope::engine
