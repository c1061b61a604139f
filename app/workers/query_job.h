// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/index_handle.h"
#include "engine/query/search_request.h"

#include <QString>

#include <cstddef>
#include <optional>

namespace wandscope::app {

// What the Explore page asks for: the query, its operator, algorithm, switches and k, and
// optionally a second algorithm to run on the same query for a side-by-side comparison.
struct QueryParams {
  QString text;
  engine::Operator op = engine::Operator::Or;
  std::size_t k = 10;
  engine::Algorithm algorithm = engine::Algorithm::Auto;
  engine::SearchOptions options;
  std::optional<engine::Algorithm> compare;
  // The SIMD target to run on ("best", "avx2", ...; empty: leave the engine's as it is). The
  // worker applies it before the search, between queries, so a switch never lands mid-query.
  QString simd;
  friend bool operator==(const QueryParams&, const QueryParams&) = default;
};

// One request as the worker receives it: stamped with the controller's generation id.
struct QueryJob {
  quint64 generation = 0;
  IndexHandlePtr index;
  QueryParams params;
};

}  // namespace wandscope::app
