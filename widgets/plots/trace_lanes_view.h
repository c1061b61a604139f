// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/trace_snapshot.h"

#include <QColor>
#include <QPoint>
#include <QRect>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

namespace wandscope::widgets {

// The teaching picture of one step of a traced evaluation. One horizontal lane per query term over
// the doc-id axis: the term's blocks as bars as tall as their block-max score (boundaries marked),
// its list maximum as a dashed line, its postings as ticks as tall as their score (the ones next to
// the cursor drawn darker), and the cursor at its position at this step. Above the lanes: the
// threshold (k-th score), the upper-bound sum at the latest pivot and the block-max sum behind the
// latest skip, as a meter (kept when the view is short: the header then shrinks to one line); for
// the bulk AND the current window is shaded with its bound and the prune table's cut-off. The
// event's doc, skip ranges and candidates are marked across the lanes.
//
// Display only: it draws a TraceRun it is given and never runs anything. Painting costs
// O(blocks + postings in view), independent of the step, so replay stays smooth on long traces.
class TraceLanesView : public QWidget {
  Q_OBJECT
 public:
  explicit TraceLanesView(QWidget* parent = nullptr);

  // Shows `run` (owned by `snapshot`); null clears. Resets the step to 0.
  void setRun(TraceSnapshotPtr snapshot, const TraceRun* run);
  void setTitle(const QString& title);
  void setStep(std::size_t step);
  std::size_t step() const noexcept { return m_step; }
  const TraceRun* run() const noexcept { return m_run; }

  // The doc-id range drawn at this step, always inside extent(). Fitted (the default, and after
  // fit()): the whole extent when it spans at most kFullViewDocs documents, otherwise a window of
  // kDefaultSpan documents that follows focusDoc(). Zooming changes the span; panning fixes the
  // window where the user put it until a step's focus leaves it (the window then re-centres).
  std::pair<engine::DocId, engine::DocId> viewRange() const;
  // The doc-id range of the query's lists: first posting to last posting + 1 over every known
  // lane, widened to kMinSpan documents when shorter ([0, docs) without lists). Zooming out stops
  // here and panning stops at its ends.
  std::pair<engine::DocId, engine::DocId> extent() const;
  // The document the current step is about (the event's doc, else the lowest cursor).
  engine::DocId focusDoc() const;
  // Pixel x of a doc id in the current view, or -1 when outside it.
  int docToX(engine::DocId doc) const;
  // Pixel x of term t's cursor at this step, -1 when exhausted, off the view, or not walked.
  int cursorX(std::size_t term) const;
  // Whether the run walks the cursors, as the engine recorded it (TraceRecorder::cursorsWalked:
  // not for taat and the bulk AND, which decode blocks directly, so the recorded positions stay
  // put while windows go by). No cursor marker is drawn otherwise (a marker stuck at doc 1,281
  // through the lesson's last windows read as a path that never moved), and the picture says why;
  // the shaded window is where the bulk AND is.
  bool cursorsWalked() const;

  // Whether the lanes are tall enough for the "cursor N" labels beside the markers (two lines of
  // small print): in shorter lanes they covered the lanes below.
  bool cursorLabelsShown() const;

  // MaxScore: whether term t is non-essential at this step (drawn hatched).
  bool nonEssential(std::size_t term) const;

  // The label of lane `term` as drawn at the current size, one string per line: the term, then
  // as many of "list max X" and "df N, B blocks" (split in two when too wide) as the lane's
  // height fits, each elided to the label column. Short lanes show the term only; the lane's
  // tooltip (laneToolTip) always has everything.
  QStringList laneLabel(std::size_t term) const;
  QString laneToolTip(std::size_t term) const;
  // A maximum score for the labels: three decimals, and three significant digits below 0.1, so a
  // small maximum never reads 0.000 ("0.0000812").
  static QString formatMaximum(float score);

  // The header's first line: the title, the step and the event ("wand   step 11 of 20   pivot").
  QString titleText() const;
  // The bound meter's rectangle at the current size (empty without a run, and for a run without
  // bounds: no pivot, block skip or window, as MaxScore's and the exhaustive path's, whose meter
  // would hold the threshold alone and read as a document position). When the view is short the
  // header shrinks to one line of text above the meter; a run without bounds has its threshold in
  // words only, at every size.
  QRect meterRect() const;
  // Whether the header is the compact one (title and numbers on one line above the meter).
  bool compactHeader() const;
  // Where the header's texts go at the current size: the title; beside it, for a run that walks no
  // cursors (taat, the bulk AND), why no cursor is drawn, in the longest wording that fits whole
  // (down to "no cursors"; hovering it explains); the threshold line on the next row, or in the
  // compact header after those on the title's row (empty when there is no room for it).
  struct HeaderTexts {
    QRect title;
    QRect why;  // empty when the run walks its cursors; as wide as whyText, never elided
    QString whyText;     // the longest of the wordings that fits whole
    QString whyToolTip;  // all of it, shown over `why`
    QRect line;
  };
  HeaderTexts headerTexts() const;
  // The lanes' frame at the current size: from the label column to the right margin, from the
  // header to the last lane. Doc ids are drawn kPlotInset pixels inside it at either end (docToX).
  QRect plotRect() const;
  static constexpr int kPlotInset = 8;

