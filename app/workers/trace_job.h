// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/index_handle.h"
#include "engine/query/search_request.h"

#include <QString>

#include <cstddef>
#include <optional>

namespace wandscope::app {

// What the Trace page asks for: a query traced under one algorithm (and optionally a second, to
// compare), on the teaching index or the workbench's open index.
struct TraceParams {
  QString text;
  engine::Operator op = engine::Operator::Or;
  std::size_t k = 10;
  engine::Algorithm algorithm = engine::Algorithm::Wand;
  std::optional<engine::Algorithm> compare;
  engine::SearchOptions options;
  // Events kept per run; later ones are counted, not stored (the page says so). 20,000 steps are
  // more than anyone steps through, and keep a trace under ~2 MB.
  std::size_t maxEvents = kDefaultMaxEvents;
  bool teaching = true;  // run on the built-in teaching corpus (built on first use)
  QString lessonId;

  static constexpr std::size_t kDefaultMaxEvents = 20'000;
};

// One request as the worker receives it.
struct TraceJob {
  quint64 generation = 0;
  IndexHandlePtr index;  // the workbench's index, for teaching == false
  QString cacheRoot;     // where the teaching index is built ("" = the user cache directory)
  TraceParams params;
};

}  // namespace wandscope::app
