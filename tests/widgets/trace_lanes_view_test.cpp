// SPDX-License-Identifier: GPL-3.0-or-later
// The trace view's zoom and pan limits (issue 8): never wider than the doc-id range of the query's
// lists, never narrower than a handful of doc ids, panning stops at the ends, and fit() resets;
// the wheel zooms around the doc under the mouse and a drag pans. Its labels and header at the
// default window's size with comparison on: the meter stays, lane labels fit their column, one
// block is "1 block" and a small maximum keeps its significant digits.
#include "widgets/plots/trace_lanes_view.h"

#include "widgets/color_contrast.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QFontMetrics>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QWheelEvent>

#include <algorithm>
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
std::shared_ptr<TraceSnapshot> makeTrace(std::uint64_t docs, DocId first, DocId last) {
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

// A lane of a large index: a term on nearly every document, in 1,563 blocks, with a tiny maximum
// score (what a stop word scores), and a rare one in a single block.
std::shared_ptr<TraceSnapshot> makeLabelTrace() {
  auto s = makeTrace(200'000, 10, 199'990);
  s->lanes[0].term = QStringLiteral("the");
  s->lanes[0].df = 199'993;
  s->lanes[0].listMax = 0.00008f;
  s->lanes[0].blockLast.clear();
  s->lanes[0].blockMax.clear();
  for (DocId b = 0; b < 1563; ++b) {
    s->lanes[0].blockLast.push_back(std::min<DocId>(199'990, (b + 1) * 128));
    s->lanes[0].blockMax.push_back(0.00008f);
  }
  s->lanes[1].term = QStringLiteral("falcon");
  s->lanes[1].df = 32;
  s->lanes[1].blockLast = {199'990};
  s->lanes[1].blockMax = {4.0f};
  return s;
}

TEST(TraceLanesViewLabels, OneBlockAndSmallMaxima) {
  EXPECT_EQ(TraceLanesView::formatMaximum(4.1438f), QStringLiteral("4.144"));
  EXPECT_EQ(TraceLanesView::formatMaximum(0.00008f), QStringLiteral("0.0000800"));
  EXPECT_EQ(TraceLanesView::formatMaximum(0.0123f), QStringLiteral("0.0123"));
  EXPECT_EQ(TraceLanesView::formatMaximum(0.0f), QStringLiteral("0.000"));
  const auto trace = makeLabelTrace();
  TraceLanesView view;
  view.resize(1000, 400);
  view.setRun(trace, &trace->primary);
  const QString stop = view.laneLabel(0).join(QLatin1Char('|'));
  EXPECT_TRUE(stop.contains(QStringLiteral("list max 0.0000800"))) << stop.toStdString();
  EXPECT_TRUE(stop.contains(QStringLiteral("df 199,993"))) << stop.toStdString();
  EXPECT_TRUE(stop.contains(QStringLiteral("1,563 blocks"))) << stop.toStdString();
  const QString rare = view.laneLabel(1).join(QLatin1Char('|'));
  EXPECT_TRUE(rare.contains(QStringLiteral("1 block"))) << rare.toStdString();
  EXPECT_FALSE(rare.contains(QStringLiteral("1 blocks"))) << rare.toStdString();
  EXPECT_EQ(view.laneToolTip(0), QStringLiteral("'the': df 199,993, 1,563 blocks, list max 0.0000800"));
  EXPECT_EQ(view.laneToolTip(1), QStringLiteral("'falcon': df 32, 1 block, list max 4.000"));
}

TEST(TraceLanesViewLabels, LabelsFitTheirColumnAndShortLanesKeepTheMaximum) {
  const auto trace = makeLabelTrace();
  TraceLanesView view;
  QFont bold = view.font();
  bold.setBold(true);
  QFont small = view.font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
  // The label column is 150 pixels, 138 of them for text.
  for (const int height : {400, 160, 130}) {
    SCOPED_TRACE(height);
    view.resize(900, height);
    view.setRun(trace, &trace->primary);
    for (std::size_t t = 0; t < 2; ++t) {
      const QStringList lines = view.laneLabel(t);
      ASSERT_FALSE(lines.isEmpty());
      EXPECT_LE(QFontMetrics(bold).horizontalAdvance(lines[0]), 138);
      for (qsizetype i = 1; i < lines.size(); ++i) {
        EXPECT_LE(QFontMetrics(small).horizontalAdvance(lines[i]), 138) << lines[i].toStdString();
        EXPECT_FALSE(lines[i].contains(QChar(0x2026))) << "cut off: " << lines[i].toStdString();
      }
    }
  }
  // Two lanes in a picture of 130 pixels (the default window with the log open and comparison
  // on): each still says its list maximum, the number the pruning decisions compare.
  view.resize(900, 130);
  EXPECT_GE(view.laneLabel(0).size(), 2) << view.laneLabel(0).join(QLatin1Char('|')).toStdString();
  EXPECT_EQ(view.laneLabel(0).value(1), QStringLiteral("list max 0.0000800"));
  EXPECT_LE(view.minimumSizeHint().height(), 130);
}

TEST(TraceLanesViewHeader, TheMeterStaysWhenTheViewIsShort) {
  auto trace = makeLabelTrace();
  trace->primary.events[0].kind = TraceEventKind::PivotSelected;  // a bound to show
  trace->primary.events[0].bound = 3.0f;
  TraceLanesView view;
  view.setRun(trace, &trace->primary);
  view.resize(900, 400);
  EXPECT_FALSE(view.compactHeader());
  const QRect tall = view.meterRect();
  EXPECT_FALSE(tall.isEmpty());
  view.resize(900, 130);
  EXPECT_TRUE(view.compactHeader());
  const QRect compact = view.meterRect();
  EXPECT_FALSE(compact.isEmpty());
  EXPECT_GE(compact.height(), 18);
  EXPECT_LT(compact.bottom(), 50) << "above the lanes";
  const qsizetype compactLines = view.laneLabel(0).size();
  // Without its axis (the upper picture in comparison mode) the lanes get the room.
  view.setShowAxis(false);
  EXPECT_GT(view.minimumSizeHint().height(), 0);
  EXPECT_LT(view.minimumSizeHint().height(), 130 - 20);
  TraceLanesView empty;
  EXPECT_TRUE(empty.meterRect().isEmpty());
  // A run without bounds (every event a scored candidate): short, its header is one line.
  const auto plain = makeLabelTrace();
  TraceLanesView line;
  line.setRun(plain, &plain->primary);
  line.resize(900, 130);
  EXPECT_TRUE(line.meterRect().isEmpty());
  EXPECT_GT(line.laneLabel(0).size(), compactLines) << "its lanes get the room";
  line.resize(900, 400);
  EXPECT_TRUE(line.meterRect().isEmpty()) << "tall too: the threshold alone is said in words (ARunWithoutBoundsShowsNoMeter)";
}

// A run that walks no cursors says why beside the title; in the compact header the threshold line
// follows on the same row. A review found both drawn from the same x, one over the other.
TEST(TraceLanesViewHeader, TheNoCursorNoteAndTheThresholdLineNeverOverlap) {
  auto trace = makeLabelTrace();
  trace->primary.events[0].kind = TraceEventKind::PivotSelected;  // a bound: the meter stays
  trace->primary.events[0].bound = 3.0f;
  trace->primary.algorithm = engine::Algorithm::BulkAnd;
  trace->primary.cursorsWalked = false;
  TraceLanesView view;
  view.setRun(trace, &trace->primary);
  view.resize(1400, 130);
  ASSERT_TRUE(view.compactHeader());
  auto texts = view.headerTexts();
  ASSERT_FALSE(texts.why.isEmpty());
  EXPECT_TRUE(texts.whyText.contains(QStringLiteral("window by window")));
  ASSERT_FALSE(texts.line.isEmpty()) << "1400 pixels leave room for the line";
  EXPECT_FALSE(texts.why.intersects(texts.line));
  EXPECT_GT(texts.line.left(), texts.why.right());
  // Tall: the line has a row of its own; with cursors walked, no note.
  view.resize(1400, 400);
  texts = view.headerTexts();
  EXPECT_GT(texts.line.top(), texts.title.bottom());
  trace->primary.cursorsWalked = true;
  view.setRun(trace, &trace->primary);
  EXPECT_TRUE(view.headerTexts().why.isEmpty());
}

// Lanes too short for the "cursor N" labels draw the markers alone: eight terms with Compare on
// (lanes of 10 pixels) printed every label over the lanes below.
TEST(TraceLanesViewLabels, ShortLanesDrawNoCursorLabels) {
  auto s = makeTrace(1000, 10, 900);
  TraceLanesView view;
  view.resize(1000, 400);
  view.setRun(s, &s->primary);
  EXPECT_TRUE(view.cursorLabelsShown()) << "two terms in 400 pixels";
  while (s->lanes.size() < 8) s->lanes.push_back(s->lanes.front());
  s->primary.positions.clear();
  for (std::size_t e = 0; e < s->primary.events.size(); ++e) s->primary.positions.insert(s->primary.positions.end(), 8, 10);
  view.resize(1000, 180);
  view.setRun(s, &s->primary);
  EXPECT_FALSE(view.cursorLabelsShown()) << "eight terms in 180 pixels";
  const QImage picture = view.grab().toImage();  // paints without the labels, and without a crash
  EXPECT_FALSE(picture.isNull());
}

TEST(TraceLanesViewFocus, AClickTakesTheFocus) {
  TraceLanesView view;
  EXPECT_EQ(view.focusPolicy() & Qt::ClickFocus, Qt::ClickFocus);
}

}  // namespace
}  // namespace wandscope::widgets

namespace wandscope::widgets {
namespace {

// The red event labels ("scored 5.000") on the dark theme: drawn darker than the mark for a light
// base, they were dark red on a dark box (contrast 2.2, the walkthrough of stop 31). The reddest
// pixels drawn must now reach text contrast against the base; the dashed line itself, kept as it
// is, stays below it, so only the label can pass.
TEST(TraceLanesViewLabels, EventLabelsAreReadableOnTheDarkTheme) {
  auto s = makeTrace(1000, 10, 900);
  TraceLanesView view;
  QPalette dark;
  const QColor base(0x2d, 0x2d, 0x2d);
  dark.setColor(QPalette::Base, base);
  dark.setColor(QPalette::Window, QColor(0x35, 0x35, 0x35));
  dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
  dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
  view.setPalette(dark);
  view.resize(1000, 400);
  view.setRun(s, &s->primary);
  view.setStep(1);  // "scored 5.000" at the middle document
  const QImage picture = view.grab().toImage();
  double best = 0;
  for (int y = 0; y < picture.height(); ++y) {
    for (int x = 0; x < picture.width(); ++x) {
      const QColor c = picture.pixelColor(x, y);
      const int hue = c.toHsl().hslHue();
      if (c.toHsl().hslSaturation() < 100 || (hue > 20 && hue < 340)) continue;  // red pixels only
      best = std::max(best, contrastRatio(c, base));
    }
  }
  EXPECT_GE(best, 4.4) << "no red pixel readable on the dark base";
}

}  // namespace
}  // namespace wandscope::widgets

namespace wandscope::widgets {
namespace {

// The header's step numbers are grouped as the page's step label prints them ("step 12,345 of
// 19,999"): on a capped trace the picture read "step 12345 of 19999" under "step 12,345 / 19,999".
TEST(TraceLanesViewHeader, StepNumbersAreGrouped) {
  auto s = makeTrace(100'000, 10, 90'000);
  auto& r = s->primary;
  const TraceEvent e = r.events.front();
  r.events.assign(20'000, e);
  r.positions.assign(2 * r.events.size(), e.doc);
  TraceLanesView view;
  view.resize(1000, 400);
  view.setRun(s, &s->primary);
  view.setTitle(QStringLiteral("wand"));
  view.setStep(12'345);
  EXPECT_EQ(view.titleText().toStdString(), "wand   step 12,345 of 19,999   scored");
}

}  // namespace
}  // namespace wandscope::widgets

namespace wandscope::widgets {
namespace {

// The first posting sat exactly on the lanes' left border (the view starts on it), and its tick
// merged with the border: in the ties-at-k lesson doc 100, rank 1 in the heap, had no visible
// tick. Doc ids are now drawn a few pixels inside the frame at both ends; the frame stays.
TEST(TraceLanesViewZoom, TheFirstAndLastPostingsStandClearOfTheFrame) {
  Fixture f(2048, 100, 1700);
  ASSERT_EQ(f.view.viewRange(), std::make_pair(DocId{100}, DocId{1701}));
  const QRect frame = f.view.plotRect();
  ASSERT_FALSE(frame.isEmpty());
  EXPECT_GE(f.view.docToX(100) - frame.left(), 4) << "the first posting's tick is not on the border";
  EXPECT_GE(frame.right() - f.view.docToX(1700), 4) << "nor the last one's";
  // The tick is drawn there: a dark column in the lane (the cursor is on the last posting).
  f.view.setStep(2);
  const QImage image = f.view.grab().toImage();
  const int x = f.view.docToX(100);
  const int y = frame.top() + f.view.height() / 8;  // inside the first lane, above the baseline
  const QColor background = image.pixelColor(frame.left() + 2, y);
  bool tick = false;
  for (int row = frame.top(); row < frame.top() + frame.height() / 2; ++row) {
    tick = tick || image.pixelColor(x, row).lightness() < background.lightness() - 60;
  }
  EXPECT_TRUE(tick) << "no tick drawn at the first posting";
}

// Tall, a run without bounds (exhaustive, MaxScore) drew the meter's empty track with the threshold
// as a red line alone: above the doc-id axis it read as a document position (doc ~1,470 in the
// ties-at-k lesson). Its header now says the threshold in words only, at every size.
TEST(TraceLanesViewHeader, ARunWithoutBoundsShowsNoMeter) {
  auto plain = makeLabelTrace();
  for (auto& e : plain->primary.events) e.floor = 3.0f;  // a threshold the meter would draw
  TraceLanesView view;
  view.setRun(plain, &plain->primary);
  for (const int height : {400, 130}) {
    SCOPED_TRACE(height);
    view.resize(900, height);
    EXPECT_TRUE(view.meterRect().isEmpty());
    const QImage image = view.grab().toImage();
    int red = 0;
    for (int y = 0; y < view.plotRect().top() - 2; ++y) {  // the event's 2-pixel line starts at the top
      for (int x = view.plotRect().left(); x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        const int hue = c.toHsl().hslHue();
        red += c.toHsl().hslSaturation() > 100 && (hue < 20 || hue > 340) ? 1 : 0;
      }
    }
    EXPECT_EQ(red, 0) << "no threshold line above the lanes";
    EXPECT_LE(view.plotRect().top(), 50) << "the lanes take the meter's room";
  }
  // A run with bounds keeps its meter.
  auto bounded = makeLabelTrace();
  bounded->primary.events[0].kind = TraceEventKind::PivotSelected;
  bounded->primary.events[0].bound = 3.0f;
  view.setRun(bounded, &bounded->primary);
  view.resize(900, 400);
  EXPECT_FALSE(view.meterRect().isEmpty());
}

// The bulk AND's note was elided ("no cursors: the bulk AND goes window by window (shade...") even
// at 1400 pixels beside a long title. It is now the longest wording that fits whole, and hovering
// it says everything.
TEST(TraceLanesViewHeader, TheNoCursorNoteIsNeverCutOff) {
  auto trace = makeLabelTrace();
  trace->primary.events[0].kind = TraceEventKind::PivotSelected;
  trace->primary.events[0].bound = 3.0f;
  trace->primary.algorithm = engine::Algorithm::BulkAnd;
  trace->primary.cursorsWalked = false;
  TraceLanesView view;
  view.setRun(trace, &trace->primary);
  view.setTitle(QStringLiteral("bulk-and, long_windows=off, rank_floor=off"));
  for (const int width : {600, 760, 880, 1000, 1400}) {
    for (const int height : {130, 400}) {
      SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
      view.resize(width, height);
      const auto texts = view.headerTexts();
      EXPECT_TRUE(texts.whyToolTip.contains(QStringLiteral("window"))) << texts.whyToolTip.toStdString();
      if (width >= 760) {
        EXPECT_FALSE(texts.why.isEmpty()) << "room for the note";
      }
      if (texts.why.isEmpty()) continue;
      EXPECT_TRUE(texts.whyText.startsWith(QStringLiteral("no cursors"))) << texts.whyText.toStdString();
      EXPECT_LE(view.fontMetrics().horizontalAdvance(texts.whyText), texts.why.width()) << texts.whyText.toStdString();
      // As Qt elides (the rounded advance fitted exactly while the text was elided on screen).
      EXPECT_EQ(view.fontMetrics().elidedText(texts.whyText, Qt::ElideRight, texts.why.width()), texts.whyText);
      EXPECT_LE(texts.why.right(), width) << "inside the view";
      if (!texts.line.isEmpty() && texts.line.top() == texts.why.top()) {
        EXPECT_GT(texts.line.left(), texts.why.right());
      }
    }
  }
}

}  // namespace
}  // namespace wandscope::widgets

namespace wandscope::widgets {
namespace {

// A skip's arrow runs along the top of the first lane, where that lane's cursor label is: it was
// drawn over the label and struck its text through ("cursor 500" under a green line, noted at
// stop 37). The arrow now passes under the cursors' labels: no pixel of the arrow's colour
// inside a label's box.
TEST(TraceLanesViewLabels, ASkipArrowLeavesTheCursorLabelsReadable) {
  auto s = makeTrace(1000, 10, 900);
  auto& r = s->primary;
  // Step 1: lane 0's block skipped from doc 20 to 880, both cursors at 500 (inside the skip).
  r.events.insert(r.events.begin() + 1,
                  TraceEvent{TraceEventKind::BlockSkipped, TraceReason::None, 0, 20, 880, 0.0f, 3.0f, 2.0f});
  r.positions.insert(r.positions.begin() + 2, {500, 500});
  TraceLanesView view;
  view.resize(1000, 400);
  view.setRun(s, &s->primary);
  view.setStep(1);
  ASSERT_TRUE(view.cursorLabelsShown());
  const QImage picture = view.grab().toImage();
  ASSERT_FALSE(view.cursorLabelRects().empty());
  const QColor arrow = QColor(0x2e, 0x8b, 0x57).darker(120);
  int crossed = 0;
  int arrowPixels = 0;
  for (int y = 0; y < picture.height(); ++y) {
    for (int x = 0; x < picture.width(); ++x) {
      const QColor c = picture.pixelColor(x, y);
      if (std::abs(c.red() - arrow.red()) > 12 || std::abs(c.green() - arrow.green()) > 12 ||
          std::abs(c.blue() - arrow.blue()) > 12) {
        continue;
      }
      ++arrowPixels;
      for (const QRectF& box : view.cursorLabelRects()) {
        if (box.adjusted(1, 1, -1, -1).contains(QPointF(x + 0.5, y + 0.5))) ++crossed;
      }
    }
  }
  EXPECT_GT(arrowPixels, 500) << "the arrow is drawn";
  EXPECT_EQ(crossed, 0) << "arrow pixels inside a cursor label";
}

}  // namespace
}  // namespace wandscope::widgets
