// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wandscope::engine {

class PostingCursor;

// What happened at one step of a query evaluation. Fields that do not apply to a kind stay at
// their defaults; docs/COUNTERS.md ("Trace events") defines each kind's fields.
enum class TraceEventKind : std::uint8_t {
  QueryStart,       // score = k (as a number); cursors at their first postings
  PivotSelected,    // WAND/BMW: doc = pivot, term = pivot term, bound = sum of list maxima up to it
  BlockSkipped,     // doc = from, docEnd = where the cursor(s) go next, term, bound = block-max sum
  WindowEntered,    // bulk AND, windowed bmm: [doc, docEnd], bound = window bound
  WindowSkipped,    // [doc, docEnd]; reason: Empty or Bound; bound = window bound
  WindowJumped,     // bulk AND: after an empty window, docEnd = the lead's next document
  CandidateScored,  // doc, score = full score (query order)
  CandidatePruned,  // doc, bound = what justified it; reason: Bound, Table or Limit; term = lead
  HeapInsert,       // doc, score: the document entered the top k (replay the heap to see who left)
  ThresholdRaised,  // floor = new k-th score, bound = old floor
  PruneTableBuilt,  // bulk AND: bound = exclusive partial-score limit, docEnd = cut-off tf
  EssentialSplit,   // MaxScore: term = first essential term, score = #non-essential, docEnd = their mask
  QueryEnd,         // floor = final k-th score
};

enum class TraceReason : std::uint8_t { None, Bound, Empty, Table, Limit };

const char* traceEventKindName(TraceEventKind kind) noexcept;
const char* traceReasonName(TraceReason reason) noexcept;

struct TraceEvent {
  TraceEventKind kind = TraceEventKind::QueryStart;
  TraceReason reason = TraceReason::None;
  // -1 when not about one term. The paths record the index of a cursor in QueryContext::cursors
  // (the known terms, in query order); the recorder stores the query-order index of its term
  // (unknown terms counted), which is what the trace's `terms` and cursor positions are indexed by.
  std::int32_t term = -1;
  DocId doc = 0;
  DocId docEnd = 0;
  float score = 0.0f;
  float bound = 0.0f;
  float floor = 0.0f;
};

// A bounded event recorder for replaying an evaluation step by step (the workbench's teaching
// view, `search --trace`). With every event it stores each query term's cursor position (query
// order). Off by default: algorithms take a TraceRecorder* that is null when tracing is off, and
// test it once per event site, so tracing costs nothing when disabled. Beyond `maxEvents` events
// are counted but not stored (truncated()). The memory is bounded too: an event stores one
// position per term, so a query of many terms keeps at most kMaxPositions / terms events
// (eventLimit()); a 1,000-term query once took 3 GB for its 100,000 events and their JSON.
class TraceRecorder {
 public:
  // Cursor positions kept in all (4 bytes each): 32 MiB. A 1,000-term query at this limit
  // (8,388 events) wrote 43 MB of JSON in 0.86 s with a 184 MB peak (measured, stop 29).
  static constexpr std::size_t kMaxPositions = std::size_t{8} << 20;

  explicit TraceRecorder(std::size_t maxEvents = 100'000);

  // Called by the searcher before evaluation: the cursors in query order (null for unknown terms).
  void begin(std::vector<const PostingCursor*> cursors, std::vector<std::string> terms);
  // Stores `event` with its cursor index made a term index (TraceEvent::term), and an
  // EssentialSplit's cursor mask (splitMask) made a term mask.
  void record(const TraceEvent& event);

  // An EssentialSplit's docEnd: bit i set for each non-essential list, i its cursor index, when
  // the query has at most 31 terms (unknown ones counted); 0 otherwise (then only the count, in
  // score, says how many). `nonEssential(j)` gives the cursor index of the j-th of `count`.
  template <class CursorIndex>
  DocId splitMask(std::size_t count, CursorIndex&& nonEssential) const {
    if (m_terms.size() > 31) return 0;  // 32 bits all set would be kNoMoreDocs (null in JSON)
    DocId mask = 0;
    for (std::size_t j = 0; j < count; ++j) mask |= DocId{1} << nonEssential(j);
    return mask;
  }

  std::size_t maxEvents() const noexcept { return m_maxEvents; }
  // The events this query keeps: maxEvents(), or fewer when its terms' positions would pass
  // kMaxPositions (set by begin()).
  std::size_t eventLimit() const noexcept { return m_eventLimit; }
  bool truncated() const noexcept { return m_dropped > 0; }
  std::size_t dropped() const noexcept { return m_dropped; }
  const std::vector<TraceEvent>& events() const noexcept { return m_events; }
  const std::vector<std::string>& terms() const noexcept { return m_terms; }
  // Cursor positions of query term `term` at event `index` (kNoMoreDocs when exhausted or unknown).
  DocId position(std::size_t index, std::size_t term) const noexcept {
    return m_positions[index * m_terms.size() + term];
  }
  std::string algorithm;  // set by the searcher
  // Set by the bulk AND's long windows (bulk_and_long_windows.h): their window, block and limit
  // events carry the bounds docs/COUNTERS.md gives for them, and they decode blocks without
  // walking the cursors, whose positions stay where the search put them.
  bool longWindows = false;
  // Whether the recorded cursor positions follow the evaluation step by step. Cleared by the paths
  // that decode blocks without walking the cursors: taat (reads whole lists) and the bulk AND (its
  // windows move the cursors only to a decoded window's start, its long windows not at all).
  bool cursorsWalked = true;

 private:
  std::size_t m_maxEvents;
  std::size_t m_eventLimit;
  std::size_t m_dropped = 0;
  std::vector<const PostingCursor*> m_cursors;
  std::vector<std::int32_t> m_termOfCursor;  // cursor index -> query-order term index
  std::vector<std::string> m_terms;
  std::vector<TraceEvent> m_events;
  std::vector<DocId> m_positions;
};

}  // namespace wandscope::engine
