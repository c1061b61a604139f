// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/views/load_dashboard.h"

#include "widgets/plots/distribution_plot.h"

#include <QGridLayout>

namespace wandscope::widgets {
namespace {

const QString kWaiting = QStringLiteral("Start a run to see it here");

DistributionPlot* makePlot(QWidget* parent, const QString& title, const QString& x, const QString& y, bool logY,
                           const QString& tip) {
  auto* p = new DistributionPlot(parent);
  p->setMinimumSize(200, 150);
  p->setTitle(title);
  p->setAxisLabels(x, y);
  p->setLogarithmic(false, logY);
  p->setIntegerKeys(x == QLatin1String("rung"));
  p->setEmptyText(kWaiting);
  p->setToolTip(tip + QStringLiteral(" Right-click to export (PNG, SVG, PDF)."));
  return p;
}

double counterValue(const engine::RungResult& r, const QString& key) {
  const auto it = r.counters.find(key.toStdString());
  return it == r.counters.end() ? 0.0 : it->second;
}

}  // namespace

LoadDashboard::LoadDashboard(QWidget* parent) : QWidget(parent), m_idleText(kWaiting) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(4);
  const auto style = DistributionPlot::Style::Line;
  const auto dots = DistributionPlot::Style::LinePoints;

  m_latencyTime = makePlot(this, QStringLiteral("Latency over time"), QStringLiteral("run time (s)"),
                           QStringLiteral("ms"), true,
                           QStringLiteral("p50 and p99 latency of each live tick (~4 per second; plotting "
                                          "quantiles from the tick's histogram, not the report's)."));
  m_latencyTime->addSeries(QStringLiteral("p50"), style);
  m_latencyTime->addSeries(QStringLiteral("p99"), style);

  m_latencyRung = makePlot(this, QStringLiteral("Latency per rung"), QStringLiteral("rung"), QStringLiteral("ms"),
                           true,
                           QStringLiteral("The report's p50 and p99 of each finished rung (nearest rank). A "
                                          "quantile too thin to report is left out, not drawn."));
  m_latencyRung->addSeries(QStringLiteral("p50"), dots);
  m_latencyRung->addSeries(QStringLiteral("p99"), dots);

  m_cpuRung = makePlot(this, QStringLiteral("CPU per query"), QStringLiteral("rung"), QStringLiteral("CPU ms/query"),
                       false, QStringLiteral("Process CPU time over the rung's window / requests completed."));
  m_cpuRung->addSeries(QStringLiteral("CPU ms/query"), dots);

  m_shedTime = makePlot(this, QStringLiteral("Shed requests"), QStringLiteral("run time (s)"),
                        QStringLiteral("shed (run total)"), false,
                        QStringLiteral("Requests dropped because the in-flight cap was full, summed over the "
                                       "run, settle phases included: a rising line means the engine is saturated. "
                                       "The rung table counts each rung's measured window only, so its sheds add "
                                       "up to less."));
  m_shedTime->addSeries(QStringLiteral("shed"), DistributionPlot::Style::Steps);

  m_rssTime = makePlot(this, QStringLiteral("Resident memory"), QStringLiteral("run time (s)"), QStringLiteral("RSS (MiB)"),
                       false, QStringLiteral("Resident set size of the process at each tick."));
  m_rssTime->addSeries(QStringLiteral("RSS"), style);

  m_pruningRung = makePlot(this, QStringLiteral("Pruning work per query"), QStringLiteral("rung"),
                           QStringLiteral("per query"), true,
                           QStringLiteral("Per-query means of the engine counters in each rung: windows skipped "
                                          "(empty or by bound), doc blocks decoded and candidates fully scored."));
  m_pruningRung->addSeries(QStringLiteral("windows skipped"), dots);
  m_pruningRung->addSeries(QStringLiteral("blocks decoded"), dots);
  m_pruningRung->addSeries(QStringLiteral("candidates scored"), dots);

