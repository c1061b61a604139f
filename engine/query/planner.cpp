// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/planner.h"

#include <fmt/format.h>

namespace wandscope::engine {

Plan planQuery(const ParsedQuery& query, Operator op, Algorithm requested, const SearchOptions& options) {
  if (requested != Algorithm::Auto) return {requested, "forced"};
  const std::size_t clauses = query.knownTerms();
  if (op == Operator::Or) {
    return {Algorithm::MaxScore, fmt::format("auto: OR with {} known term(s) -> maxscore", clauses)};
  }
  if (options.bulkAnd && clauses >= 2 && clauses <= 3) {
    return {Algorithm::BulkAnd, fmt::format("auto: AND with {} clauses -> bulk-and", clauses)};
  }
  return {Algorithm::BlockMaxAnd,
          fmt::format("auto: AND with {} clause(s){} -> block-max-and", clauses,
                      options.bulkAnd ? "" : " and bulk_and=off")};
}

}  // namespace wandscope::engine
