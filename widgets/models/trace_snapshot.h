// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/query/query_counters.h"
#include "engine/query/search_request.h"
#include "engine/query/search_result.h"
#include "engine/query/trace_recorder.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wandscope::widgets {

// One query term's posting list as the trace view draws it: its blocks (last doc id and exact
// block-max score each), the list maximum, and its postings (doc id and score) - all of them for
// short lists, none when the list is over the app's cap (then only blocks are drawn).
struct TraceLane {
  QString term;
  bool known = false;          // false: the term is not in the index (no cursor)
  std::uint64_t df = 0;
  float idf = 0.0f;
  float listMax = 0.0f;
  std::vector<engine::DocId> blockLast;  // ascending
  std::vector<engine::DocId> blockStart; // first posting of each block (empty: previous last + 1)
  std::vector<float> blockMax;           // parallel to blockLast
  std::vector<engine::DocId> postings;   // ascending; empty when over the cap
  std::vector<float> postingScores;      // parallel to postings
  bool postingsCapped = false;

  // The block holding `doc` (the first whose last doc >= doc), or blockLast.size() past the end.
  std::size_t blockOf(engine::DocId doc) const;
  // The first doc id of block b: its first posting when known, else the previous block's last + 1
  // (0 for the first).
  engine::DocId blockFirst(std::size_t b) const;
};

// One traced evaluation, as recorded by the engine's TraceRecorder and copied out on the worker
// thread: the events, every term's cursor position at each event, the lanes, the result and the
// counters. Immutable once handed to the GUI (shared as TraceSnapshotPtr).
struct TraceRun {
  engine::Algorithm requested = engine::Algorithm::Exhaustive;  // the path asked for (auto too)
  engine::Algorithm algorithm = engine::Algorithm::Exhaustive;  // the path taken
  QString reason;
  std::vector<engine::TraceEvent> events;
  std::vector<engine::DocId> positions;  // events.size() * terms, kNoMoreDocs when exhausted
  std::size_t maxEvents = 0;
  std::size_t dropped = 0;               // events past maxEvents (not stored)
  engine::QueryCounters counters;
  std::vector<engine::Hit> hits;
  engine::Score kthScore = 0.0f;
  bool tieAtK = false;
  std::string json;  // the engine's trace JSON (what `search --trace` writes), for export
  bool longWindows = false;  // TraceRecorder::longWindows: the bulk AND's long windows ran
  bool cursorsWalked = true;  // TraceRecorder::cursorsWalked: the positions follow the evaluation

  bool truncated() const noexcept { return dropped > 0; }
  std::size_t termCount() const noexcept { return events.empty() ? 0 : positions.size() / events.size(); }
  engine::DocId position(std::size_t event, std::size_t term) const noexcept {
    return positions[event * termCount() + term];
  }
};

struct TraceSnapshot {
  std::uint64_t generation = 0;
  QString text;
  QString lessonId;  // empty for a free query
  engine::Operator op = engine::Operator::Or;
  std::size_t k = 10;
  engine::SearchOptions options;
  std::uint64_t docs = 0;        // documents in the index (the doc-id axis)
  std::vector<TraceLane> lanes;  // one per query term, query order
  TraceRun primary;
  std::unique_ptr<TraceRun> compare;  // the same query under a second algorithm, when asked

  // The top k after event `step` (inclusive): replays the heap inserts in the total order (score
  // descending, doc id ascending), as the engine's collector keeps it. Rank order.
  static std::vector<engine::Hit> heapAt(const TraceRun& run, std::size_t k, std::size_t step);
};

using TraceSnapshotPtr = std::shared_ptr<const TraceSnapshot>;

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::TraceSnapshotPtr)
