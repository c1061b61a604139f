// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/models/trace_snapshot.h"

#include <QWidget>

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

  // The doc-id range drawn at this step: the whole index when it has at most kFullViewDocs
  // documents, otherwise a window of zoomSpan() documents around focusDoc().
  std::pair<engine::DocId, engine::DocId> viewRange() const;
  // The document the current step is about (the event's doc, else the lowest cursor).
  engine::DocId focusDoc() const;
  // Pixel x of a doc id in the current view, or -1 when outside it.
  int docToX(engine::DocId doc) const;
  // Pixel x of term t's cursor at this step, -1 when exhausted or off the view.
  int cursorX(std::size_t term) const;

  // MaxScore: whether term t is non-essential at this step (drawn hatched).
  bool nonEssential(std::size_t term) const;

  void setZoomSpan(engine::DocId span);
  engine::DocId zoomSpan() const noexcept { return m_span; }

  QSize sizeHint() const override { return {900, 420}; }
  QSize minimumSizeHint() const override { return {400, 140}; }

  static constexpr engine::DocId kFullViewDocs = 10'000;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

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

  TraceSnapshotPtr m_snapshot;
  const TraceRun* m_run = nullptr;
  QString m_title;
  std::size_t m_step = 0;
  engine::DocId m_span = 4096;
  float m_scoreScale = 1.0f;  // largest list maximum (lane bar heights are relative to it)
};

}  // namespace wandscope::widgets
