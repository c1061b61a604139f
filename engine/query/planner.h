// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/parsed_query.h"
#include "engine/query/search_request.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace wandscope::engine {

struct Plan {
  Algorithm algorithm = Algorithm::Exhaustive;
  std::string reason;
};

// An AND query prunes only when at least this many documents per result slot are expected to
// match (measured on the seed query sets, docs/ALGORITHMS.md).
inline constexpr std::size_t kPruneMatchesPerK = 16;

// Documents expected to contain every term if terms were placed independently: N * prod(df/N).
// 0 when a term is unknown.
double estimatedAndMatches(const ParsedQuery& query, std::uint64_t docCount);

// Chooses the evaluation path for a request: a forced --algo is kept (it must apply to the
// operator); `auto` follows the rule in docs/ALGORITHMS.md, which is justified by measurements.
Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options,
               std::uint64_t docCount, std::size_t k);

}  // namespace wandscope::engine