  // The block maxima's values as the last paint laid them out, and the marks drawn over the lanes
  // that a value must not lie under: the cursors' markers and labels, the event's line and label,
  // a skip's arrow, a shaded range's edges and labels, the lanes' notes. A value goes at its
  // block's left edge unless a mark is there, else to the right of the marks, else just inside
  // the bar, on a light box (the list maximum's dashed line passes under it); a block with no
  // free place keeps no value rather than a covered one ("2.178" read "1.178" under the pivot).
  struct BlockLabel {
    std::size_t term = 0;
    std::size_t block = 0;
    QString text;
    QRectF rect;
  };
  const std::vector<BlockLabel>& blockLabels() const noexcept { return m_blockLabels; }
  const std::vector<QRectF>& overlayMarks() const noexcept { return m_marks; }
  // The boxes of the cursors' labels ("cursor 500", "exhausted") as the last paint laid them out;
  // a skip's arrow passes under them.
  const std::vector<QRectF>& cursorLabelRects() const noexcept { return m_cursorLabels; }
  // The doc-id axis under the lanes (on by default). In comparison mode the page draws it under
  // the lower view only while both views show the same doc-id range.
  void setShowAxis(bool show);
  bool showsAxis() const noexcept { return m_showAxis; }

  // Zoom: the span is clamped to [kMinSpan, extent width] (a "handful of doc ids" at most zoom).
  // The view's centre stays put (the focus, while the view follows it).
  void setZoomSpan(engine::DocId span);
  // The span drawn now (viewRange's width).
  engine::DocId zoomSpan() const;
  void zoomIn();   // half the span
  void zoomOut();  // twice the span
  // Pans by `docs` (negative: left), stopping at the ends of extent().
  void panBy(long long docs);
  // Back to the fitted view (see viewRange).
  void fit();
  // Whether the view is the fitted one (no zoom or pan since setRun/fit).
  bool isFitted() const noexcept { return m_span == 0 && !m_manualFrom; }

  QSize sizeHint() const override { return {900, 420}; }
  // Room for the compact header, the axis and two lanes of kMinLaneHeight: the page must fit the
  // default 1280x800 window with the log open and comparison on (two views).
  QSize minimumSizeHint() const override;

  static constexpr engine::DocId kFullViewDocs = 10'000;
  static constexpr engine::DocId kDefaultSpan = 4096;
  static constexpr engine::DocId kMinSpan = 16;
  // Lane heights: at least kRoomyLaneHeight shows the whole label and the block maxima's values;
  // the header is compact when lanes would be shorter under the full one.
  static constexpr int kMinLaneHeight = 30;
  static constexpr int kRoomyLaneHeight = 50;

 signals:
  // The view's range changed by zoom, pan or fit (not by stepping).
  void viewChanged();

 protected:
  bool event(QEvent* event) override;  // tooltips of the lane labels
  void paintEvent(QPaintEvent* event) override;
  // Wheel: zoom around the doc under the mouse. Drag: pan.
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  struct Geometry {
    int left = 0, right = 0, top = 0, lanesTop = 0, laneHeight = 0, axisTop = 0;
    // Where the doc ids go: kPlotInset inside [left, right], so the first and last postings stand
    // clear of the lanes' frame.
    int plotLeft = 0, plotRight = 0;
    bool compact = false;  // the compact header (title and numbers on one line)
  };
  Geometry geometry() const;
  int laneCount() const;
  // The lane under pixel y, or -1.
  long laneAt(int y, const Geometry& g) const;
  void paintHeader(class QPainter& p, const Geometry& g) const;
  void paintLane(class QPainter& p, const Geometry& g, std::size_t t) const;
  void paintOverlays(class QPainter& p, const Geometry& g) const;
  void paintAxis(class QPainter& p, const Geometry& g) const;
  // Places the values paintLane asked for (m_pendingLabels) clear of m_marks and draws them.
  void paintBlockLabels(class QPainter& p, const Geometry& g) const;
  double xOf(engine::DocId doc, const Geometry& g) const;
  // Index of the latest event at or before the step with one of the given kinds, or -1.
  long latest(std::initializer_list<engine::TraceEventKind> kinds) const;
  // Fixes the window at `from` (clamped to the extent) with the current span.
  void setManualFrom(long long from);

  TraceSnapshotPtr m_snapshot;
  const TraceRun* m_run = nullptr;
  QString m_title;
  std::size_t m_step = 0;
  engine::DocId m_span = 0;                   // 0: fitted
  std::optional<engine::DocId> m_manualFrom;  // set by panning and mouse zoom
  std::optional<QPoint> m_dragFrom;
  engine::DocId m_dragViewFrom = 0;
  float m_scoreScale = 1.0f;  // largest list maximum (lane bar heights are relative to it)
  bool m_showAxis = true;
  bool m_hasBounds = false;  // the run has an event with a bound (pivot, skip, window)
  // Filled by each paint (see blockLabels()).
  struct PendingLabel {
    std::size_t term = 0;
    std::size_t block = 0;
    QString text;
    double x0 = 0, x1 = 0;  // the block's bar
    int above = 0;          // top of the row above the bar
    int inside = -1;        // top of the row just inside the bar, -1 when the bar is too low
    int laneTop = 0;
    QColor color;
  };
  mutable std::vector<PendingLabel> m_pendingLabels;
  mutable std::vector<QRectF> m_marks;
  mutable std::vector<QRectF> m_cursorLabels;
  mutable std::vector<BlockLabel> m_blockLabels;
};

}  // namespace wandscope::widgets
