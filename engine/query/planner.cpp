// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace wandscope::engine {

namespace {
constexpr std::uint64_t kBlockPostings = 128;  // postings per block (docs/FORMAT.md)
}  // namespace

double estimatedAndMatches(const ParsedQuery& query, std::uint64_t docCount) {
  if (docCount == 0) return 0.0;
  const double n = static_cast<double>(docCount);
  double matches = n;
  for (const auto& t : query.terms) {
    if (!t.id) return 0.0;
    matches *= std::min(1.0, static_cast<double>(t.df) / n);
  }
  return matches;
}

Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options,
               std::uint64_t docCount, std::size_t k) {
  if (requested != Algorithm::Auto) return {requested, "forced"};
  const std::size_t clauses = query.knownTerms();
  // One list: AND and OR are the same query, and the bulk AND's windows over a single list skip
  // every block whose maximum cannot beat the floor (docs/ALGORITHMS.md, "The planner").
  if (clauses <= 1 && options.bulkAnd) {
    return {Algorithm::BulkAnd, "auto: one known term -> bulk-and (block-max top-k over one list)"};
  }
  if (op == Operator::Or) {
    if (clauses <= 3) {
      return {Algorithm::Bmm, fmt::format("auto: OR with {} known terms -> bmm", clauses)};
    }
    return {Algorithm::MaxScore, fmt::format("auto: OR with {} known terms -> maxscore", clauses)};
  }
  // AND: pruning pays only when far more documents match than k; otherwise the oracle's
  // leapfrog over the skip tables is cheaper than any bound bookkeeping.
  const double matches = estimatedAndMatches(query, docCount);
  const double enough = static_cast<double>(kPruneMatchesPerK) * static_cast<double>(std::max<std::size_t>(k, 1));
  if (matches < enough) {
    return {Algorithm::Exhaustive,
            fmt::format("auto: AND with ~{:.0f} expected matches < {:.0f} (k x {}) -> exhaustive", matches, enough,
                        kPruneMatchesPerK)};
  }
  // A window ends at the nearest block end across clauses, so the densest list sets the number of
  // windows (about maxDf / 128); when that exceeds the rarest list's length the leapfrog, which
  // seeks once per rare posting, does less work (rare+common shapes, PERF.md).
  std::uint64_t minDf = UINT64_MAX;
  std::uint64_t maxDf = 0;
  for (const auto& t : query.terms) {
    minDf = std::min(minDf, t.df);
    maxDf = std::max(maxDf, t.df);
  }
  if (maxDf / kBlockPostings > minDf) {
    return {Algorithm::Exhaustive,
            fmt::format("auto: AND with skewed lists (max df {} / 128 > min df {}) -> exhaustive", maxDf, minDf)};
  }
  if (options.bulkAnd) {
    return {Algorithm::BulkAnd,
            fmt::format("auto: AND with {} clauses and ~{:.0f} expected matches -> bulk-and", clauses, matches)};
  }
  return {Algorithm::BlockMaxAnd,
          fmt::format("auto: AND with {} clauses and ~{:.0f} expected matches, bulk_and=off -> block-max-and", clauses,
                      matches)};
}

}  // namespace wandscope::engine