  grid->addWidget(m_latencyTime, 0, 0);
  grid->addWidget(m_latencyRung, 0, 1);
  grid->addWidget(m_cpuRung, 0, 2);
  grid->addWidget(m_shedTime, 1, 0);
  grid->addWidget(m_rssTime, 1, 1);
  grid->addWidget(m_pruningRung, 1, 2);
  for (int i = 0; i < 3; ++i) grid->setColumnStretch(i, 1);
  for (int i = 0; i < 2; ++i) grid->setRowStretch(i, 1);

  for (auto* p : plots()) {
    connect(p, &DistributionPlot::exported, this, &LoadDashboard::exported);
    connect(p, &DistributionPlot::exportFailed, this, &LoadDashboard::exportFailed);
  }
}

QList<DistributionPlot*> LoadDashboard::plots() const {
  return {m_latencyTime, m_latencyRung, m_cpuRung, m_shedTime, m_rssTime, m_pruningRung};
}

void LoadDashboard::appendLive(const LiveBatch& batch) {
  QVector<double> t, p50t, p50, p99t, p99, shed, rss;
  for (const auto& p : batch.points) {
    t << p.runSeconds;
    if (p.p50Ms) {
      p50t << p.runSeconds;
      p50 << *p.p50Ms;
    }
    if (p.p99Ms) {
      p99t << p.runSeconds;
      p99 << *p.p99Ms;
    }
    shed << static_cast<double>(p.runShedTotal);
    rss << p.rssMib;
  }
  if (t.isEmpty()) return;
  m_latencyTime->appendSeriesData(0, p50t, p50);
  m_latencyTime->appendSeriesData(1, p99t, p99);
  m_shedTime->appendSeriesData(0, t, shed);
  m_rssTime->appendSeriesData(0, t, rss);
}

void LoadDashboard::addRung(const engine::RungResult& r) {
  const QVector<double> x{static_cast<double>(r.index)};
  if (r.p50Ms) m_latencyRung->appendSeriesData(0, x, {*r.p50Ms});
  if (r.p99Ms) m_latencyRung->appendSeriesData(1, x, {*r.p99Ms});
  if (!r.p50Ms && !r.p99Ms) m_latencyRung->setEmptyText(QStringLiteral("Quantiles absent: too few samples"));
  if (r.completed > 0) m_cpuRung->appendSeriesData(0, x, {r.cpuMsPerQuery});
  const double windows = counterValue(r, QStringLiteral("windows_skipped_empty")) +
                         counterValue(r, QStringLiteral("windows_skipped_bound"));
  m_pruningRung->appendSeriesData(0, x, {windows});
  m_pruningRung->appendSeriesData(1, x, {counterValue(r, QStringLiteral("doc_blocks_decoded"))});
  m_pruningRung->appendSeriesData(2, x, {counterValue(r, QStringLiteral("full_scores"))});
}

void LoadDashboard::setRungs(const std::vector<engine::RungResult>& rungs) {
  clear();
  for (const auto& r : rungs) addRung(r);
  setOverTimeEmptyText(QStringLiteral("Live ticks are not stored: per-rung plots show this run"));
  if (rungs.empty()) {
    for (auto* p : {m_latencyRung, m_cpuRung, m_pruningRung}) p->setEmptyText(QStringLiteral("The run has no rungs"));
  }
}

void LoadDashboard::clear() {
  for (auto* p : plots()) {
    p->clearData();
    p->setEmptyText(m_idleText);
    p->setLegendVisible(p->seriesCount() > 1);
  }
}

void LoadDashboard::setIdleText(const QString& text) {
  m_idleText = text;
  for (auto* p : plots()) {
    int points = 0;
    for (int i = 0; i < p->seriesCount(); ++i) points += p->pointCount(i);
    if (points == 0) p->setEmptyText(text);
  }
}

void LoadDashboard::setOverTimeEmptyText(const QString& text) {
  for (auto* p : {m_latencyTime, m_shedTime, m_rssTime}) {
    p->setEmptyText(text);
    p->setLegendVisible(false);  // nothing to label
  }
}

}  // namespace wandscope::widgets
