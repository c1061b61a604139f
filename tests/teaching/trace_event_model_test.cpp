// SPDX-License-Identifier: GPL-3.0-or-later
// The Trace page's display pieces on a hand-made trace: the event model under
// QAbstractItemModelTester, the narrative's numbers, the heap replay and the lanes view geometry.
#include "widgets/color_contrast.h"
#include "widgets/models/trace_event_model.h"
#include "widgets/models/trace_narrative.h"
#include "widgets/plots/trace_lanes_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>
#include <limits>

namespace wandscope::widgets {
namespace {

using engine::TraceEvent;
using engine::TraceEventKind;
using engine::TraceReason;
constexpr float kNone = -std::numeric_limits<float>::infinity();

// Two terms over 100,000 docs; a BMW-like sequence around the example numbers.
std::shared_ptr<TraceSnapshot> makeEditableTrace() {
  auto s = std::make_shared<TraceSnapshot>();
  s->text = QStringLiteral("alpha beta");
  s->k = 2;
  s->docs = 100'000;
  for (const char* t : {"alpha", "beta"}) {
    TraceLane lane;
    lane.term = QString::fromLatin1(t);
    lane.known = true;
    lane.df = 3;
    lane.listMax = 4.0f;
    lane.blockLast = {48'383, 99'999};
    lane.blockMax = {2.5f, 4.0f};
    lane.postings = {100, 48'213, 60'000};
    lane.postingScores = {1.0f, 2.5f, 4.0f};
    s->lanes.push_back(lane);
  }
  auto& r = s->primary;
  r.algorithm = engine::Algorithm::Bmw;
  r.events = {
      TraceEvent{TraceEventKind::QueryStart, TraceReason::None, -1, 0, 0, 2.0f, 0.0f, kNone},
      TraceEvent{TraceEventKind::CandidateScored, TraceReason::None, -1, 100, 0, 6.9f, 0.0f, kNone},
      TraceEvent{TraceEventKind::HeapInsert, TraceReason::None, -1, 100, engine::kNoMoreDocs, 6.9f, 0.0f, kNone},
      TraceEvent{TraceEventKind::HeapInsert, TraceReason::None, -1, 200, engine::kNoMoreDocs, 7.5f, 0.0f, 6.9f},
      TraceEvent{TraceEventKind::ThresholdRaised, TraceReason::None, -1, 200, 0, 0.0f, kNone, 6.9f},
      TraceEvent{TraceEventKind::PivotSelected, TraceReason::None, 1, 48'213, 0, 0.0f, 7.21f, 6.9f},
      TraceEvent{TraceEventKind::BlockSkipped, TraceReason::Bound, 1, 48'213, 48'384, 0.0f, 5.12f, 6.9f},
      TraceEvent{TraceEventKind::HeapInsert, TraceReason::None, -1, 60'000, engine::kNoMoreDocs, 8.0f, 0.0f, 7.5f},
      TraceEvent{TraceEventKind::QueryEnd, TraceReason::None, -1, 0, 0, 0.0f, 0.0f, 7.5f},
  };
  for (std::size_t i = 0; i < r.events.size(); ++i) {
    const engine::DocId at = i < 5 ? 100 : (i < 7 ? 48'213 : 60'000);
    r.positions.push_back(at);
    r.positions.push_back(at);
  }
  r.counters.fullScores = 3;
  return s;
}

TraceSnapshotPtr makeTrace() { return makeEditableTrace(); }

TEST(TraceEventModel, PassesTheModelTesterAndShowsOneRowPerEvent) {
  TraceEventModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  auto s = makeTrace();
  model.setRun(s, &s->primary);
  ASSERT_EQ(model.rowCount(), 9);
  EXPECT_EQ(model.columnCount(), TraceEventModel::ColumnCount);
  EXPECT_EQ(model.index(5, TraceEventModel::EventColumn).data().toString(), QStringLiteral("pivot"));
  EXPECT_EQ(model.index(5, TraceEventModel::TermColumn).data().toString(), QStringLiteral("beta"));
  EXPECT_EQ(model.index(6, TraceEventModel::DocColumn).data().toString(), QStringLiteral("48,213"));
  EXPECT_EQ(model.index(6, TraceEventModel::ToColumn).data().toString(), QStringLiteral("48,384"));
  EXPECT_EQ(model.index(6, TraceEventModel::BoundColumn).data().toString(), QStringLiteral("5.120"));
  EXPECT_EQ(model.index(1, TraceEventModel::FloorColumn).data().toString(), QStringLiteral("none"));
  EXPECT_EQ(model.index(6, 0).data(TraceEventModel::KindRole).toInt(), static_cast<int>(TraceEventKind::BlockSkipped));
  EXPECT_TRUE(model.index(6, 0).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Pivot at doc 48,213")));
  model.setRun(nullptr, nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

// The event names' colours (green skips, red heap changes) stay readable under a dark
// application palette: the dark theme drew them at contrast 3.0-3.9 on its base.
TEST(TraceEventModel, EventColoursAreReadableOnTheApplicationsBase) {
  const QPalette saved = QGuiApplication::palette();
  TraceEventModel model;
  auto s = makeTrace();
  model.setRun(s, &s->primary);
  for (const QColor base : {QColor(Qt::white), QColor(0x2d, 0x2d, 0x2d)}) {
    QPalette palette = saved;
    palette.setColor(QPalette::Base, base);
    QGuiApplication::setPalette(palette);
    SCOPED_TRACE(base.name().toStdString());
    for (const int row : {2, 4, 6}) {  // heap insert, threshold raised, block skipped
      const auto brush = model.index(row, TraceEventModel::EventColumn).data(Qt::ForegroundRole).value<QBrush>();
      EXPECT_GE(contrastRatio(brush.color(), base), 4.5) << "row " << row;
    }
  }
  QGuiApplication::setPalette(saved);
}

TEST(TraceNarrative, SaysWhatHappenedWithTheNumbers) {
  auto s = makeTrace();
  EXPECT_EQ(traceNarrative(*s, s->primary, 6),
            QStringLiteral("Pivot at doc 48,213: upper bounds sum to 7.210 > threshold 6.900, but the maxima of the "
                           "blocks holding it sum to 5.120 <= 6.900: skip to doc 48,384, where the first of those "
                           "blocks ends. 'beta', the list with the largest maximum, moves there; no document in "
                           "between is scored, and blocks lying wholly in between are never decoded."));
  EXPECT_TRUE(traceNarrative(*s, s->primary, 4).contains(QStringLiteral("turns from none to 6.900")));
  EXPECT_TRUE(traceNarrative(*s, s->primary, 7).contains(QStringLiteral("Doc 100 (6.900) leaves the heap")))
      << traceNarrative(*s, s->primary, 7).toStdString();
  EXPECT_TRUE(traceNarrative(*s, s->primary, 1).contains(QStringLiteral("the heap is not full")));
  EXPECT_EQ(traceNarrative(*s, s->primary, 99), QString());
}

// The prune table's last bucket is "tf >= 63": a cut-off there is every frequency of the block, not
// "frequencies up to 63" (a walkthrough read it as a limit of 63).
TEST(TraceNarrative, APruneTableCutAtTheLastBucketDropsEveryFrequency) {
  auto s = makeEditableTrace();
  auto& r = s->primary;
  r.algorithm = engine::Algorithm::BulkAnd;
  r.events = {
      TraceEvent{TraceEventKind::PruneTableBuilt, TraceReason::None, 0, 0, 3, 0.0f, 2.5f, 6.0f},
      TraceEvent{TraceEventKind::PruneTableBuilt, TraceReason::None, 0, 0, 63, 0.0f, 2.5f, 6.0f},
  };
  r.positions.assign(r.events.size() * 2, 100);
  EXPECT_TRUE(traceNarrative(*s, r, 0).contains(QStringLiteral("Frequencies up to 3 cannot beat it")))
      << traceNarrative(*s, r, 0).toStdString();
  EXPECT_TRUE(traceNarrative(*s, r, 1).contains(QStringLiteral("No frequency of this block can beat it")))
      << traceNarrative(*s, r, 1).toStdString();
  EXPECT_FALSE(traceNarrative(*s, r, 1).contains(QStringLiteral("up to 63")));
}

// The bulk AND's long windows record other bounds than the seed's windows (COUNTERS.md): a limit
// prune's bound is the lead's score plus the other lists' block maxima, compared with the floor (it
// was told as "<= the partial-score limit 10.016", which is not what was tested), and a window
// skipped whole has no bound of its own (its blocks were skipped one by one).
TEST(TraceNarrative, TellsTheLongWindowsByTheirOwnBounds) {
  auto s = makeEditableTrace();
  auto& r = s->primary;
  r.algorithm = engine::Algorithm::BulkAnd;
  r.longWindows = true;
  r.events = {
      TraceEvent{TraceEventKind::CandidatePruned, TraceReason::Limit, 1, 500, 0, 4.037f, 10.016f, 10.065f},
      TraceEvent{TraceEventKind::WindowSkipped, TraceReason::Bound, -1, 600, 900, 0.0f, 0.0f, 10.065f},
      TraceEvent{TraceEventKind::BlockSkipped, TraceReason::Bound, 0, 1000, 1128, 0.0f, 9.5f, 10.065f},
  };
  r.positions.assign(r.events.size() * 2, 100);
  EXPECT_EQ(traceNarrative(*s, r, 0),
            QStringLiteral("Doc 500 pruned: 'beta' scores 4.037 here, and adding the other lists' block maxima gives "
                           "at most 10.016 <= threshold 10.065. The other terms are not scored."));
  EXPECT_EQ(traceNarrative(*s, r, 1),
            QStringLiteral("Long window docs 600 to 900 skipped whole: every lead block examined was skipped on "
                           "its bound (threshold 10.065), so no block is decoded (the segment may end in it)."));
  EXPECT_TRUE(traceNarrative(*s, r, 2).startsWith(QStringLiteral("Docs 1,000 to 1,127, a block of 'alpha' (the lead)")))
      << traceNarrative(*s, r, 2).toStdString();
  // The seed's windows: the same event is the partial-score limit.
  r.longWindows = false;
  EXPECT_TRUE(traceNarrative(*s, r, 0).contains(QStringLiteral("the partial-score limit 10.016")));
}

// Tiny scores (a term in almost every document) keep three significant digits: "scored 0.000"
// said nothing.
TEST(TraceNarrative, TinyScoresKeepThreeSignificantDigits) {
  EXPECT_EQ(formatScore(0.0000805f), QStringLiteral("0.0000805"));
  EXPECT_EQ(formatScore(0.05f), QStringLiteral("0.0500"));
  EXPECT_EQ(formatScore(2.5f), QStringLiteral("2.500"));
  EXPECT_EQ(formatScore(0.0f), QStringLiteral("0.000"));
  EXPECT_EQ(formatScore(-std::numeric_limits<float>::infinity()), QStringLiteral("none"));
}

TEST(TraceNarrative, SaysWhereAPresetRankFloorComesFrom) {
  auto s = std::const_pointer_cast<TraceSnapshot>(makeTrace());
  // As engine::search records it: the term, F as the score, r in docEnd, the floor just below F.
  s->primary.events[1] = TraceEvent{TraceEventKind::ThresholdRaised, TraceReason::None, 0, 0, 10, 3.5f, kNone,
                                    std::nextafter(3.5f, 0.0f)};
  const QString text = traceNarrative(*s, s->primary, 1);
  EXPECT_TRUE(text.startsWith(QStringLiteral("Rank floor: 'alpha' has at least 10 documents scoring 3.500 or more"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("heap is full"))) << text.toStdString();
  EXPECT_TRUE(traceNarrative(*s, s->primary, 4).contains(QStringLiteral("turns from none to 6.900")));  // a fill still reads as one
}

// The rank floor's rank reads as English: "3rd-largest", not "3th-largest"; one document, not "1 documents".
TEST(TraceNarrative, TheRankFloorsRankIsAnOrdinal) {
  auto s = std::const_pointer_cast<TraceSnapshot>(makeTrace());
  const std::pair<std::uint32_t, const char*> cases[] = {
      {1, "1 document scoring"}, {2, "2nd-largest"}, {3, "3rd-largest"},   {4, "4th-largest"},
      {11, "11th-largest"},      {12, "12th-largest"}, {21, "21st-largest"}, {1000, "1,000th-largest"}};
  for (const auto& [rank, expected] : cases) {
    s->primary.events[1] = TraceEvent{TraceEventKind::ThresholdRaised, TraceReason::None, 0, 0, rank, 3.5f, kNone,
                                      std::nextafter(3.5f, 0.0f)};
    const QString text = traceNarrative(*s, s->primary, 1);
    EXPECT_TRUE(text.contains(QString::fromLatin1(expected))) << rank << ": " << text.toStdString();
  }
}

// A query term the index does not know has no cursor: the first step says so ("'zzz' at doc the
// end" told a student nothing).
TEST(TraceNarrative, TheFirstStepNamesTermsThatAreNotInTheIndex) {
  auto s = std::const_pointer_cast<TraceSnapshot>(makeTrace());
  s->lanes[1] = TraceLane{};
  s->lanes[1].term = QStringLiteral("zzz");
  for (std::size_t i = 0; i < s->primary.events.size(); ++i) s->primary.positions[2 * i + 1] = engine::kNoMoreDocs;
  const QString text = traceNarrative(*s, s->primary, 0);
  EXPECT_TRUE(text.contains(QStringLiteral("'alpha' at doc 100"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("'zzz' is not in the index"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("the end"))) << text.toStdString();

  // With AND the engine opens no cursor at all (nothing can match); "'alpha' at doc the end" before.
  for (std::size_t i = 0; i < s->primary.events.size(); ++i) s->primary.positions[2 * i] = engine::kNoMoreDocs;
  const QString none = traceNarrative(*s, s->primary, 0);
  EXPECT_TRUE(none.contains(QStringLiteral("'zzz' is not in the index and AND needs every term"))) << none.toStdString();
  EXPECT_FALSE(none.contains(QStringLiteral("the end"))) << none.toStdString();
  s->lanes[0] = s->lanes[1];
  EXPECT_TRUE(traceNarrative(*s, s->primary, 0).contains(QStringLiteral("none of its terms is in the index")));
  // A query of no terms at all (punctuation only): no "()".
  s->lanes.clear();
  s->primary.positions.clear();
  const QString empty = traceNarrative(*s, s->primary, 0);
  EXPECT_TRUE(empty.contains(QStringLiteral("no terms after analysis"))) << empty.toStdString();
  EXPECT_FALSE(empty.contains(QStringLiteral("()"))) << empty.toStdString();
}

TEST(TraceNarrative, PrintsEnoughDecimalsToTellComparedNumbersApart) {
  auto s = std::const_pointer_cast<TraceSnapshot>(makeTrace());
  s->primary.events[6].bound = std::nextafter(6.9f, 10.0f);  // above the floor, equal at 3 decimals
  s->primary.events[6].floor = 6.9f;
  const QString text = traceNarrative(*s, s->primary, 6);
  EXPECT_FALSE(text.contains(QStringLiteral("6.900 <= 6.900"))) << text.toStdString();
}

TEST(TraceSnapshot, HeapReplayKeepsTheTotalOrder) {
  auto s = makeTrace();
  auto heap = TraceSnapshot::heapAt(s->primary, 2, 3);
  ASSERT_EQ(heap.size(), 2u);
  EXPECT_EQ(heap[0].doc, 200u);
  EXPECT_EQ(heap[1].doc, 100u);
  heap = TraceSnapshot::heapAt(s->primary, 2, 8);
  ASSERT_EQ(heap.size(), 2u);
  EXPECT_EQ(heap[0].doc, 60'000u);
  EXPECT_EQ(heap[1].doc, 200u);
  EXPECT_TRUE(TraceSnapshot::heapAt(s->primary, 2, 0).empty());
}

// A 1000x400 lanes view of `run`, at `step`.
void showAt(TraceLanesView& view, const TraceSnapshotPtr& s, const TraceRun& run, std::size_t step) {
  view.resize(1000, 400);
  view.setRun(s, &run);
  view.setStep(step);
}

TEST(TraceLanesView, DrawsTheCursorWhereTheTraceSaysItIs) {
  auto s = makeTrace();
  TraceLanesView view;
  showAt(view, s, s->primary, 6);
  EXPECT_EQ(view.focusDoc(), 48'213u);
  // Over kFullViewDocs documents: a window around the focus, which holds the cursor.
  const auto [from, to] = view.viewRange();
  EXPECT_LE(from, 48'213u);
  EXPECT_GT(to, 48'213u);
  EXPECT_EQ(to - from, view.zoomSpan());
  const int x = view.cursorX(0);
  EXPECT_GT(x, 0);
  EXPECT_EQ(x, view.docToX(48'213));
  view.setStep(7);
  EXPECT_GT(view.cursorX(1), x);  // moved right with the cursor
  const QImage image = view.grab().toImage();
  EXPECT_FALSE(image.isNull());
}

// The bulk AND and taat decode blocks without walking the cursors, and the engine records so
// (TraceRecorder::cursorsWalked; which paths, engine tests): a marker stuck on one doc while
// windows went by read as a path that never moved, so none is drawn for such a run.
TEST(TraceLanesView, DrawsNoCursorForPathsThatDoNotWalkThem) {
  auto s = makeEditableTrace();
  TraceLanesView view;
  showAt(view, s, s->primary, 6);
  EXPECT_TRUE(view.cursorsWalked());
  EXPECT_GT(view.cursorX(0), 0);
  s->primary.cursorsWalked = false;
  showAt(view, s, s->primary, 6);
  EXPECT_FALSE(view.cursorsWalked());
  EXPECT_EQ(view.cursorX(0), -1);
  s->primary.algorithm = engine::Algorithm::Taat;  // the header's other wording
  view.setRun(s, &s->primary);
  EXPECT_FALSE(view.cursorsWalked());
  EXPECT_FALSE(view.grab().toImage().isNull());
}

}  // namespace
}  // namespace wandscope::widgets
