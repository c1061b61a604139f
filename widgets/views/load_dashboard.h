// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"
#include "widgets/models/live_batch.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace wandscope::widgets {

class DistributionPlot;

// The plots of a benchmark run: latency p50/p99 over time and per rung, CPU ms/query per rung,
// shed requests and RSS over time, and the per-query pruning counters per rung. Live ticks arrive
// in batches (appendLive) and finished rungs one by one (addRung); a stored run is shown with
// setRungs (the store keeps rungs, not ticks, so the over-time plots then say so). The per-rung
// plots draw each target of a run as its own series (several targets: one colour per target, each
// metric its marks, a legend naming the targets), against the rungs' offered load where the run
// allows (rungKeysFor; a live run decides again with each rung). Every plot appends in bulk and
// replots on its own coalescing timer, only when visible and changed; each exports PNG/SVG/PDF
// from its context menu. Displays data only: it never runs anything.
class LoadDashboard : public QWidget {
  Q_OBJECT
 public:
  explicit LoadDashboard(QWidget* parent = nullptr);

  void appendLive(const LiveBatch& batch);
  void addRung(const engine::RungResult& rung);
  void setRungs(const std::vector<engine::RungResult>& rungs);
  void clear();
  // What every plot says while it has nothing to show (after clear): by default "Start a run to
  // see it here", the Load page's words; a page that shows stored runs says how to pick one.
  void setIdleText(const QString& text);
  QString idleText() const { return m_idleText; }

  DistributionPlot* latencyOverTime() const noexcept { return m_latencyTime; }
  DistributionPlot* latencyPerRung() const noexcept { return m_latencyRung; }
  DistributionPlot* cpuPerRung() const noexcept { return m_cpuRung; }
  DistributionPlot* shedOverTime() const noexcept { return m_shedTime; }
  DistributionPlot* rssOverTime() const noexcept { return m_rssTime; }
  DistributionPlot* pruningPerRung() const noexcept { return m_pruningRung; }
  QList<DistributionPlot*> plots() const;

  // What the per-rung plots' x axis is: each rung's offered rate (open loop), its clients (closed
  // loop) or its index; rungKeysFor says when which.
  enum class RungAxis { Index, OfferedRate, Concurrency };
  struct RungKeys {
    RungAxis axis = RungAxis::Index;
    bool logarithmic = false;
    bool operator==(const RungKeys&) const = default;
  };
  static RungKeys rungKeysFor(const std::vector<engine::RungResult>& rungs);
  RungKeys rungKeys() const noexcept { return m_rungKeys; }

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);

 private:
  void setOverTimeEmptyText(const QString& text);
  // The index of the rung's target in m_targets; a new target gets its series in every per-rung
  // plot, and with the second the plots turn to one colour per target with a legend of targets.
  int targetOf(const engine::RungResult& rung);
  // Draws a rung's points in the per-rung plots, at its key under m_rungKeys.
  void drawRung(const engine::RungResult& rung);
  double rungKey(const engine::RungResult& rung) const;
  // Sets the per-rung plots' x axis (label, scale, ticks) for `keys`.
  void applyRungKeys(const RungKeys& keys);
  // The per-rung plots back to one target's series, named by metric: how a run of one target is
  // drawn, as before there were several.
  void resetRungSeries();
  void labelTargets();
  // The series of a per-rung plot that draws `metric` (its index among the plot's metrics: p50,
  // p99; CPU; windows, blocks, candidates) for target `target` (an index into m_targets); -1 for
  // a plot that is not per rung or an index out of range (appendSeriesData then ignores it).
  int rungSeries(const DistributionPlot* plot, int target, int metric) const;

  DistributionPlot* m_latencyTime = nullptr;
  DistributionPlot* m_latencyRung = nullptr;
  DistributionPlot* m_cpuRung = nullptr;
  DistributionPlot* m_shedTime = nullptr;
  DistributionPlot* m_rssTime = nullptr;
  DistributionPlot* m_pruningRung = nullptr;
  QString m_idleText;
  QStringList m_targets;  // of the rungs shown, in the order of their first rung
  // The rungs shown, in the order they came: a rung that changes the x axis (a closed rung after
  // open ones, a rate again, a span reaching 3x) redraws them all at their new keys.
  std::vector<engine::RungResult> m_rungs;
  RungKeys m_rungKeys;
  // The per-rung plots and what each draws per target, in series order within the target.
  struct RungPlot {
    DistributionPlot* plot = nullptr;
    QStringList metrics;
    // The metrics as a legend of marks names them beside the targets (none: as `metrics`): the
    // pruning plot's three names did not fit one row at 1280x800, and a third row of legend left
    // its data no room. The points' tooltips and the plot's own name them whole.
    QStringList marks;
  };
  QList<RungPlot> m_rungPlots;
};

}  // namespace wandscope::widgets
