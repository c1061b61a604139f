// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/trace_snapshot.h"

#include <QPoint>
#include <QWidget>

#include <optional>
#include <utility>

namespace wandscope::widgets {

// The teaching picture of one step of a traced evaluation. One horizontal lane per query term over
// the doc-id axis: the term's blocks as bars as tall as their block-max score (boundaries marked),
// its list maximum as a dashed line, its postings as ticks as tall as their score (the ones next to
// the cursor drawn darker), and the cursor at its position at this step. Above the lanes: the
// threshold (k-th score), the upper-bound sum at the latest pivot and the block-max sum behind the
// latest skip, as a meter; for the bulk AND the current window is shaded with its bound and the
// prune table's cut-off. The event's doc, skip ranges and candidates are marked across the lanes.
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
  // Pixel x of term t's cursor at this step, -1 when exhausted or off the view.
  int cursorX(std::size_t term) const;

  // MaxScore: whether term t is non-essential at this step (drawn hatched).
  bool nonEssential(std::size_t term) const;

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
  QSize minimumSizeHint() const override { return {400, 140}; }

  static constexpr engine::DocId kFullViewDocs = 10'000;
  static constexpr engine::DocId kDefaultSpan = 4096;
  static constexpr engine::DocId kMinSpan = 16;

 signals:
  // The view's range changed by zoom, pan or fit (not by stepping).
  void viewChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  // Wheel: zoom around the doc under the mouse. Drag: pan.
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  struct Geometry {
    int left = 0, right = 0, top = 0, lanesTop = 0, laneHeight = 0, axisTop = 0;
  };
  Geometry geometry() const;
  void paintHeader(class QPainter& p, const Geometry& g) const;
  void paintLane(class QPainter& p, const Geometry& g, std::size_t t) const;
  void paintOverlays(class QPainter& p, const Geometry& g) const;
  void paintAxis(class QPainter& p, const Geometry& g) const;
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
};

}  // namespace wandscope::widgets
