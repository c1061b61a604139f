// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/trace_recorder.h"

#include "engine/query/posting_cursor.h"

#include <algorithm>

namespace wandscope::engine {

const char* traceEventKindName(TraceEventKind kind) noexcept {
  switch (kind) {
    case TraceEventKind::QueryStart:
      return "query_start";
    case TraceEventKind::PivotSelected:
      return "pivot";
    case TraceEventKind::BlockSkipped:
      return "block_skipped";
    case TraceEventKind::WindowEntered:
      return "window_entered";
    case TraceEventKind::WindowSkipped:
      return "window_skipped";
    case TraceEventKind::WindowJumped:
      return "window_jumped";
    case TraceEventKind::CandidateScored:
      return "candidate_scored";
    case TraceEventKind::CandidatePruned:
      return "candidate_pruned";
    case TraceEventKind::HeapInsert:
      return "heap_insert";
    case TraceEventKind::ThresholdRaised:
      return "threshold_raised";
    case TraceEventKind::PruneTableBuilt:
      return "prune_table_built";
    case TraceEventKind::EssentialSplit:
      return "essential_split";
    case TraceEventKind::QueryEnd:
      return "query_end";
  }
  return "unknown";
}

const char* traceReasonName(TraceReason reason) noexcept {
  switch (reason) {
    case TraceReason::None:
      return "";
    case TraceReason::Bound:
      return "bound";
    case TraceReason::Empty:
      return "empty";
    case TraceReason::Table:
      return "table";
    case TraceReason::Limit:
      return "limit";
  }
  return "";
}

TraceRecorder::TraceRecorder(std::size_t maxEvents) : m_maxEvents(maxEvents), m_eventLimit(maxEvents) {}

void TraceRecorder::begin(std::vector<const PostingCursor*> cursors, std::vector<std::string> terms) {
  m_cursors = std::move(cursors);
  m_terms = std::move(terms);
  m_termOfCursor.clear();
  for (std::size_t i = 0; i < m_cursors.size(); ++i) {
    if (m_cursors[i] != nullptr) m_termOfCursor.push_back(static_cast<std::int32_t>(i));
  }
  m_eventLimit = std::min(m_maxEvents, kMaxPositions / std::max<std::size_t>(1, m_cursors.size()));
  m_events.clear();
  m_positions.clear();
  m_dropped = 0;
  longWindows = false;
  cursorsWalked = true;
}

void TraceRecorder::record(const TraceEvent& event) {
  if (m_events.size() >= m_eventLimit) {
    ++m_dropped;
    return;
  }
  TraceEvent& e = m_events.emplace_back(event);
  const auto termOf = [this](std::size_t cursor) {
    return cursor < m_termOfCursor.size() ? m_termOfCursor[cursor] : static_cast<std::int32_t>(cursor);
  };
  if (e.term >= 0) e.term = termOf(static_cast<std::size_t>(e.term));
  if (e.kind == TraceEventKind::EssentialSplit && e.docEnd != 0) {
    DocId mask = 0;
    for (std::size_t c = 0; c < 32; ++c) {
      if ((e.docEnd >> c) & 1u) mask |= DocId{1} << termOf(c);
    }
    e.docEnd = mask;
  }
  for (const PostingCursor* c : m_cursors) m_positions.push_back(c != nullptr ? c->docId() : kNoMoreDocs);
}

}  // namespace wandscope::engine
