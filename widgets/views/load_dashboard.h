// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"
#include "widgets/models/live_batch.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <vector>

namespace wandscope::widgets {

class DistributionPlot;

// The plots of a benchmark run: latency p50/p99 over time and per rung, CPU ms/query per rung,
// shed requests and RSS over time, and the per-query pruning counters per rung. Live ticks arrive
// in batches (appendLive) and finished rungs one by one (addRung); a stored run is shown with
// setRungs (the store keeps rungs, not ticks, so the over-time plots then say so). Every plot
// appends in bulk and replots on its own coalescing timer, only when visible and changed; each
// exports PNG/SVG/PDF from its context menu. Displays data only: it never runs anything.
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

 signals:
  void exported(const QString& path);
  void exportFailed(const QString& message);

 private:
  void setOverTimeEmptyText(const QString& text);

  DistributionPlot* m_latencyTime = nullptr;
  DistributionPlot* m_latencyRung = nullptr;
  DistributionPlot* m_cpuRung = nullptr;
  DistributionPlot* m_shedTime = nullptr;
  DistributionPlot* m_rssTime = nullptr;
  DistributionPlot* m_pruningRung = nullptr;
  QString m_idleText;
};

}  // namespace wandscope::widgets
