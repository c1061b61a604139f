// SPDX-License-Identifier: GPL-3.0-or-later
// The trace view's zoom and pan limits (issue 8): never wider than the doc-id range of the query's
// lists, never narrower than a handful of doc ids, panning stops at the ends, and fit() resets;
// the wheel zooms around the doc under the mouse and a drag pans.
#include "widgets/plots/trace_lanes_view.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QWheelEvent>

#include <limits>

namespace wandscope::widgets {
namespace {

using engine::DocId;
using engine::TraceEvent;
using engine::TraceEventKind;
using engine::TraceReason;
constexpr float kNone = -std::numeric_limits<float>::infinity();

// Two terms whose postings lie in [first, last] of an index of `docs` documents; the events visit
// first, the middle and last.
TraceSnapshotPtr makeTrace(std::uint64_t docs, DocId first, DocId last) {
  auto s = std::make_shared<TraceSnapshot>();
  s->text = QStringLiteral("alpha beta");
  s->k = 2;
  s->docs = docs;
  const DocId mid = first + (last - first) / 2;
  for (const char* t : {"alpha", "beta"}) {
    TraceLane lane;
    lane.term = QString::fromLatin1(t);
    lane.known = true;
    lane.df = 3;
    lane.listMax = 4.0f;
    lane.blockLast = {mid, last};
    lane.blockMax = {2.5f, 4.0f};
    lane.postings = {first, mid, last};
    lane.postingScores = {1.0f, 2.5f, 4.0f};
    s->lanes.push_back(lane);
  }
  auto& r = s->primary;
  r.algorithm = engine::Algorithm::Wand;
  for (const DocId d : {first, mid, last}) {
    r.events.push_back(TraceEvent{TraceEventKind::CandidateScored, TraceReason::None, -1, d, 0, 5.0f, 0.0f, kNone});
    r.positions.push_back(d);
    r.positions.push_back(d);
  }
  return s;
}

struct Fixture {
  TraceSnapshotPtr trace;
  TraceLanesView view;
  Fixture(std::uint64_t docs, DocId first, DocId last) : trace(makeTrace(docs, first, last)) {
    view.resize(1000, 400);
    view.setRun(trace, &trace->primary);
  }
};

TEST(TraceLanesViewZoom, TheExtentIsTheListsRange) {
  Fixture f(1'000'000, 10'000, 60'000);
  EXPECT_EQ(f.view.extent(), std::make_pair(DocId{10'000}, DocId{60'001}));
  // Fitted on long lists: a default-sized window that follows the step.
  EXPECT_TRUE(f.view.isFitted());
  EXPECT_EQ(f.view.zoomSpan(), TraceLanesView::kDefaultSpan);
  f.view.setStep(1);
  const auto [from, to] = f.view.viewRange();
  EXPECT_LE(from, 35'000u);
  EXPECT_GT(to, 35'000u);
  // Short lists: the whole range.
  Fixture small(2048, 5, 1500);
  EXPECT_EQ(small.view.viewRange(), std::make_pair(DocId{5}, DocId{1501}));
}

TEST(TraceLanesViewZoom, ZoomOutStopsAtTheListsRange) {
  Fixture f(1'000'000, 10'000, 60'000);
  QSignalSpy changed(&f.view, &TraceLanesView::viewChanged);
  for (int i = 0; i < 40; ++i) f.view.zoomOut();
  EXPECT_EQ(changed.count(), 40);
  EXPECT_EQ(f.view.zoomSpan(), 50'001u);
  EXPECT_EQ(f.view.viewRange(), f.view.extent());
  f.view.setZoomSpan(std::numeric_limits<DocId>::max());
  EXPECT_EQ(f.view.viewRange(), f.view.extent());
}

TEST(TraceLanesViewZoom, ZoomInStopsAtAHandfulOfDocs) {
  Fixture f(1'000'000, 10'000, 60'000);
  f.view.setStep(1);
  for (int i = 0; i < 40; ++i) f.view.zoomIn();
  EXPECT_EQ(f.view.zoomSpan(), TraceLanesView::kMinSpan);
  const auto [from, to] = f.view.viewRange();
  EXPECT_EQ(to - from, TraceLanesView::kMinSpan);
  EXPECT_GE(f.view.docToX(f.view.focusDoc()), 0) << "the step's document stays in view";
  f.view.setZoomSpan(1);
  EXPECT_EQ(f.view.zoomSpan(), TraceLanesView::kMinSpan);
}

TEST(TraceLanesViewZoom, PanningStopsAtTheEnds) {
  Fixture f(1'000'000, 10'000, 60'000);
  f.view.setZoomSpan(1000);
  f.view.panBy(-1'000'000'000LL);
  EXPECT_FALSE(f.view.isFitted());
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{10'000}, DocId{11'000}));
  f.view.panBy(250);
  EXPECT_EQ(f.view.viewRange().first, 10'250u);
  f.view.panBy(1'000'000'000LL);
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{59'001}, DocId{60'001}));
  // Stepping to a document outside the panned window re-centres it there, at the same zoom.
  f.view.setStep(1);
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{34'500}, DocId{35'500}));
}

TEST(TraceLanesViewZoom, APannedViewStaysWhileTheStepIsInIt) {
  Fixture f(1'000'000, 10'000, 12'000);  // steps at 10,000, 11,000 and 12,000
  f.view.setZoomSpan(1500);
  f.view.panBy(-1'000'000LL);
  ASSERT_EQ(f.view.viewRange(), std::make_pair(DocId{10'000}, DocId{11'500}));
  f.view.setStep(1);  // 11,000: inside
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{10'000}, DocId{11'500}));
  f.view.setStep(2);  // 12,000: outside, re-centred and clamped to the end
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{10'501}, DocId{12'001}));
}

