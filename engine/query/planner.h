// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/parsed_query.h"
#include "engine/query/search_request.h"

#include <string>

namespace wandscope::engine {

struct Plan {
  Algorithm algorithm = Algorithm::Exhaustive;
  std::string reason;
};

// Chooses the evaluation path for a request: a forced --algo is kept (it must apply to the
// operator); `auto` follows the rule in docs/ALGORITHMS.md, which is justified by measurements.
Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options);

}  // namespace wandscope::engine