TEST(TraceLanesViewZoom, FitResets) {
  Fixture f(1'000'000, 10'000, 60'000);
  f.view.setStep(1);
  const auto fitted = f.view.viewRange();
  f.view.zoomIn();
  f.view.panBy(-700);
  EXPECT_NE(f.view.viewRange(), fitted);
  f.view.fit();
  EXPECT_TRUE(f.view.isFitted());
  EXPECT_EQ(f.view.viewRange(), fitted);
}

TEST(TraceLanesViewZoom, WheelZoomsAroundTheMouseAndDragPans) {
  Fixture f(2048, 0, 2047);  // fitted: all 2,048 docs
  ASSERT_EQ(f.view.viewRange(), std::make_pair(DocId{0}, DocId{2048}));
  const int x = f.view.docToX(1536);
  ASSERT_GT(x, 0);
  QWheelEvent in(QPointF(x, 200), f.view.mapToGlobal(QPointF(x, 200)), QPoint(), QPoint(0, 120), Qt::NoButton,
                 Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(&f.view, &in);
  EXPECT_EQ(f.view.zoomSpan(), 1024u);
  EXPECT_NEAR(f.view.docToX(1536), x, 3) << "the doc under the mouse stays there";
  // Zooming out past the range goes no further than the whole range.
  for (int i = 0; i < 5; ++i) {
    QWheelEvent out(QPointF(x, 200), f.view.mapToGlobal(QPointF(x, 200)), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&f.view, &out);
  }
  EXPECT_EQ(f.view.viewRange(), std::make_pair(DocId{0}, DocId{2048}));
  // Drag 200 px to the left after zooming in: the view moves right, and stops at the end.
  f.view.setZoomSpan(512);
  const auto before = f.view.viewRange().first;
  auto mouse = [&](QEvent::Type type, int px, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(px, 200), f.view.mapToGlobal(QPointF(px, 200)), Qt::LeftButton, buttons,
                  Qt::NoModifier);
    QApplication::sendEvent(&f.view, &e);
  };
  mouse(QEvent::MouseButtonPress, 600, Qt::LeftButton);
  mouse(QEvent::MouseMove, 400, Qt::LeftButton);
  mouse(QEvent::MouseButtonRelease, 400, Qt::NoButton);
  EXPECT_GT(f.view.viewRange().first, before);
  mouse(QEvent::MouseButtonPress, 900, Qt::LeftButton);
  mouse(QEvent::MouseMove, 0, Qt::LeftButton);
  mouse(QEvent::MouseMove, -100000, Qt::LeftButton);
  mouse(QEvent::MouseButtonRelease, -100000, Qt::NoButton);
  EXPECT_EQ(f.view.viewRange().second, 2048u);
}

}  // namespace
}  // namespace wandscope::widgets
